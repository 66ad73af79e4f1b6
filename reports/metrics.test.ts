import { describe, expect, it } from 'vitest';
import { CASES, makeTrajectory } from './__fixtures__/trajectories.ts';
import {
  fixesAndBreaks,
  pairStability,
  trajectoryStability,
  transitionFixesBreaks,
} from '../core/trajectory-metrics.ts';
import {
  cacheUsage,
  hardenedRate,
  harnessErrorCount,
  invalidDataCount,
  meanAttempts,
  meanReciprocalRank,
  meanTimeToSuccess,
  modelErrorCount,
  passAt1,
  passAtFinal,
  probeAgreement,
  rerPooled,
  rerTaskMean,
  robustSuccess,
  solvedFirst,
  structuralStability,
  timeToSuccess,
  tokenUsage,
} from './metrics.ts';

// Cases are p1 p2 n1 n2. Each turn costs 10 prompt + 5 completion tokens.
// T1: solved at turn 1, then one hardening turn (ignored by solve metrics); robust, exact agrees.
const t1 = makeTrajectory({
  taskId: 'a',
  turns: [
    { source: 'a+', pass: CASES },
    { source: 'a+b?', pass: ['p1'], phase: 'hardening' },
  ],
  hardening: { status: 'robust', sampledClean: true, exact: true },
});
// T2: 'a' passes p1 n1; '(a' is a syntax error that ran nothing (all fail); 'a+b' passes all → τ = 3.
//   1→2: p1, n1 break (2 breaks); 2→3: all four fixed (4 fixes). fixes 4, breaks 2, ratio 2.
//   stability: [a] vs [(, a] = 1 − 1/2 = 0.5; [(, a] vs [a, +, b] = 1 − 3/3 = 0; mean 0.25.
//   hardened; sampledClean false while exact true → probing disagreed with the exact check.
const t2 = makeTrajectory({
  taskId: 'b',
  turns: [
    { source: 'a', pass: ['p1', 'n1'] },
    { source: '(a', ranNothing: true, syntaxError: 'missing ), unterminated subpattern' },
    { source: 'a+b', pass: CASES },
  ],
  hardening: { status: 'hardened', sampledClean: false, exact: true },
});
// T3: unsolved; 'x' passes p1, 'y' passes p2: 1 fix, 1 break, ratio 1; stability [x] vs [y] = 0.
const t3 = makeTrajectory({
  taskId: 'c',
  turns: [
    { source: 'x', pass: ['p1'] },
    { source: 'y', pass: ['p2'] },
  ],
});
// T4: model error on turn 2 (no candidate, ran nothing): 0 fixes, 3 breaks, ratio 0; no stability pair.
const t4 = makeTrajectory({
  taskId: 'd',
  status: 'model-error',
  turns: [
    { source: 'a', pass: ['p1', 'p2', 'n1'] },
    { source: null, ranNothing: true, modelError: 'HTTP 500' },
  ],
});
// T5: harness error: excluded from every rate, still counted and still costs tokens.
const t5 = makeTrajectory({
  taskId: 'e',
  status: 'harness-error',
  error: 'gold does not parse',
  turns: [{ source: 'z' }],
});
const group = [t1, t2, t3, t4, t5];

