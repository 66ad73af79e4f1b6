/**
 * A run-wide spending budget (tokens and/or USD). vitest runs test files in separate worker
 * processes, so spending is shared through the run store: each process writes its own running
 * totals to `<run>/spend/<pid>-<random>.json` (atomically) and a budget check sums every file.
 * Earlier sessions of a resumed run keep their files, so the budget covers the whole run.
 * Only calls the endpoint answered count (response-cache hits are free); every purpose counts
 * (solving turns and auxiliary calls alike), and the ledger keeps them apart.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { callCost } from './cost.ts';
import type { ChatModel, ChatReply, ChatRequest } from './models/model.ts';
import type { Price } from './types.ts';

export interface Budget {
  /** Prompt + completion tokens of every uncached call, auxiliary calls included. */
  tokens?: number;
  /** USD at the configured prices. */
  usd?: number;
}

export interface Spend {
  tokens: number;
  usd: number;
  calls: number;
}

const ZERO: Spend = { tokens: 0, usd: 0, calls: 0 };

/** Thrown instead of calling the model once the run's budget is spent; the episode is abandoned, not recorded. */
export class BudgetSpentError extends Error {
  constructor(
    readonly spent: Spend,
    readonly budget: Budget,
  ) {
    super(`the run's budget is spent: ${describeSpend(spent, budget)}`);
    this.name = 'BudgetSpentError';
  }
}

/** True when any limit of the budget has been reached. */
export function budgetSpent(spent: Spend, budget: Budget): boolean {
  return (
    (budget.tokens !== undefined && spent.tokens >= budget.tokens) ||
    (budget.usd !== undefined && spent.usd >= budget.usd)
  );
}

/** Whether a budget sets any limit. */
export function hasLimit(budget: Budget | undefined): budget is Budget {
  return budget !== undefined && (budget.tokens !== undefined || budget.usd !== undefined);
}

const grouped = (n: number) => Math.round(n).toLocaleString('en-US');

/** "10,512 tokens of 10,000" and/or "$2.5100 of $2.50". */
export function describeSpend(spent: Spend, budget: Budget): string {
  const parts: string[] = [];
  if (budget.tokens !== undefined) parts.push(`${grouped(spent.tokens)} tokens of ${grouped(budget.tokens)}`);
  if (budget.usd !== undefined) parts.push(`$${spent.usd.toFixed(4)} of $${budget.usd.toFixed(2)}`);
  return parts.join(', ');
}

/** A budget as the user writes it: `120000`, `120k`, `1.5M` (tokens) or `$2.50`, `2.5usd` (USD). */
export function parseBudget(text: string, where: string): Budget {
  const t = text.trim();
  const usd = /^\$\s*(\d+(?:\.\d+)?)$/.exec(t) ?? /^(\d+(?:\.\d+)?)\s*usd$/i.exec(t);
  if (usd) {
    const value = Number(usd[1]);
    if (value > 0) return { usd: value };
  }
  const tokens = /^(\d+(?:\.\d+)?)\s*([kKmM]?)$/.exec(t);
  if (tokens) {
    const scale = tokens[2]?.toLowerCase() === 'k' ? 1_000 : tokens[2]?.toLowerCase() === 'm' ? 1_000_000 : 1;
    const value = Math.round(Number(tokens[1]) * scale);
    if (value > 0) return { tokens: value };
  }
  throw new Error(
    `${where}: expected a budget such as 120000, 120k or 1.5M (tokens) or $2.50 (USD), got ${JSON.stringify(text)}`,
  );
}

/** One process's share of a run's spending, and the sum over all processes. */
export class SpendLedger {
  private readonly file: string;
  private own: Spend & { byPurpose: Record<string, Spend> } = { ...ZERO, byPurpose: {} };

  constructor(readonly dir: string) {
    this.file = join(dir, `${process.pid}-${randomBytes(4).toString('hex')}.json`);
  }

  /** Adds one answered call (by its purpose: solve, refine, judge, …) and writes this process's totals. */
  record(purpose: string, tokens: number, usd: number): void {
    const add = (s: Spend): Spend => ({ tokens: s.tokens + tokens, usd: s.usd + usd, calls: s.calls + 1 });
    this.own = {
      ...add(this.own),
      byPurpose: { ...this.own.byPurpose, [purpose]: add(this.own.byPurpose[purpose] ?? ZERO) },
    };
    mkdirSync(this.dir, { recursive: true });
    const temp = `${this.file}.tmp`;
    writeFileSync(temp, JSON.stringify(this.own));
    renameSync(temp, this.file);
  }

  /** The run's spending so far: every process's file, this one included. Unreadable files are an error naming them. */
  total(): Spend {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return { ...ZERO };
    }
    const sum = { ...ZERO };
    for (const name of names) {
      const path = join(this.dir, name);
      let value: Partial<Spend>;
      try {
        value = JSON.parse(readFileSync(path, 'utf8')) as Partial<Spend>;
      } catch (error) {
        throw new Error(`spend ledger ${path}: ${(error as Error).message}`);
      }
      if (typeof value.tokens !== 'number' || typeof value.usd !== 'number' || typeof value.calls !== 'number') {
        throw new Error(`spend ledger ${path}: expected numeric tokens, usd and calls`);
      }
      sum.tokens += value.tokens;
      sum.usd += value.usd;
      sum.calls += value.calls;
    }
    return sum;
  }
}

export interface MeterOptions {
  ledger: SpendLedger;
  budget: Budget;
  /** Price of this model; required for a USD budget. */
  price?: Price;
}

/**
 * The model with a budget check before every call (BudgetSpentError once spent) and every answered
 * call recorded in the ledger. Cache statistics of the wrapped model stay visible.
 */
export function meteredModel(model: ChatModel, options: MeterOptions): ChatModel {
  const { ledger, budget, price } = options;
  const metered: ChatModel & { stats?: unknown } = {
    info: model.info,
    async complete(request: ChatRequest): Promise<ChatReply> {
      const spent = ledger.total();
      if (budgetSpent(spent, budget)) throw new BudgetSpentError(spent, budget);
      const reply = await model.complete(request);
      if (!reply.cached) {
        const tokens = reply.usage.promptTokens + reply.usage.completionTokens;
        ledger.record(request.purpose ?? 'solve', tokens, price ? callCost(price, reply.usage) : 0);
      }
      return reply;
    },
    ...(model.close ? { close: async () => model.close?.() } : {}),
  };
  const stats = (model as { stats?: unknown }).stats;
  if (typeof stats === 'function') metered.stats = stats.bind(model);
  return metered;
}

/** Start of the note on every test the budget skipped; the reporter counts and reports them. */
export const BUDGET_SKIP_NOTE = 'witness budget spent';
