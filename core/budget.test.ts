import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BudgetSpentError,
  budgetSpent,
  describeSpend,
  hasLimit,
  meteredModel,
  parseBudget,
  SpendLedger,
} from './budget.ts';
import { withCache } from './models/cache.ts';
import { createSimModel } from './models/sim.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'witness-budget-'));
// The sim answers auxiliary calls (here: a judge's) without an episode, deterministically per request.
const judgeCall = (text: string) => ({
  messages: [{ role: 'user' as const, content: text }],
  trial: 0,
  purpose: 'judge' as const,
});

describe('parseBudget', () => {
  it('reads tokens with k/M suffixes and USD with a $ or usd', () => {
    expect(parseBudget('120000', 'x')).toEqual({ tokens: 120_000 });
    expect(parseBudget('120k', 'x')).toEqual({ tokens: 120_000 });
    expect(parseBudget('1.5M', 'x')).toEqual({ tokens: 1_500_000 });
    expect(parseBudget('$2.50', 'x')).toEqual({ usd: 2.5 });
    expect(parseBudget('2.5 USD', 'x')).toEqual({ usd: 2.5 });
  });

  it('names the source of a bad budget', () => {
    for (const bad of ['', '0', '-5', '3x', '$', '$0', 'ten'])
      expect(() => parseBudget(bad, '--budget')).toThrow(/^--budget: expected a budget/);
  });
});

describe('budget checks', () => {
  it('is spent when any limit is reached, and says how much of what', () => {
    expect(budgetSpent({ tokens: 999, usd: 0, calls: 3 }, { tokens: 1000 })).toBe(false);
    expect(budgetSpent({ tokens: 1000, usd: 0, calls: 3 }, { tokens: 1000 })).toBe(true);
    expect(budgetSpent({ tokens: 10, usd: 2.5, calls: 3 }, { tokens: 1000, usd: 2.5 })).toBe(true);
    expect(budgetSpent({ tokens: 10, usd: 2.5, calls: 3 }, {})).toBe(false);
    expect(hasLimit({})).toBe(false);
    expect(hasLimit({ usd: 1 })).toBe(true);
    expect(describeSpend({ tokens: 10512, usd: 2.51, calls: 3 }, { tokens: 10000, usd: 2.5 })).toBe(
      '10,512 tokens of 10,000, $2.5100 of $2.50',
    );
  });
});

describe('SpendLedger', () => {
  it('sums the files of every process sharing the run, by purpose', () => {
    const d = dir();
    const first = new SpendLedger(d);
    const second = new SpendLedger(d); // another worker process of the same run
    first.record('solve', 100, 0.001);
    first.record('judge', 20, 0.0002);
    second.record('solve', 50, 0.0005);
    expect(first.total()).toMatchObject({ tokens: 170, calls: 3 });
    expect(first.total().usd).toBeCloseTo(0.0017, 12);
    expect(second.total()).toEqual(first.total());
    expect(new SpendLedger(join(d, 'missing')).total()).toEqual({ tokens: 0, usd: 0, calls: 0 });
  });

  it('names an unreadable ledger file', () => {
    const d = dir();
    new SpendLedger(d).record('solve', 1, 0);
    writeFileSync(join(d, 'broken.json'), '{"tokens": "many"}');
    expect(() => new SpendLedger(d).total()).toThrow(
      /spend ledger .*broken\.json: expected numeric tokens, usd and calls/,
    );
  });
});

describe('meteredModel', () => {
  it('records every answered call at its price and refuses calls once the budget is spent', async () => {
    const ledger = new SpendLedger(dir());
    const model = meteredModel(createSimModel({ seed: 1 }), {
      ledger,
      budget: { tokens: 40 },
      price: { input: 1, output: 2 },
    });
    const first = await model.complete(judgeCall('review this change, please, with care'));
    const tokens = first.usage.promptTokens + first.usage.completionTokens;
    expect(ledger.total()).toEqual({
      tokens,
      usd: (first.usage.promptTokens * 1 + first.usage.completionTokens * 2) / 1e6,
      calls: 1,
    });
    while (!budgetSpent(ledger.total(), { tokens: 40 })) await model.complete(judgeCall('and again'));
    const error = await model.complete(judgeCall('once more')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetSpentError);
    expect((error as Error).message).toMatch(/^the run's budget is spent: \d+ tokens of 40$/);
  });

  it('does not count response-cache hits, and keeps the cache statistics visible', async () => {
    const ledger = new SpendLedger(dir());
    const cached = withCache(createSimModel({ seed: 1 }), {
      path: join(dir(), 'cache.sqlite'),
      mode: 'readwrite',
      sampling: {},
    });
    const model = meteredModel(cached, { ledger, budget: { tokens: 1_000_000 } });
    await model.complete(judgeCall('same question'));
    const once = ledger.total();
    const again = await model.complete(judgeCall('same question'));
    expect(again.cached).toBe(true);
    expect(ledger.total()).toEqual(once);
    expect((model as unknown as { stats: () => { hits: number } }).stats().hits).toBe(1);
    await model.close?.();
  });
});
