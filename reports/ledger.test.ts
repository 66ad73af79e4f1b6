import { describe, expect, it } from 'vitest';
import { BUDGET_SKIP_NOTE } from '../core/budget.ts';
import type { EpisodePlan } from '../core/episode.ts';
import {
  fateOf,
  type Ledger,
  ledgerGap,
  ledgerLine,
  ledgerProblem,
  mergeLedgers,
  planOf,
  tallyLedger,
  type TestFacts,
} from './ledger.ts';
import { trajectoryProblem } from './validate.ts';

const plan = (taskId: string, strategy = 'diagnostic'): EpisodePlan => ({
  runId: 'run-1',
  benchmark: 'nl-rx',
  taskId,
  strategy,
  model: { name: 'sim', privileged: true },
  trial: 0,
  seed: 7,
  promptHash: '0123456789abcdef',
  oracle: { name: 'regex', settings: {}, tokenizer: 'regex' },
  budget: 4,
});
const facts = (over: Partial<TestFacts>): TestFacts => ({ state: 'passed', errors: [], recorded: false, ...over });

describe('what became of a planned episode', () => {
  it('is recorded, not run for the budget, or lost with the reason its test gives', () => {
    expect(fateOf(facts({ recorded: true, state: 'failed', errors: ['harness error'] }), [])).toEqual({
      kind: 'recorded',
    });
    const budget = `${BUDGET_SKIP_NOTE}: 12,400 tokens of 12,000; episode not run`;
    expect(fateOf(facts({ state: 'skipped', note: budget }), [])).toEqual({ kind: 'not-run', reason: budget });
    expect(fateOf(facts({ state: 'failed', errors: ['Test timed out in 900000ms.\nIf this is a long…'] }), [])).toEqual(
      { kind: 'lost', reason: 'its test failed without recording the episode: Test timed out in 900000ms.' },
    );
    expect(fateOf(facts({ state: 'pending' }), ['Worker exited unexpectedly'])).toEqual({
      kind: 'lost',
      reason: 'its test never finished: its vitest worker ended before it (Worker exited unexpectedly)',
    });
    expect(fateOf(facts({ state: 'pending' }), [])).toMatchObject({ reason: expect.stringContaining('interrupted') });
    expect(fateOf(facts({ state: 'skipped', note: 'bail' }), [])).toMatchObject({
      reason: 'its test was skipped without recording the episode (bail)',
    });
    expect(fateOf(facts({ state: 'passed', unusable: 'not an object' }), [])).toMatchObject({
      reason: 'its test recorded an unusable trajectory: not an object',
    });
    expect(fateOf(facts({ state: 'failed', errors: ['x'.repeat(2000)] }), []).kind).toBe('lost');
    expect(
      (fateOf(facts({ state: 'failed', errors: ['x'.repeat(2000)] }), []) as { reason: string }).reason.length,
    ).toBe('its test failed without recording the episode: '.length + 501);
  });

  it('tallies the ledger, with a valid harness-error trajectory standing in for each lost episode', () => {
    const { ledger, standIns } = tallyLedger([
      { plan: plan('1'), fate: { kind: 'recorded' } },
      { plan: plan('2'), fate: { kind: 'lost', reason: 'its test never finished' } },
      { plan: plan('3', 'zero-shot'), fate: { kind: 'not-run', reason: 'budget' } },
    ]);
    expect(ledger).toEqual({
      planned: 3,
      recorded: 1,
      lost: 1,
      notRun: [{ benchmark: 'nl-rx', model: 'sim', strategy: 'zero-shot', taskId: '3', trial: 0, reason: 'budget' }],
    });
    expect(ledgerProblem(ledger)).toBeNull();
    expect(standIns).toHaveLength(1);
    expect(trajectoryProblem(standIns[0])).toBeNull();
    expect(standIns[0]).toMatchObject({
      taskId: '2',
      seed: 7,
      turns: [],
      outcome: { status: 'harness-error', solvedAtTurn: null, error: 'episode lost: its test never finished' },
    });
    expect(ledgerLine(ledger)).toBe(
      'Episodes: 3 planned, 1 recorded, 1 lost (a harness-error trajectory says why for each), 1 not run (budget spent; a resume runs them)',
    );
    expect(ledgerGap(ledger)).toBe(
      '2 of 3 planned episodes have no trajectory of their own (1 lost, 1 not run (budget spent)): the run is incomplete',
    );
    expect(ledgerGap({ planned: 3, recorded: 3, lost: 0, notRun: [] })).toBeNull();
  });

  it('reads plans and ledgers only when they are whole', () => {
    expect(planOf(plan('1'))).toEqual(plan('1'));
    expect(planOf({ ...plan('1'), trial: 'zero' })).toBeUndefined();
    expect(planOf({ ...plan('1'), model: { name: 'sim' } })).toBeUndefined();
    expect(planOf(null)).toBeUndefined();
    expect(ledgerProblem({ planned: 2, recorded: 1, lost: 0, notRun: [] })).toBe(
      'planned must equal recorded + lost + the not-run entries',
    );
    expect(ledgerProblem({ planned: 1, recorded: 1, lost: -1, notRun: [] })).toBe(
      'field "lost" must be a non-negative integer',
    );
    expect(ledgerProblem({ planned: 1, recorded: 0, lost: 0, notRun: [{ taskId: 1 }] })).toMatch(/^notRun\[0\] must/);
  });

  it('merges the ledgers of several results files, a file given twice counted once', () => {
    const a: Ledger = { planned: 4, recorded: 3, lost: 1, notRun: [] };
    const b: Ledger = {
      planned: 2,
      recorded: 1,
      lost: 0,
      notRun: [{ benchmark: 'bird', model: 'sim', strategy: 'zero-shot', taskId: '9', trial: 0, reason: 'budget' }],
    };
    expect(mergeLedgers([a, b, a])).toEqual({ planned: 6, recorded: 4, lost: 1, notRun: b.notRun });
    expect(mergeLedgers([a, undefined])).toBeUndefined();
  });
});
