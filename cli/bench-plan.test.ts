import { describe, expect, it } from 'vitest';
import { defaultConfig, type WitnessConfig } from '../core/config.ts';
import type { LoadedTasks } from '../core/types.ts';
import { benchPlan, formatBenchPlan, planSuite } from './bench-plan.ts';

const loaded: LoadedTasks = {
  tasks: Array.from({ length: 10 }, (_, i) => ({ id: String(i + 1), benchmark: 'b', description: 'd', gold: 'g' })),
  issues: [{ item: 'src.txt:11', message: 'empty description' }],
};
const config = (run: WitnessConfig['run'] = {}, patch: Partial<WitnessConfig> = {}): WitnessConfig => ({
  ...defaultConfig('/project'),
  run,
  ...patch,
});

describe('planSuite', () => {
  it('applies the selection the suites apply and multiplies the call bounds', () => {
    const plan = planSuite(
      'nl-rx',
      loaded,
      ['zero-shot', 'generic', 'cheatsheet'],
      config({ limit: 4, strategies: ['generic', 'cheatsheet'] }),
    );
    expect(plan).toMatchObject({
      totalTasks: 10,
      selectedTasks: 4,
      unreadable: 1,
      episodes: 8,
      maxCalls: 4 * 6 + 4 * 2,
    });
    expect(plan.selection).toBe('seeded sample of 4, seed 1');
    const off = planSuite(
      'nl-rx',
      loaded,
      ['generic'],
      config({}, { hardening: { ...defaultConfig('/p').hardening, enabled: false }, turns: 7, trials: 3 }),
    );
    expect([off.strategies[0]!.maxCallsPerEpisode, off.episodes, off.maxCalls]).toEqual([7, 30, 210]);
  });

  it('says "unknown" for a strategy without a known bound, and names the unreadable items', () => {
    const suite = planSuite('mine', loaded, ['zero-shot', 'my-strategy'], config());
    expect(suite.maxCalls).toBeNull();
    const plan = benchPlan([suite], config());
    expect(plan.maxCalls).toBeNull();
    const text = formatBenchPlan(plan);
    expect(text).toMatch(/my-strategy +│ +10 │ +unknown │ +unknown │/);
    expect(text).toMatch(/1 unreadable items are recorded as invalid data/);
    expect(text).toMatch(/total: 20 episodes, model calls unknown \(a strategy has no known bound\)/);
  });

  it('refuses a selection that does not fit the suite', () => {
    expect(() => planSuite('nl-rx', loaded, ['zero-shot'], config({ tasks: ['3', '42'] }))).toThrow(
      /unknown task id "42"/,
    );
    expect(() => planSuite('nl-rx', loaded, ['zero-shot'], config({ strategies: ['react'] }))).toThrow(
      /unknown strategy "react" \(its strategies: zero-shot\)/,
    );
  });
});
