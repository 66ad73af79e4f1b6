/** Merging shards and runs, the report data and its published schema, spend, VES and the extra tables. */
import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../core/types.ts';
import { CASES, makeTrajectory, type TrajectorySpec } from './__fixtures__/trajectories.ts';
import { schemaErrors } from './__fixtures__/schemas.ts';
import { convergenceCurve, groupVes, tauHistogram, vesOf } from './curves.ts';
import { repeatsTable, spendTable, unpricedNote } from './extra-tables.ts';
import { evaluateGate } from './gate.ts';
import { mergeResults, mergeTrajectories } from './merge.ts';
import { buildBaseline, outcomeOf } from './outcomes.ts';
import { buildReport } from './report-data.ts';
import { buildResults } from './results-file.ts';
import { groupSpend, trajectorySpend } from './spend.ts';
import { sectionsOf, summarize } from './summary.ts';
import { trajectoryProblem } from './validate.ts';

const solvedAt = (tau: number, taskId: string, over: Partial<TrajectorySpec> = {}) =>
  makeTrajectory({
    taskId,
    ...over,
    turns: [
      ...Array.from({ length: tau - 1 }, () => ({ source: 'x', pass: [] as string[] })),
      { source: 'ok', pass: CASES },
    ],
  });
const unsolved = (taskId: string, over: Partial<TrajectorySpec> = {}) =>
  makeTrajectory({
    taskId,
    ...over,
    turns: [
      { source: 'x', pass: ['p1'] },
      { source: 'y', pass: ['p1', 'p2'] },
    ],
  });

describe('merging results', () => {
  const all = [solvedAt(1, 'a'), solvedAt(2, 'b'), unsolved('c'), solvedAt(1, 'd')];
  const shard1 = buildResults(summarize(all.slice(0, 2)), all.slice(0, 2));
  const shard2 = buildResults(summarize(all.slice(2)), all.slice(2));

  it('merges the shards of one run into the rows a single run gives', () => {
    const merged = mergeResults([shard1, shard2]);
    expect(merged.notes).toEqual([]);
    expect(summarize(merged.trajectories, {}, merged.variantOf)).toEqual(summarize(all));
  });

  it('counts a trajectory given twice once', () => {
    const merged = mergeResults([shard1, shard1, shard2]);
    expect(merged.trajectories).toHaveLength(4);
    expect(merged.notes).toEqual(['2 repeated trajectories (same run, task, strategy, trial) counted once']);
  });

  it('shows runs that overlap on the same tasks as separate rows, one per run', () => {
    const before = [solvedAt(1, 'a', { runId: 'run-a' }), unsolved('b', { runId: 'run-a' })];
    const after = [unsolved('a', { runId: 'run-b' }), unsolved('b', { runId: 'run-b' })];
    const merged = mergeTrajectories([before, after]);
    expect(merged.notes).toEqual(['runs run-a, run-b overlap on nlrx-turk · sim: shown as separate rows, one per run']);
    const sections = sectionsOf(summarize(merged.trajectories, {}, merged.variantOf));
    expect(sections.map((s) => [s.variant, s.rows[0]!.n, s.rows[0]!.pass1.value])).toEqual([
      ['run-a', 2, 0.5],
      ['run-b', 2, 0],
    ]);
    // Another model is another section anyway: no variants needed.
    const models = mergeTrajectories([before, after.map((t) => ({ ...t, model: { name: 'gpt', privileged: false } }))]);
    expect([models.notes, models.trajectories.map(models.variantOf)]).toEqual([
      [],
      [undefined, undefined, undefined, undefined],
    ]);
  });

  it('keeps the later of two versions of one episode of one run (a rerun)', () => {
    const old = { ...unsolved('a'), startedAt: '2026-07-01T00:00:00.000Z' };
    const redo = { ...solvedAt(1, 'a'), startedAt: '2026-07-02T00:00:00.000Z' };
    const merged = mergeTrajectories([[redo], [old]]);
    expect(merged.trajectories.map((t) => t.outcome.status)).toEqual(['solved']);
    expect(merged.notes[0]).toMatch(/recorded twice by one run with different contents; the later one is kept/);
  });
});

