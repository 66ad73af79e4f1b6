import { describe, expect, it } from 'vitest';
import { makeTrajectory, CASES } from './__fixtures__/trajectories.ts';
import { groupPassAtK, passAtK, repeatAgreement, shownKs, taskAgreement, taskRepeats } from './pass-at-k.ts';

describe('pass@k (unbiased estimator, hand-computed)', () => {
  it('is 1 − C(n−c, k)/C(n, k)', () => {
    expect(passAtK(5, 2, 2)).toBeCloseTo(1 - 3 / 10, 15);
    expect(passAtK(4, 1, 2)).toBeCloseTo(1 - 3 / 6, 15);
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 15);
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passAtK(5, 3, 3)).toBe(1);
    expect(passAtK(1, 1, 1)).toBe(1);
    // large n: the product form is exact where factorials overflow
    expect(passAtK(1000, 1, 1)).toBeCloseTo(0.001, 12);
  });

  it('rejects k beyond the samples and impossible counts', () => {
    expect(() => passAtK(3, 1, 4)).toThrow(RangeError);
    expect(() => passAtK(3, 4, 1)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 0)).toThrow(RangeError);
  });

  it('averages over tasks for every k up to the smallest number of samples', () => {
    const repeats = [
      { taskId: 'a', n: 4, c: 1 },
      { taskId: 'b', n: 4, c: 4 },
      { taskId: 'c', n: 3, c: 0 },
    ];
    const curve = groupPassAtK(repeats);
    expect(curve.map((p) => p.k)).toEqual([1, 2, 3]);
    expect(curve[0]!.value).toBeCloseTo((0.25 + 1 + 0) / 3, 15);
    expect(curve[1]!.value).toBeCloseTo((0.5 + 1 + 0) / 3, 15);
    expect(curve[2]!.value).toBeCloseTo((0.75 + 1 + 0) / 3, 15);
    expect(groupPassAtK([])).toEqual([]);
    expect(shownKs(12)).toEqual([1, 2, 3, 5, 10, 12]);
  });
});

describe('per-task agreement of repeated episodes', () => {
  it('is the majority share per task, and flags tasks solved by some episodes only', () => {
    const agreement = repeatAgreement([
      { taskId: 'a', n: 4, c: 1 },
      { taskId: 'b', n: 4, c: 4 },
      { taskId: 'c', n: 3, c: 0 },
      { taskId: 'd', n: 1, c: 1 },
    ]);
    expect(taskAgreement({ taskId: 'a', n: 4, c: 1 })).toBe(0.75);
    expect(agreement.tasks).toBe(3);
    expect(agreement.mean).toBeCloseTo((0.75 + 1 + 1) / 3, 15);
    expect(agreement.flaky.map((r) => r.taskId)).toEqual(['a']);
    expect(repeatAgreement([{ taskId: 'd', n: 1, c: 0 }])).toEqual({ tasks: 0, mean: null, flaky: [] });
  });

  it('counts n and c per task from trajectories, leaving harness errors out', () => {
    const solved = (trial: number) => makeTrajectory({ taskId: 'x', trial, turns: [{ source: 'a', pass: CASES }] });
    const failed = (trial: number) => makeTrajectory({ taskId: 'x', trial, turns: [{ source: 'b', pass: [] }] });
    const broken = makeTrajectory({ taskId: 'y', status: 'harness-error', turns: [] });
    expect(taskRepeats([solved(0), failed(1), solved(2), broken])).toEqual([{ taskId: 'x', n: 3, c: 2 }]);
  });
});
