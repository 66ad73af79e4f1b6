import { describe, expect, it } from 'vitest';
import { runProgram } from '../run-program.ts';
import { DEFAULT_LIMITS } from '../../../core/sandbox/limits.ts';
import { WorkerPool } from './pool.ts';

const window = 'import time\nstart = time.time()\ntime.sleep(0.6)\nprint(start, time.time())';

describe('the warm worker pool', () => {
  it('runs jobs on its workers at the same time, each in a fresh process', async () => {
    const pool = new WorkerPool({ size: 2 });
    await pool.warm();
    const [a, b] = await Promise.all([runProgram(pool, window), runProgram(pool, window)]);
    const [a0, a1] = (a?.stdout ?? '').split(' ').map(Number) as [number, number];
    const [b0, b1] = (b?.stdout ?? '').split(' ').map(Number) as [number, number];
    expect(a0 < b1 && b0 < a1).toBe(true);
    expect(pool.stats).toMatchObject({ started: 2, replaced: 0, served: 2 });
    expect(pool.info?.versions).toMatchObject({
      numpy: expect.stringMatching(/^\d/),
      pandas: expect.stringMatching(/^\d/),
    });
    // A module imported by one job is not imported in the next: every job starts from the warm worker's state.
    await runProgram(pool, 'import json, sys\nsys.modules["witness_marker"] = json');
    const fresh = await runProgram(pool, 'import sys\nprint("witness_marker" in sys.modules)');
    expect(fresh.stdout).toBe('False\n');
    await pool.close();
  });

  it('replaces a worker that died and keeps serving; a closed pool refuses work', async () => {
    const pool = new WorkerPool({ size: 1 });
    const killed = await runProgram(pool, 'import os, signal\nos.kill(os.getppid(), signal.SIGKILL)');
    expect(killed.status).toBe('runtime');
    expect((await runProgram(pool, 'print(1)')).stdout).toBe('1\n');
    expect(pool.stats).toMatchObject({ started: 2, replaced: 1 });
    const queued = pool.run([
      {
        name: 'x',
        kind: 'exec',
        payload: { source: 'import time\ntime.sleep(5)' },
        limits: DEFAULT_LIMITS,
        deadlineMs: 10_000,
      },
    ]);
    const waiting = pool.run([
      { name: 'y', kind: 'exec', payload: { source: 'print(2)' }, limits: DEFAULT_LIMITS, deadlineMs: 10_000 },
    ]);
    const refused = expect(waiting).rejects.toThrow(/the Python worker pool was closed/);
    const cut = expect(queued).rejects.toThrow(/worker/);
    await pool.close();
    await refused;
    await cut;
    await expect(runProgram(pool, 'print(3)')).rejects.toThrow(/the Python worker pool is closed/);
  });
});
