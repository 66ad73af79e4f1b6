import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DeadlineTimer } from './deadline-timer.ts';

/** Resolves with the ms from now until `timer` expires (the deadlines are set by `setUp`), or null after `waitMs`. */
function expiry(setUp: (timer: DeadlineTimer) => void, waitMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const started = performance.now();
    const timer = new DeadlineTimer(() => resolve(performance.now() - started));
    setUp(timer);
    setTimeout(() => resolve(null), waitMs);
  });
}

describe('a deadline moved without a timer per request', () => {
  it('expires at the last deadline set, whether it is later or earlier than the one before', async () => {
    const later = await expiry((t) => {
      t.set(40);
      t.set(150);
    }, 1000);
    expect(later).toBeGreaterThanOrEqual(149);
    const earlier = await expiry((t) => {
      t.set(1500);
      t.set(40);
    }, 2000);
    expect(earlier).toBeGreaterThanOrEqual(39);
    expect(earlier).toBeLessThan(1000); // not at the first deadline
  });

  it('restarts the deadline each time it is set, as a child moving to its next request', async () => {
    const started = performance.now();
    let lastSetAt = started;
    const expiredAt = await new Promise<number>((resolve) => {
      const timer = new DeadlineTimer(() => resolve(performance.now()));
      const set = () => {
        timer.set(300);
        lastSetAt = performance.now();
      };
      set();
      const again = setInterval(set, 50); // a request answered every 50 ms, for 600 ms
      setTimeout(() => clearInterval(again), 600);
    });
    expect(lastSetAt - started).toBeGreaterThan(500); // it was moved past its first deadline…
    expect(expiredAt - lastSetAt).toBeGreaterThanOrEqual(299); // …and expired 300 ms after the last move
    expect(expiredAt - lastSetAt).toBeLessThan(1500);
  });

  it('never expires once cleared, and keeps no process alive then', async () => {
    expect(
      await expiry((t) => {
        t.set(30);
        t.set(80);
        t.clear();
      }, 300),
    ).toBeNull();
    const module = fileURLToPath(new URL('./deadline-timer.ts', import.meta.url));
    const script = `import { DeadlineTimer } from ${JSON.stringify(module)};
      const t = new DeadlineTimer(() => process.exit(3)); t.set(20000); t.set(30000); t.clear();`;
    const started = performance.now();
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
