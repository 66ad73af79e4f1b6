import { describe, expect, it } from 'vitest';
import { CASES, type TrajectorySpec, makeTrajectory } from './__fixtures__/trajectories.ts';
import {
  compareStrategies,
  groupTrajectories,
  listHarnessErrors,
  listInvalidData,
  sectionsOf,
  summarize,
} from './summary.ts';

const solvedAt = (taskId: string, turn: number, extra: Partial<TrajectorySpec> = {}) =>
  makeTrajectory({
    taskId,
    turns: [...Array.from({ length: turn - 1 }, () => ({ source: 'a', pass: ['p1'] })), { source: 'a+', pass: CASES }],
    ...extra,
  });

describe('strategy order', () => {
  it('puts known strategies first in the A-CEGIS order, then others alphabetically', () => {
    const names = ['zeta', 'diagnostic', 'alpha', 'generic', 'three-example', 'zero-shot', 'one-example', 'error-only'];
    expect([...names].sort(compareStrategies)).toEqual([
      'zero-shot',
      'generic',
      'error-only',
      'one-example',
      'three-example',
      'diagnostic',
      'alpha',
      'zeta',
    ]);
  });
});

describe('groupTrajectories', () => {
  it('groups by (benchmark, model, strategy) and keeps one trajectory per (task, trial)', () => {
    const groups = groupTrajectories([
      solvedAt('a', 1, { strategy: 'diagnostic' }),
      solvedAt('a', 2, { strategy: 'diagnostic' }), // same task and trial: dropped, counted
      solvedAt('a', 1, { strategy: 'diagnostic', trial: 1 }),
      solvedAt('a', 1, { strategy: 'zero-shot' }),
      solvedAt('a', 1, { strategy: 'zero-shot', model: 'gpt' }),
      solvedAt('a', 1, { strategy: 'zero-shot', benchmark: 'bird' }),
    ]);
    expect(groups.map((g) => [g.benchmark, g.model, g.strategy, g.trajectories.length, g.duplicates])).toEqual([
      ['bird', 'sim', 'zero-shot', 1, 0],
      ['nlrx-turk', 'gpt', 'zero-shot', 1, 0],
      ['nlrx-turk', 'sim', 'zero-shot', 1, 0],
      ['nlrx-turk', 'sim', 'diagnostic', 2, 1],
    ]);
    expect(groups[3]?.trajectories[0]?.outcome.solvedAtTurn).toBe(1); // the first one seen is kept
  });
});

describe('summarize', () => {
  const trajectories = [
    solvedAt('a', 1, { hardening: { status: 'robust', exact: true, sampledClean: true } }),
    solvedAt('b', 2, { hardening: { status: 'hidden' } }),
    makeTrajectory({
      taskId: 'c',
      turns: [
        { source: 'x', pass: [] },
        { source: 'y', pass: ['p1'] },
      ],
    }),
    makeTrajectory({ taskId: 'd', status: 'harness-error', error: 'row 4: gold does not parse', turns: [] }),
    makeTrajectory({
      taskId: 'e',
      status: 'model-error',
      turns: [{ source: null, ranNothing: true, modelError: '429' }],
    }),
    solvedAt('a', 1, { strategy: 'zero-shot', privileged: true, promptHash: 'ffff000011112222' }),
  ];
  const rows = summarize(trajectories);

  it('orders rows and fills every metric with counts and intervals', () => {
    expect(rows.map((r) => r.strategy)).toEqual(['zero-shot', 'diagnostic']);
    const diag = rows[1]!;
    // counted: a (τ 1), b (τ 2), c (unsolved), e (model error) → n = 4
    expect(diag).toMatchObject({
      n: 4,
      tasks: 5,
      solved: 2,
      harnessErrors: 1,
      modelErrors: 1,
      duplicates: 0,
      meanTimeToSuccess: 1.5,
      meanAttempts: 1.5, // (1 + 2 + 2 + 1) / 4
      hardened: 0.25,
      probeAgreement: 1,
      runIds: ['run-1'],
      promptHashes: ['0123456789abcdef'],
      oracles: [{ name: 'regex', settings: { dialect: 'python', match: 'full' } }],
      privileged: false,
    });
    expect(diag.pass1.value).toBe(0.25);
    expect(diag.passFinal.value).toBe(0.5);
    expect(diag.mrr.value).toBeCloseTo((1 + 0.5) / 4, 12);
    expect(diag.robust.value).toBe(0.25);
    // b: p1 passes both turns, then p2 n1 n2 fixed → 3 fixes; c: p1 fixed → 1 fix; no breaks
    expect([diag.fixes, diag.breaks, diag.rerPooled, diag.rerTaskMean]).toEqual([4, 0, 4, 2]);
    for (const estimate of [diag.pass1, diag.passFinal, diag.mrr, diag.robust]) {
      expect(estimate.ci!.low).toBeLessThanOrEqual(estimate.value!);
      expect(estimate.ci!.high).toBeGreaterThanOrEqual(estimate.value!);
    }
    expect(rows[0]).toMatchObject({ privileged: true, n: 1, promptHashes: ['ffff000011112222'] });
    expect(rows[0]!.pass1).toEqual({ value: 1, ci: { low: 1, high: 1 } });
  });

  it('is reproducible: the same trajectories give the same rows', () => {
    expect(summarize([...trajectories].reverse())).toEqual(rows);
  });

  it('lists each invalid item once, with its reason and its episodes, and leaves it out of n', () => {
    const invalid = (strategy: string, trial = 0) =>
      makeTrajectory({
        taskId: '17',
        strategy,
        trial,
        status: 'invalid-data',
        error: 'task 17: the gold regex "[0-9]&[a-z]" denotes the empty language',
        turns: [],
      });
    const all = [...trajectories, invalid('diagnostic'), invalid('diagnostic', 1), invalid('zero-shot')];
    expect(listInvalidData(all)).toEqual([
      {
        benchmark: 'nlrx-turk',
        taskId: '17',
        reason: 'task 17: the gold regex "[0-9]&[a-z]" denotes the empty language',
        episodes: 3,
      },
    ]);
    const [zeroShot, diagnostic] = summarize(all);
    expect([zeroShot?.n, zeroShot?.invalidData, diagnostic?.n, diagnostic?.invalidData]).toEqual([1, 1, 4, 2]);
    expect(diagnostic?.pass1).toEqual(rows[1]?.pass1);
  });

  it('gives null estimates for a group of harness errors only', () => {
    const [row] = summarize([trajectories[3]!]);
    expect(row).toMatchObject({ n: 0, harnessErrors: 1, pass1: { value: null, ci: null }, rerPooled: null });
  });

  it('splits rows into (benchmark, model) sections and lists harness errors', () => {
    const more = summarize([...trajectories, solvedAt('a', 1, { model: 'gpt' })]);
    expect(sectionsOf(more).map((s) => [s.model, s.rows.length])).toEqual([
      ['gpt', 1],
      ['sim', 2],
    ]);
    expect(listHarnessErrors(trajectories)).toEqual([
      {
        benchmark: 'nlrx-turk',
        model: 'sim',
        strategy: 'diagnostic',
        taskId: 'd',
        trial: 0,
        message: 'row 4: gold does not parse',
      },
    ]);
  });
});
