import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, GIB, MIB } from '../../../core/sandbox/limits.ts';
import { explainException, harnessEventFailure, silentExit, terminationFailure, workerFailure } from './outcome.ts';
import { phaseResult } from './phase-testing.ts';
import { WorkerFailure } from './worker.ts';

const base = phaseResult();
const limits = { ...DEFAULT_LIMITS, addressSpaceBytes: 2 * GIB, fileSizeBytes: 16 * MIB, processes: 64, cpuSeconds: 3 };

describe('naming why a phase ended', () => {
  it('names the deadline, the CPU and file-size limits and crash signals', () => {
    expect(terminationFailure({ ...base, deadline: true, signal: 9 }, 1500, limits)).toEqual({
      kind: 'timeout',
      reason: 'killed at the wall-clock deadline of 1.5 s',
    });
    expect(terminationFailure({ ...base, signal: 24 }, 1000, limits)?.reason).toBe(
      'killed by the CPU time limit of 3 s (SIGXCPU)',
    );
    expect(terminationFailure({ ...base, signal: 25 }, 1000, limits)?.reason).toMatch(/file-size limit of 16 MiB/);
    expect(terminationFailure({ ...base, signal: 11, stderrTail: 'Fatal Python error: x' }, 1000, limits)?.reason).toBe(
      'crashed with SIGSEGV: Fatal Python error: x',
    );
    expect(terminationFailure({ ...base, outputCap: true, signal: 9 }, 1000, limits)).toEqual({
      kind: 'too-large',
      reason: 'reported more than 8 MiB of results to the harness and was stopped',
    });
    expect(terminationFailure({ ...base, printCap: 'stderr', signal: 9 }, 1000, limits)?.reason).toBe(
      'printed more than 16 MiB to stderr and was stopped (the output cap, limits.fileSizeBytes)',
    );
    expect(terminationFailure(base, 1000, limits)).toBeNull();
  });

  it('adds the limit behind an exception', () => {
    expect(explainException('MemoryError', '', limits)).toBe(
      'MemoryError (the address-space limit of 2 GiB was reached)',
    );
    expect(explainException('BlockingIOError', '[Errno 11] Resource temporarily unavailable', limits)).toMatch(
      /process limit of 64/,
    );
    expect(explainException('OSError', '[Errno 27] File too large', limits)).toMatch(/file-size limit of 16 MiB/);
    expect(explainException('OSError', '[Errno 101] Network is unreachable', limits)).toMatch(/no network/);
    expect(explainException('ValueError', 'bad', limits)).toBe('ValueError: bad');
  });

  it('reads harness errors, silent exits and worker failures', () => {
    expect(
      harnessEventFailure(
        {
          ...base,
          events: [{ event: 'harness-error', type: 'OSError', message: '[Errno 28] No space left on device' }],
        },
        limits,
      )?.reason,
    ).toMatch(/could not report its results: .*scratch space is full/);
    expect(silentExit({ ...base, exitCode: 3 })).toBe('exited with status 3 before reporting its results');
    expect(
      workerFailure(new WorkerFailure('the sandbox worker died (signal SIGKILL) while running phase "c"', 'c', 'died'))
        ?.reason,
    ).toMatch(/did the program kill its sandbox worker\?\); the worker was replaced/);
    expect(workerFailure(new WorkerFailure('stopped answering', 'c', 'unresponsive'))?.kind).toBe('timeout');
    expect(workerFailure(new Error('other'))).toBeNull();
  });
});
