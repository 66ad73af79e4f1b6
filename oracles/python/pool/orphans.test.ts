/**
 * No orphans: when the process that owns a worker pool dies by SIGKILL during runaway jobs (a busy
 * loop, a long sleep with a double-forked setsid daemon), every worker, sandbox and job process
 * is gone within a few seconds — on the bwrap and the process backends. Processes are found by a
 * unique marker in their environment or command line (bwrap's argv carries the sandbox's environment).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { killLeftovers, processesWith, waitFor } from '../../../testing/processes/scan.ts';

const parentScript = fileURLToPath(new URL('../../../testing/python/orphan-parent.ts', import.meta.url));

describe.each(['bwrap', 'process'])('killing the owner of a %s pool with SIGKILL', (backend) => {
  it('leaves no worker, sandbox or job process behind', async () => {
    const marker = `witness-orphan-${randomUUID()}`;
    const parent = spawn(process.execPath, ['--import', 'tsx', parentScript, backend, marker], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    try {
      parent.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const staged = await new Promise<string | null>((resolve) => {
        parent.stdout.on('data', (chunk: Buffer) => {
          const line = /running (\S+)/.exec(chunk.toString());
          if (line) resolve(line[1] as string);
        });
        parent.on('exit', () => resolve(null));
      });
      expect(staged, output.slice(-2000)).not.toBeNull();
      // Not root, the environment of a non-dumpable worker's processes cannot be read: their command line can.
      const scan = () => [...new Set([...processesWith(marker), ...processesWith(staged as string)])];
      // The busy loop, the sleeper and its daemon run (each in their own process, with the marker).
      const before = await waitFor(scan, (pids) => pids.length >= 5, 10_000);
      expect(before.length).toBeGreaterThanOrEqual(5);
      parent.kill('SIGKILL');
      const after = await waitFor(scan, (pids) => pids.length === 0, 5000);
      const left = killLeftovers(after);
      expect(left).toEqual([]);
    } finally {
      parent.kill('SIGKILL'); // a failed check must not leave the parent (and its pool) running
    }
  }, 40_000);
});
