import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../core/sandbox/limits.ts';
import { phaseResult } from './pool/phase-testing.ts';
import type { PhaseEvent } from './pool/protocol.ts';
import { ownFrames, programFailure } from './program-failure.ts';

const finished = (...events: PhaseEvent[]) => phaseResult({ events: [...events, { event: 'done' }] });
const traceback = [
  'Traceback (most recent call last):',
  '  File "runner.py", line 9, in run',
  '    exec(code)',
  '  File "solution.py", line 2, in f',
  '    return 1 / 0',
  'ZeroDivisionError: division by zero',
].join('\n');

describe('why a Python program phase failed', () => {
  it("keeps only the frames of the program's own file, each with its source line", () => {
    expect(ownFrames(traceback, 'solution.py')).toEqual(['  File "solution.py", line 2, in f', '    return 1 / 0']);
    expect(ownFrames(undefined, 'solution.py')).toEqual([]);
  });

  it('reads a top-level exception with its frames, cut to the last lines when asked', () => {
    const raised = finished({
      event: 'program-error',
      type: 'ZeroDivisionError',
      message: 'division by zero',
      traceback,
    });
    expect(programFailure(raised, 1000, DEFAULT_LIMITS, { file: 'solution.py' })).toEqual({
      kind: 'runtime',
      message: 'ZeroDivisionError: division by zero\n  File "solution.py", line 2, in f\n    return 1 / 0',
    });
    expect(programFailure(raised, 1000, DEFAULT_LIMITS, { file: 'solution.py', lastFrameLines: 1 })?.message).toBe(
      'ZeroDivisionError: division by zero\n    return 1 / 0',
    );
  });

  it('puts a syntax error before tampering and tampering before an exception, and marks a task error', () => {
    const all = finished(
      { event: 'program-error', type: 'ValueError', message: 'x' },
      { event: 'tampered', message: 'the program replaced unittest.TestCase' },
      { event: 'syntax-error', type: 'SyntaxError', message: 'invalid syntax' },
    );
    expect(programFailure(all, 1000, DEFAULT_LIMITS, { file: 'solution.py' })).toEqual({
      kind: 'syntax',
      message: 'SyntaxError: invalid syntax',
    });
    const tampered = { ...all, events: all.events.filter((e) => e.event !== 'syntax-error') };
    expect(programFailure(tampered, 1000, DEFAULT_LIMITS, { file: 'solution.py' })).toEqual({
      kind: 'unsafe',
      message: 'the program replaced unittest.TestCase; a program may not change the test framework',
    });
    const task = finished({ event: 'task-error', message: 'the tests do not import' });
    expect(programFailure(task, 1000, DEFAULT_LIMITS, { file: 'solution.py' })).toEqual({
      kind: 'runtime',
      message: 'the tests do not import',
      taskError: true,
    });
  });

  it('names what was running when the deadline stopped it, and is null for a phase that finished', () => {
    const stopped = { ...finished(), deadline: true, signal: 9, events: [] };
    expect(programFailure(stopped, 1500, DEFAULT_LIMITS, { file: '__test__.py', running: 'test_a' })).toEqual({
      kind: 'timeout',
      message: 'killed at the wall-clock deadline of 1.5 s while running test_a',
    });
    expect(programFailure(finished(), 1000, DEFAULT_LIMITS, { file: 'solution.py' })).toBeNull();
  });
});