describe('per-trajectory metrics', () => {
  it('counts fixes and breaks over solve turns only, a missing case counting as failing', () => {
    expect(fixesAndBreaks(t1)).toEqual({ fixes: 0, breaks: 0 });
    expect(fixesAndBreaks(t2)).toEqual({ fixes: 4, breaks: 2 });
    expect(fixesAndBreaks(t3)).toEqual({ fixes: 1, breaks: 1 });
    expect(fixesAndBreaks(t4)).toEqual({ fixes: 0, breaks: 3 });
  });

  it('matches cases by id, not position', () => {
    const before = [
      { id: 'x', pass: true },
      { id: 'y', pass: false },
    ];
    const after = [
      { id: 'y', pass: true },
      { id: 'x', pass: true },
    ];
    expect(transitionFixesBreaks(['x', 'y'], before, after)).toEqual({ fixes: 1, breaks: 0 });
  });

  it('computes per-trajectory stability from adjacent solve candidates', () => {
    expect(trajectoryStability(t1)).toBeNull(); // one solve turn; the hardening turn does not pair
    expect(trajectoryStability(t2)).toBeCloseTo(0.25, 12);
    expect(trajectoryStability(t3)).toBe(0);
    expect(trajectoryStability(t4)).toBeNull();
    expect(pairStability('regex', '\\d{3}', '\\d{3}')).toBe(1);
    expect(pairStability('regex', '', '')).toBe(1); // max(0, 0, 1) guards the division
  });

  it('treats a model error as unsolved even if a turn index was recorded', () => {
    const odd = makeTrajectory({
      taskId: 'f',
      status: 'model-error',
      solvedAtTurn: 1,
      turns: [{ source: 'a', pass: CASES }],
    });
    expect(timeToSuccess(odd)).toBeNull();
    expect(timeToSuccess(t2)).toBe(3);
  });
});

describe('group metrics', () => {
  it('separates harness errors and model errors', () => {
    expect(harnessErrorCount(group)).toBe(1);
    expect(modelErrorCount(group)).toBe(1);
  });

  it('leaves invalid data out of every rate like a harness error, and counts it apart', () => {
    const invalid = makeTrajectory({
      taskId: 'g',
      status: 'invalid-data',
      error: 'task g: the gold regex "[0-9]&[a-z]" denotes the empty language',
      turns: [],
    });
    const withInvalid = [...group, invalid];
    expect([harnessErrorCount(withInvalid), invalidDataCount(withInvalid), modelErrorCount(withInvalid)]).toEqual([
      1, 1, 1,
    ]);
    for (const rate of [passAt1, passAtFinal, meanReciprocalRank, meanAttempts, robustSuccess, hardenedRate])
      expect(rate(withInvalid), rate.name).toBe(rate(group));
  });

  it('computes the solve rates over the four counted trajectories', () => {
    expect(passAt1(group)).toBe(0.25); // T1
    expect(passAtFinal(group)).toBe(0.5); // T1, T2
    expect(meanTimeToSuccess(group)).toBe(2); // (1 + 3) / 2
    expect(meanReciprocalRank(group)).toBeCloseTo(1 / 3, 12); // (1 + 1/3 + 0 + 0) / 4
    expect(meanAttempts(group)).toBe(2); // (1 + 3 + 2 + 2) / 4
  });

  it('reports both RER aggregations', () => {
    expect(rerPooled(group)).toBeCloseTo(5 / 6, 12); // Σfixes 4+1+0 = 5, Σbreaks 2+1+3 = 6
    expect(rerTaskMean(group)).toBe(1); // (2 + 1 + 0) / 3; T1 has one solve turn
  });

  it('averages stability over trajectories that have a pair', () => {
    expect(structuralStability(group)).toBeCloseTo(0.125, 12); // (0.25 + 0) / 2
  });

  it('computes hardening rates and probe agreement', () => {
    expect(hardenedRate(group)).toBe(0.5); // T1 robust, T2 hardened
    expect(robustSuccess(group)).toBe(0.25); // T1
    expect(probeAgreement(group)).toBe(0.5); // T1 agrees, T2 does not
  });

  it('sums tokens and cache use over every trajectory, harness errors included', () => {
    // turns: T1 2, T2 3, T3 2, T4 2, T5 1 = 10 turns × 15 tokens = 150; mean 150 / 5 = 30
    expect(tokenUsage(group)).toEqual({ total: 150, meanPerTrajectory: 30, estimated: false });
    expect(cacheUsage(group)).toEqual({ hits: 0, misses: 10 });
    const estimated = makeTrajectory({ taskId: 'g', turns: [{ source: 'a', pass: CASES, estimated: true }] });
    expect(tokenUsage([t1, estimated]).estimated).toBe(true);
  });

  it('gives ties their full weight', () => {
    // Two tasks tied at τ = 2 and one at τ = 1: mean τ = 5/3, MRR = (1/2 + 1/2 + 1) / 3 = 2/3.
    const tied = ['u', 'v'].map((taskId) =>
      makeTrajectory({
        taskId,
        turns: [
          { source: 'a', pass: [] },
          { source: 'b', pass: CASES },
        ],
      }),
    );
    const g = [...tied, makeTrajectory({ taskId: 'w', turns: [{ source: 'b', pass: CASES }] })];
    expect(meanTimeToSuccess(g)).toBeCloseTo(5 / 3, 12);
    expect(meanReciprocalRank(g)).toBeCloseTo(2 / 3, 12);
    // stability of 'a' → 'b' is 0 for both tied tasks; 'w' has no pair
    expect(structuralStability(g)).toBe(0);
  });

  it('gives zero-shot groups RER 0 (pooled) and no task mean', () => {
    const zeroShot = [makeTrajectory({ taskId: 'a', strategy: 'zero-shot', turns: [{ source: 'a', pass: ['p1'] }] })];
    expect(rerPooled(zeroShot)).toBe(0);
    expect(rerTaskMean(zeroShot)).toBeNull();
    expect(structuralStability(zeroShot)).toBeNull();
    expect(probeAgreement(zeroShot)).toBeNull();
  });

  it('returns null rather than NaN for empty or all-harness-error groups', () => {
    for (const g of [[], [t5]]) {
      expect(passAt1(g)).toBeNull();
      expect(passAtFinal(g)).toBeNull();
      expect(meanTimeToSuccess(g)).toBeNull();
      expect(meanReciprocalRank(g)).toBeNull();
      expect(meanAttempts(g)).toBeNull();
      expect(rerPooled(g)).toBeNull();
      expect(rerTaskMean(g)).toBeNull();
      expect(structuralStability(g)).toBeNull();
      expect(hardenedRate(g)).toBeNull();
      expect(robustSuccess(g)).toBeNull();
    }
    expect(tokenUsage([])).toEqual({ total: 0, meanPerTrajectory: null, estimated: false });
  });
});