describe('plot series', () => {
  const group = [
    solvedAt(1, 'a'),
    solvedAt(2, 'b'),
    solvedAt(2, 'c'),
    unsolved('d'),
    makeTrajectory({ taskId: 'e', status: 'harness-error', turns: [] }),
  ];
  it('convergence: share solved by turn t; time to success: first solving turns and unsolved', () => {
    expect(convergenceCurve(group, 4)).toEqual([0.25, 0.75, 0.75, 0.75]);
    expect(tauHistogram(group, 4)).toEqual({ counts: [1, 2, 0, 0], unsolved: 1 });
    expect(convergenceCurve([], 2)).toEqual([null, null]);
  });

  it("VES: 100·√(time ratio) or the oracle's own value for solved episodes, 0 for the others, null without timing", () => {
    const timed = (t: Trajectory, detail: Record<string, number>): Trajectory => ({
      ...t,
      turns: t.turns.map((turn) => (turn.verdict.pass ? { ...turn, verdict: { ...turn.verdict, detail } } : turn)),
    });
    const fast = timed(solvedAt(1, 'a'), { timeRatio: 4 }); // √4 = 2 → 200
    const given = timed(solvedAt(2, 'b'), { ves: 90 });
    expect([vesOf(fast), vesOf(given), vesOf(unsolved('c'))]).toEqual([200, 90, null]);
    expect(groupVes([fast, given, unsolved('c'), unsolved('d')])).toBe((200 + 90) / 4);
    expect(groupVes(group)).toBeNull();
  });
});

describe('spend', () => {
  const priced: Trajectory = {
    ...solvedAt(2, 'a', { tokens: { prompt: 20, completion: 10 } }),
    model: { name: 'gpt-x', privileged: false },
    pricing: { 'gpt-x': { input: 1, output: 4 }, judge: { input: 10, output: 10 } },
  };
  priced.turns[1]!.calls = [
    {
      purpose: 'judge',
      model: 'judge',
      usage: { promptTokens: 100, completionTokens: 0 },
      latencyMs: 5,
      cached: false,
    },
  ];

  it('prices solving and auxiliary calls apart with the recorded prices', () => {
    // solve: 2 turns × (10 prompt, 5 completion) at $1/$4 per M = 2 × 30e-6; judge: 100 × $10/M = 1e-3
    const s = trajectorySpend(priced);
    expect(s.byPurpose.solve).toEqual({ calls: 2, prompt: 20, completion: 10, usd: expect.closeTo(60e-6, 12) });
    expect(s.byPurpose.judge).toEqual({ calls: 1, prompt: 100, completion: 0, usd: expect.closeTo(1e-3, 12) });
    expect(s.tokens).toBe(130);
    expect(s.usd).toBeCloseTo(1.06e-3, 12);
  });

  it('leaves the cost unknown and names the model when a price is missing', () => {
    const s = groupSpend([priced, solvedAt(1, 'b')]);
    expect([s.usd, s.unpriced, s.tokens]).toEqual([null, ['sim'], 145]);
    const section = sectionsOf(summarize([solvedAt(1, 'b')]))[0]!;
    expect(spendTable(section)).toBeNull();
    expect(unpricedNote(section)).toBe(
      'Cost unknown: no price configured for \'sim\' (add "prices" to witness.config.json).',
    );
    const withJudge = sectionsOf(summarize([priced]))[0]!;
    expect(spendTable(withJudge)).toMatchObject({
      headers: ['strategy', 'solve tokens', 'judge tokens', 'cost', 'cost / solved'],
      rows: [['diagnostic', '30 (2 calls)', '100 (1 calls)', '$0.0011', '$0.0011']],
    });
  });
});

describe('repeats table', () => {
  it('shows pass@k, agreement and the flaky tasks when tasks ran more than once', () => {
    const runs = [
      solvedAt(1, 'a', { trial: 0 }),
      unsolved('a', { trial: 1 }),
      solvedAt(1, 'b', { trial: 0 }),
      solvedAt(2, 'b', { trial: 1 }),
    ];
    const table = repeatsTable(sectionsOf(summarize(runs))[0]!)!;
    expect(table.headers).toEqual(['strategy', 'trials', 'pass@1', 'pass@2', 'agreement', 'flaky']);
    // a: 1 of 2, b: 2 of 2 → pass@1 = (0.5 + 1)/2, pass@2 = 1; agreement (0.5 + 1)/2
    expect(table.rows).toEqual([['diagnostic', '2', '75.0', '100.0', '0.750', '1/2']]);
    expect(table.notes[0]).toBe('diagnostic flaky tasks: a (1/2)');
    expect(repeatsTable(sectionsOf(summarize(runs.filter((t) => t.trial === 0)))[0]!)).toBeNull();
  });
});

