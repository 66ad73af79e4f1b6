/** The gate and its paired statistics on hand-computed cases. */
import { describe, expect, it } from 'vitest';
import { evaluateGate, type GatePolicy } from './gate.ts';
import { renderGateMarkdown, renderGateText } from './gate-format.ts';
import type { GateInput, InstanceOutcome } from './outcomes.ts';
import { comparePairs, pairInstances } from './paired.ts';

function inst(taskId: string, tau: number | null, over: Partial<InstanceOutcome> = {}): InstanceOutcome {
  return {
    benchmark: 'nl-rx',
    strategy: 'diagnostic',
    taskId,
    trial: 0,
    model: 'sim',
    runId: 'r',
    promptHash: 'h',
    status: tau === null ? 'unsolved' : 'solved',
    solvedAtTurn: tau,
    hardening: null,
    ...over,
  };
}
const input = (path: string, instances: InstanceOutcome[]): GateInput => ({
  path,
  runId: path.replace('.json', ''),
  instances,
});
const policy = (over: Partial<GatePolicy> = {}): GatePolicy => ({
  metric: 'pass1',
  noiseBand: 0.02,
  alpha: 0.05,
  by: 'benchmark',
  ...over,
});
const tasks = Array.from({ length: 10 }, (_, i) => `t${i + 1}`);
// Baseline solves t1–t8 at turn 1; the candidate solves t1–t3 and t9: 1 fix (t9), 5 breaks (t4–t8).
const baseline = input(
  'base.json',
  tasks.map((t, i) => inst(t, i < 8 ? 1 : null)),
);
const candidate = input(
  'cand.json',
  tasks.map((t, i) => inst(t, i < 3 || i === 8 ? 1 : null)),
);

describe('paired comparison', () => {
  it('counts fixes and breaks on shared instances, Δ and the exact sign test', () => {
    const x = comparePairs(pairInstances(baseline.instances, candidate.instances).pairs, 'pass1');
    expect([x.n, x.tasks, x.baselineRate, x.candidateRate]).toEqual([10, 10, 0.8, 0.4]);
    expect(x.delta).toBeCloseTo(-0.4, 15);
    expect(x.fixes.map((i) => i.taskId)).toEqual(['t9']);
    expect(x.breaks.map((i) => i.taskId)).toEqual(['t4', 't5', 't6', 't7', 't8']);
    // 6 discordant tasks, 5 worse: P(X ≥ 5 | Bin(6, ½)) = 7/64
    expect(x.sign.pWorse).toBeCloseTo(7 / 64, 12);
    expect(x.interval!.low).toBeLessThan(-0.4);
    expect(x.interval!.high).toBeGreaterThan(-0.4);
  });

  it('gives a zero-width interval when every task changed the same way', () => {
    const b = ['a', 'b', 'c'].map((t) => inst(t, 1));
    const c = ['a', 'b', 'c'].map((t) => inst(t, null));
    const x = comparePairs(pairInstances(b, c).pairs, 'pass1');
    expect([x.delta, x.interval]).toEqual([-1, { low: -1, high: -1 }]);
    expect(x.sign.pWorse).toBeCloseTo(1 / 8, 12);
  });

  it('treats the task as the unit when strategies are pooled: correlated instances are not independent evidence', () => {
    // Tasks A, B, C × strategies s1, s2; the baseline solves all six. The candidate loses A on both
    // strategies and B on s1: 3 instance breaks, but only 2 tasks got worse → p = P(X ≥ 2 | Bin(2, ½)) = 1/4.
    const both = (t: string, s: string, tau: number | null) => inst(t, tau, { strategy: s });
    const b = ['A', 'B', 'C'].flatMap((t) => ['s1', 's2'].map((s) => both(t, s, 1)));
    const c = [
      both('A', 's1', null),
      both('A', 's2', null),
      both('B', 's1', null),
      both('B', 's2', 1),
      both('C', 's1', 1),
      both('C', 's2', 1),
    ];
    const x = comparePairs(pairInstances(b, c).pairs, 'pass1');
    expect([x.breaks.length, x.sign.breaks, x.sign.fixes]).toEqual([3, 2, 0]);
    expect(x.sign.pWorse).toBeCloseTo(1 / 4, 12);
    expect(x.delta).toBeCloseTo(-0.5, 15);
  });

  it('matches runs of different models, by model name only when a side holds several', () => {
    const a = [inst('t1', 1, { model: 'gpt-a' })];
    expect(pairInstances(a, [inst('t1', null, { model: 'gpt-b' })]).pairs).toHaveLength(1);
    const mixed = pairInstances(a, [inst('t1', null, { model: 'gpt-b' }), inst('t1', 1, { model: 'gpt-a' })]);
    expect([mixed.byModel, mixed.pairs.length, mixed.candidateOnly.length]).toEqual([true, 1, 1]);
    expect(mixed.pairs[0]!.candidate.model).toBe('gpt-a');
  });

  it('leaves out harness errors and invalid data, and counts unshared instances', () => {
    const p = pairInstances(
      [inst('t1', 1), inst('t2', 1), inst('t3', 1), inst('t5', 1)],
      [
        inst('t1', 1, { status: 'harness-error', solvedAtTurn: null }),
        inst('t2', 2),
        inst('t4', 1),
        inst('t5', null, { status: 'invalid-data' }),
      ],
    );
    expect([p.pairs.length, p.harnessErrors.length, p.baselineOnly.length, p.candidateOnly.length]).toEqual([
      1, 2, 1, 1,
    ]);
    expect(comparePairs(p.pairs, 'pass1').breaks.map((i) => i.taskId)).toEqual(['t2']);
    expect(comparePairs(p.pairs, 'passFinal').breaks).toEqual([]);
  });
});