describe('refinement strategies and oracles without hardening', () => {
  it('Pass@1 is the initial program, Pass@final the refined one', () => {
    // A refiner whose initial program passed and whose adopted revision broke it.
    const broke = makeTrajectory({
      taskId: 'r1',
      strategy: 'react',
      turns: [
        { source: 'a', pass: CASES },
        { source: 'b', pass: [] },
      ],
      solvedAtTurn: null,
      status: 'unsolved',
    });
    // One whose revision fixed a failing initial program (solved from turn 2 on).
    const fixed = makeTrajectory({
      taskId: 'r2',
      strategy: 'react',
      turns: [
        { source: 'a', pass: [] },
        { source: 'b', pass: CASES },
      ],
      solvedAtTurn: 2,
    });
    expect([broke, fixed].map(solvedFirst)).toEqual([1, 0]);
    expect(passAt1([broke, fixed])).toBe(0.5);
    expect(passAtFinal([broke, fixed])).toBe(0.5);
  });

  it('hardening rates are unknown (null), not zero, when solved trajectories were never hardened', () => {
    const solvedNoHardening = [makeTrajectory({ taskId: 'a', turns: [{ source: 'x', pass: CASES }] })];
    expect(hardenedRate(solvedNoHardening)).toBeNull();
    expect(robustSuccess(solvedNoHardening)).toBeNull();
    const unsolved = [makeTrajectory({ taskId: 'b', turns: [{ source: 'x', pass: [] }] })];
    expect(hardenedRate(unsolved)).toBe(0);
    const withHardening = [
      ...solvedNoHardening,
      makeTrajectory({ taskId: 'c', turns: [{ source: 'x', pass: CASES }], hardening: { status: 'robust' } }),
    ];
    expect(hardenedRate(withHardening)).toBe(0.5);
  });
});