describe('report data and the published JSON Schemas', () => {
  const trajectories = [
    solvedAt(1, 'a'),
    solvedAt(3, 'b'),
    unsolved('c'),
    makeTrajectory({ taskId: 'd', status: 'harness-error', error: 'task d: broken', turns: [] }),
  ];

  it('builds sections with curves over the largest budget, run totals and harness errors', () => {
    const { report, views } = buildReport(trajectories, { createdAt: new Date(0) });
    expect(report.sections).toHaveLength(1);
    const row = report.sections[0]!.rows[0]!;
    expect([report.sections[0]!.turns, row.curve, row.tau]).toEqual([
      4,
      [1 / 3, 1 / 3, 2 / 3, 2 / 3],
      { counts: [1, 0, 1, 0], unsolved: 1 },
    ]);
    expect(report.runs).toEqual([{ runId: 'run-1', trajectories: 4, spend: expect.objectContaining({ tokens: 90 }) }]);
    expect(report.harnessErrors.map((e) => e.message)).toEqual(['task d: broken']);
    expect(views.map((v) => [v.taskId, v.status, v.turns.length])).toEqual([
      ['a', 'solved', 1],
      ['b', 'solved', 3],
      ['c', 'unsolved', 2],
      ['d', 'harness-error', 0],
    ]);
    expect(views[1]!.turns[0]).toMatchObject({ pass: false, failed: 4, total: 4, candidate: 'x' });
  });

  it('writes results, report (with a gate verdict) and baseline files that validate against their schemas', () => {
    const results = buildResults(summarize(trajectories), trajectories);
    expect(schemaErrors('witness.results', JSON.parse(JSON.stringify(results)))).toEqual([]);
    const baseline = buildBaseline(trajectories);
    expect(schemaErrors('witness.baseline', JSON.parse(JSON.stringify(baseline)))).toEqual([]);
    const input = { path: 'x.json', runId: 'run-1', instances: trajectories.map(outcomeOf) };
    const gate = evaluateGate(input, input, { metric: 'pass1', noiseBand: 0.02, alpha: 0.05, by: 'benchmark' });
    const { report } = buildReport(trajectories, { gate, notes: ['a note'], sources: ['x.json'] });
    expect(schemaErrors('witness.report', JSON.parse(JSON.stringify(report)))).toEqual([]);
  });

  it('lists invalid data in the report, and every file that carries it validates against its schema', () => {
    const invalid = makeTrajectory({
      taskId: '17',
      status: 'invalid-data',
      error: 'task 17: the gold regex "[0-9]&[a-z]" denotes the empty language',
      turns: [],
    });
    const all = [...trajectories, invalid];
    const { report } = buildReport(all, { createdAt: new Date(0) });
    expect(report.invalidData).toEqual([
      { benchmark: 'nlrx-turk', taskId: '17', reason: invalid.outcome.error, episodes: 1 },
    ]);
    expect(report.sections[0]!.rows[0]).toMatchObject({ n: 3, harnessErrors: 1, invalidData: 1 });
    expect(schemaErrors('witness.report', JSON.parse(JSON.stringify(report)))).toEqual([]);
    const results = buildResults(summarize(all), all);
    expect(schemaErrors('witness.results', JSON.parse(JSON.stringify(results)))).toEqual([]);
    expect(trajectoryProblem(JSON.parse(JSON.stringify(invalid)))).toBeNull();
    expect(schemaErrors('witness.baseline', JSON.parse(JSON.stringify(buildBaseline(all))))).toEqual([]);
  });

  it("accepts the named tokenizers in a trajectory's oracle info and rejects others", () => {
    const results = JSON.parse(JSON.stringify(buildResults(summarize(trajectories), trajectories)));
    results.trajectories[0].oracle.tokenizer = 'regex';
    results.trajectories[1].oracle.tokenizer = 'code';
    expect(schemaErrors('witness.results', results)).toEqual([]);
    results.trajectories[0].oracle.tokenizer = 'words';
    expect(schemaErrors('witness.results', results)).toEqual([
      '/trajectories/0/oracle/tokenizer must be equal to one of the allowed values',
    ]);
    expect(trajectoryProblem(results.trajectories[0])).toBe('field "oracle.tokenizer" must be one of regex, code');
  });

  it('rejects files that break the schema, naming the place', () => {
    const results = JSON.parse(JSON.stringify(buildResults(summarize(trajectories), trajectories)));
    results.trajectories[0].outcome.status = 'great';
    delete results.summary[0].pass1;
    expect(schemaErrors('witness.results', results)).toEqual(
      expect.arrayContaining([
        "/summary/0 must have required property 'pass1'",
        '/trajectories/0/outcome/status must be equal to one of the allowed values',
      ]),
    );
    expect(schemaErrors('witness.baseline', { schema: 'witness.baseline', version: 2 })[0]).toMatch(
      /must have required property|must be equal to constant/,
    );
  });
});
