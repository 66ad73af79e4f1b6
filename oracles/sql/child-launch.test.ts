import { describe, expect, it } from 'vitest';
import { childCommand } from './child-launch.ts';

const heapFlags = (args: string[]) => args.filter((a) => a.startsWith('--max-old-space-size'));

describe('the command line of a SQLite child', () => {
  it('limits the V8 heap only where the kernel does not already bound it', () => {
    const same = childCommand('child.mjs', { memoryMb: 384, heapMb: 384, tempFileMb: 1024 });
    const tighter = childCommand('child.mjs', { memoryMb: 384, heapMb: 48, tempFileMb: 1024 });
    expect(heapFlags(tighter.args)).toEqual(['--max-old-space-size=48']);
    if (same.kernelLimits) {
      expect(heapFlags(same.args)).toEqual([]);
      expect(same.args).toContain(`--data=${384 * 1024 * 1024}`);
    } else expect(heapFlags(same.args)).toEqual(['--max-old-space-size=384']);
    // The script and its arguments come last, whatever wraps it.
    expect(same.args.slice(-3)).toEqual([
      'child.mjs',
      String(process.pid),
      same.guard === 'watchdog' ? 'watchdog' : 'signal',
    ]);
  });
});
