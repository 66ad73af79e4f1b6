/**
 * The compact trajectories on task meta (core/meta.ts) carry every number the reports compute:
 * for random trajectory sets the summary, the report data and the gate's outcomes of the compact
 * copies equal those of the full trajectories, and the copies are much smaller.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactTrajectory } from '../core/meta.ts';
import type { Trajectory } from '../core/types.ts';
import { CASES, makeTrajectory } from './__fixtures__/trajectories.ts';
import { outcomeOf } from './outcomes.ts';
import { buildReport } from './report-data.ts';
import { summarize } from './summary.ts';
import { trajectoryView } from './trajectory-view.ts';

const CREATED = new Date('2026-12-01T00:00:00Z');
const BOOTSTRAP = { resamples: 200 };

const turnSpec = fc.record({
  source: fc.option(fc.constantFrom('a+', 'a*b', '[ab]+', 'SELECT 1', 'x = 1\ny = 2'), { nil: null }),
  pass: fc.subarray(CASES),
  syntaxError: fc.option(fc.constant('bad syntax here'), { nil: undefined }),
  modelError: fc.option(fc.constant('HTTP 500 from the endpoint'), { nil: undefined }),
  phase: fc.constantFrom('solve' as const, 'solve' as const, 'hardening' as const),
});

const trajectory = fc
  .record({
    taskId: fc.constantFrom('1', '2', '3', '10'),
    strategy: fc.constantFrom('zero-shot', 'diagnostic', 'hero-t'),
    benchmark: fc.constantFrom('nl-rx', 'bird'),
    trial: fc.integer({ min: 0, max: 2 }),
    runId: fc.constantFrom('run-1', 'run-2'),
    turns: fc.array(turnSpec, { minLength: 0, maxLength: 4 }),
    status: fc.option(fc.constantFrom('model-error' as const, 'harness-error' as const), { nil: undefined }),
    hardening: fc.option(fc.constantFrom('hidden' as const, 'hardened' as const, 'robust' as const), {
      nil: undefined,
    }),
    ves: fc.option(fc.double({ min: 0, max: 4, noNaN: true }), { nil: undefined }),
    priced: fc.boolean(),
    refine: fc.boolean(),
  })
  .map((s): Trajectory => {
    const t = makeTrajectory({
      taskId: s.taskId,
      strategy: s.strategy,
      benchmark: s.benchmark,
      trial: s.trial,
      runId: s.runId,
      turns: s.turns,
      ...(s.status ? { status: s.status, ...(s.status === 'harness-error' ? { error: 'oracle crashed' } : {}) } : {}),
      ...(s.hardening ? { hardening: { status: s.hardening } } : {}),
    });
    // The texts and details a compact copy drops, so dropping them is tested.
    const witness = {
      kind: 'false-negative',
      label: 'too narrow',
      input: 'aab',
      expected: true,
      actual: false,
      size: 3,
    };
    return {
      ...t,
      turns: t.turns.map((turn, i) => ({
        ...turn,
        messages: [...turn.messages, { role: 'assistant' as const, content: 'x'.repeat(500) }],
        verdict: {
          ...turn.verdict,
          witnesses: [witness, witness],
          ...(s.ves !== undefined ? { detail: { timeRatio: s.ves, plan: 'SCAN t' } } : {}),
        },
        ...(turn.verdict.pass
          ? {}
          : { feedback: { text: 'still wrong '.repeat(20), disclosed: { witnesses: [witness] } } }),
        ...(i === 0
          ? {
              calls: [
                {
                  purpose: 'judge',
                  model: 'judge-1',
                  usage: { promptTokens: 7, completionTokens: 2 },
                  latencyMs: 4,
                  cached: false,
                },
              ],
            }
          : {}),
      })),
      outcome: t.outcome.hardening
        ? { ...t.outcome, hardening: { ...t.outcome.hardening, added: [witness] } }
        : t.outcome,
      ...(s.priced ? { pricing: { sim: { input: 1, output: 2 } } } : {}),
      ...(s.refine ? { refinement: { log: [{ step: 'refine', text: 'y'.repeat(300) }] } } : {}),
    };
  });

describe('compact trajectories', () => {
  it('give the same summary, report data and gate outcomes as the full ones (property)', () => {
    fc.assert(
      fc.property(fc.array(trajectory, { minLength: 1, maxLength: 40 }), (full) => {
        const compact = full.map(compactTrajectory);
        expect(summarize(compact, BOOTSTRAP)).toEqual(summarize(full, BOOTSTRAP));
        const a = buildReport(compact, { createdAt: CREATED, bootstrap: BOOTSTRAP, views: false }).report;
        const b = buildReport(full, { createdAt: CREATED, bootstrap: BOOTSTRAP, views: false }).report;
        expect(a).toEqual(b);
        expect(compact.map(outcomeOf)).toEqual(full.map(outcomeOf));
        // A page built from compact copies (their store lost) still shows each turn's counts right.
        const counts = (t: Trajectory) =>
          trajectoryView(t, 0).turns.map(({ index, phase, candidate, pass, failed, total, tokens }) => ({
            ...{ index, phase, candidate, pass, failed, total, tokens },
          }));
        expect(compact.map(counts)).toEqual(full.map(counts));
      }),
      { numRuns: 60 },
    );
  });

  it('drop the texts: a fraction of the full size', () => {
    const [sample] = fc.sample(fc.array(trajectory, { minLength: 200, maxLength: 200 }), { numRuns: 1, seed: 7 });
    const full = JSON.stringify(sample).length;
    const compact = JSON.stringify((sample as Trajectory[]).map(compactTrajectory)).length;
    expect(compact).toBeLessThan(full / 2);
  });
});