describe('evaluateGate', () => {
  it('warns, not fails, when the drop is beyond the noise band but not significant', () => {
    const v = evaluateGate(baseline, candidate, policy());
    expect([v.ok, v.status]).toEqual([true, 'warn']);
    expect(v.checks[0]!.reasons[0]).toMatch(
      /^Pass@1 fell from 80\.0% to 40\.0% \(Δ −40\.0 points \[.*\]\) on 10 shared instances, beyond the noise band of 2\.0 points; 5 broke, 1 fixed; tasks worse\/better 5\/1, exact sign test one-sided p = 0\.1094 ≥ 0\.05, so the drop may be noise$/,
    );
  });

  it('fails when the drop is significant, naming the metric, the numbers and the instances that broke', () => {
    const v = evaluateGate(baseline, candidate, policy({ alpha: 0.2 }));
    expect([v.ok, v.status]).toEqual([false, 'fail']);
    expect(v.title).toBe('Witness gate: FAIL — Pass@1 regressed or fell below the floor in nl-rx');
    const text = renderGateText(v);
    expect(text).toContain('✗ nl-rx: 80.0% → 40.0%, Δ −40.0');
    expect(text).toContain('broke: nl-rx · diagnostic · task t4 · trial 0; nl-rx · diagnostic · task t5 · trial 0;');
    const md = renderGateMarkdown(v);
    expect(md).toContain('## Witness gate: FAIL');
    expect(md).toContain('- nl-rx · diagnostic · task t8 · trial 0');
  });

  it('fails below the absolute floor even without a baseline regression', () => {
    const same = evaluateGate(candidate, candidate, policy({ floor: 0.5 }));
    expect(same.status).toBe('fail');
    expect(same.checks[0]!.reasons).toEqual(['Pass@1 of the candidate is 40.0%, below the floor of 50.0%']);
    expect(evaluateGate(candidate, candidate, policy({ floor: 0.4 })).status).toBe('pass');
  });

  it('passes an improvement and a drop within the noise band', () => {
    expect(evaluateGate(candidate, baseline, policy()).status).toBe('pass');
    const base = input(
      'b.json',
      Array.from({ length: 100 }, (_, i) => inst(`t${i}`, 1)),
    );
    const oneLess = input(
      'c.json',
      Array.from({ length: 100 }, (_, i) => inst(`t${i}`, i === 0 ? null : 1)),
    );
    const v = evaluateGate(base, oneLess, policy());
    expect([v.status, v.checks[0]!.comparison.delta]).toEqual(['pass', -0.01]);
  });

  it('checks each (benchmark, strategy) when asked, and only the strategies named', () => {
    const other = (i: InstanceOutcome) => ({ ...i, strategy: 'zero-shot' });
    const b = input('b.json', [...baseline.instances, ...baseline.instances.map(other)]);
    const c = input('c.json', [...candidate.instances, ...baseline.instances.map(other)]);
    const v = evaluateGate(b, c, policy({ by: 'strategy', alpha: 0.2 }));
    expect(v.checks.map((x) => [x.strategy, x.status])).toEqual([
      ['diagnostic', 'fail'],
      ['zero-shot', 'pass'],
    ]);
    expect(
      evaluateGate(b, c, policy({ by: 'strategy', alpha: 0.2, strategies: ['zero-shot'] })).checks.map(
        (x) => x.strategy,
      ),
    ).toEqual(['zero-shot']);
  });

  it('fails closed when nothing is shared, and notes benchmarks it could not gate', () => {
    const v = evaluateGate(
      input('b.json', [inst('t1', 1, { benchmark: 'sql' })]),
      input('c.json', [inst('t1', 1)]),
      policy(),
    );
    expect([v.ok, v.status]).toEqual([false, 'fail']);
    expect(v.notes).toContain('baseline benchmarks the candidate did not run (not gated): sql');
    expect(v.notes.at(-1)).toMatch(/gate compared nothing \(fail closed\)/);
    expect(v.checks[0]!.reasons).toEqual(['no instance is shared with the baseline, so nothing was compared']);
  });

  it('gates on Pass@final and robust success when configured', () => {
    const b = input('b.json', [inst('a', 1, { hardening: 'robust' }), inst('b', 3, { hardening: 'robust' })]);
    const c = input('c.json', [inst('a', 2, { hardening: 'hidden' }), inst('b', 3, { hardening: 'robust' })]);
    expect(evaluateGate(b, c, policy({ metric: 'passFinal' })).checks[0]!.comparison.delta).toBe(0);
    expect(evaluateGate(b, c, policy({ metric: 'robust' })).checks[0]!.comparison.breaks.map((i) => i.taskId)).toEqual([
      'a',
    ]);
    expect(evaluateGate(b, c, policy({ metric: 'pass1' })).checks[0]!.comparison.breaks.map((i) => i.taskId)).toEqual([
      'a',
    ]);
  });
});

describe('the gate and the ledger of planned episodes', () => {
  const instances = ['1', '2', '3'].map((id) => inst(id, 1));
  it('fails closed when the candidate is missing planned episodes, however good its numbers', () => {
    const complete = evaluateGate(
      input('b.json', instances),
      { ...input('c.json', instances), ledger: { planned: 3, recorded: 3, lost: 0, notRun: [] } },
      policy(),
    );
    expect([complete.ok, complete.status]).toEqual([true, 'pass']);
    const lost = evaluateGate(
      input('b.json', instances),
      { ...input('c.json', instances), ledger: { planned: 4, recorded: 3, lost: 1, notRun: [] } },
      policy(),
    );
    expect([lost.ok, lost.status, lost.title]).toEqual([
      false,
      'fail',
      'Witness gate: FAIL — planned episodes are missing from the run',
    ]);
    expect(lost.notes).toContain(
      '1 of 4 planned episodes have no trajectory of their own (1 lost): the run is incomplete; the gate does not judge an incomplete run (fail closed)',
    );
    expect(renderGateText(lost)).toContain('the gate does not judge an incomplete run (fail closed)');
  });
});
