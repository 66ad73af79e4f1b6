import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUDGET_SKIP_NOTE, SpendLedger } from './budget.ts';
import { defaultConfig, type WitnessConfig } from './config.ts';
import { openRunSession, type SessionInput } from './session.ts';
import { RunStore } from './store.ts';
import type { Trajectory } from './types.ts';

const settings = { model: 'sim', seed: 1, turns: 4, trials: 1 };
function config(over: Partial<WitnessConfig> = {}): WitnessConfig {
  return { ...defaultConfig(mkdtempSync(join(tmpdir(), 'witness-session-'))), ...over };
}
function input(c: WitnessConfig, over: Partial<SessionInput> = {}): SessionInput {
  return {
    benchmark: 'b',
    config: c,
    modelName: 'sim',
    settings,
    strategies: [{ name: 'plain' }, { name: 'memory', sequential: true }],
    taskIds: ['t1', 't2'],
    trials: 1,
    ...over,
  };
}
function stored(taskId: string, strategy: string): Trajectory {
  return {
    schema: 'witness.trajectory',
    version: 1,
    runId: 'r',
    benchmark: 'b',
    taskId,
    strategy,
    model: { name: 'sim', privileged: true },
    trial: 0,
    seed: 1,
    promptHash: 'h',
    oracle: { name: 'o', settings: {} },
    budget: 4,
    caseIds: [],
    turns: [],
    outcome: { status: 'solved', solvedAtTurn: 1 },
    tokens: { prompt: 0, completion: 0, total: 0, estimated: false },
    cache: { hits: 0, misses: 0 },
    startedAt: '',
    durationMs: 0,
  };
}
const savedRunId = process.env.WITNESS_RUN_ID;
afterEach(() => {
  vi.restoreAllMocks();
  if (savedRunId === undefined) delete process.env.WITNESS_RUN_ID;
  else process.env.WITNESS_RUN_ID = savedRunId;
});

describe('openRunSession', () => {
  it("records a new run's settings; a resume reuses stored episodes, except an unfinished sequential strategy", () => {
    // The run id comes through the config (WITNESS_RUN_ID maps onto run.id).
    const c = config({ run: { id: 'r' } });
    const fresh = openRunSession(input(c));
    expect(fresh.store.readSettings('b')).toEqual(settings);
    for (const [task, strategy] of [
      ['t1', 'plain'],
      ['t1', 'memory'],
    ])
      fresh.store.save(stored(task as string, strategy as string));

    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const resumed = openRunSession(input({ ...c, run: { resume: 'r' } }));
    expect(resumed.reusable('t1', 'plain', 0)?.taskId).toBe('t1');
    expect(resumed.reusable('t2', 'plain', 0)).toBeUndefined();
    // memory ran t1 but not t2: its sequence is redone from the start, and the session says so
    expect(resumed.reusable('t1', 'memory', 0)).toBeUndefined();
    expect(info).toHaveBeenCalledWith(
      'witness: resume: b · memory runs in task order with a memory and was not finished: its 1 stored episodes are redone in order',
    );

    new RunStore(c.storeDir, 'r').save(stored('t2', 'memory'));
    expect(openRunSession(input({ ...c, run: { resume: 'r' } })).reusable('t1', 'memory', 0)?.strategy).toBe('memory');
  });

  it('refuses a resume with other settings, and a USD budget without a price', () => {
    const c = config();
    new RunStore(c.storeDir, 'x').writeSettings('b', settings);
    expect(() =>
      openRunSession(input({ ...c, run: { resume: 'x' } }, { settings: { ...settings, turns: 2 } })),
    ).toThrow(/cannot resume run x: benchmark b ran with turns 4, this session has 2/);
    expect(() => openRunSession(input({ ...c, budget: { usd: 1 } }))).toThrow(
      /a budget in USD needs a price for model 'sim'/,
    );
    expect(() =>
      openRunSession(input({ ...c, budget: { usd: 1 }, prices: { sim: { input: 1, output: 1 } } })),
    ).not.toThrow();
  });

  it("says when the run's budget is spent, counting every worker's ledger", () => {
    const c = config({ budget: { tokens: 100 } });
    const session = openRunSession(input(c));
    expect(session.budgetSpentNote()).toBeNull();
    new SpendLedger(session.store.spendDir).record('solve', 150, 0); // another worker of the same run
    expect(session.budgetSpentNote()).toBe(`${BUDGET_SKIP_NOTE}: 150 tokens of 100; episode not run`);
    expect(openRunSession(input(config())).budgetSpentNote()).toBeNull();
  });
});
