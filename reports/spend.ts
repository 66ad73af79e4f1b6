/**
 * Tokens and cost per turn, trajectory and group, split by purpose: `solve` for the model's own
 * turns, and each auxiliary purpose (refine, judge, reflect, memory) apart. Costs use the prices
 * each trajectory recorded (`pricing`); tokens of a model without a price leave the cost unknown
 * (null) and name the model, so a missing price never reads as "free". Every call counts, cache
 * hits included: this is what the episodes cost to run, comparable across strategies and runs
 * (the budget, by contrast, counts only what the endpoint was asked).
 */
import type { Price, Trajectory, Turn, Usage } from '../core/types.ts';

export interface PurposeSpend {
  calls: number;
  prompt: number;
  completion: number;
  /** USD; null when some tokens of this purpose have no price. */
  usd: number | null;
}

export interface Spend {
  byPurpose: Record<string, PurposeSpend>;
  /** All tokens, every purpose. */
  tokens: number;
  /** USD over every purpose; null when anything is unpriced. */
  usd: number | null;
  /** Models whose tokens have no price, sorted. */
  unpriced: string[];
}

function addCall(into: Spend, purpose: string, model: string, usage: Usage, price: Price | undefined): void {
  const entry = (into.byPurpose[purpose] ??= { calls: 0, prompt: 0, completion: 0, usd: 0 });
  const tokens = usage.promptTokens + usage.completionTokens;
  entry.calls++;
  entry.prompt += usage.promptTokens;
  entry.completion += usage.completionTokens;
  into.tokens += tokens;
  if (tokens === 0) return;
  if (price) {
    const usd = (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
    if (entry.usd !== null) entry.usd += usd;
    if (into.usd !== null) into.usd += usd;
  } else {
    entry.usd = null;
    into.usd = null;
    if (!into.unpriced.includes(model)) into.unpriced = [...into.unpriced, model].sort();
  }
}

/** One turn: its own answer (when the model was reached) and its auxiliary calls. */
export function turnSpend(t: Pick<Trajectory, 'model' | 'pricing'>, turn: Turn): Spend {
  const spend: Spend = { byPurpose: {}, tokens: 0, usd: 0, unpriced: [] };
  if (turn.reply !== null || turn.usage.promptTokens + turn.usage.completionTokens > 0) {
    addCall(spend, 'solve', t.model.name, turn.usage, t.pricing?.[t.model.name]);
  }
  for (const call of turn.calls ?? []) addCall(spend, call.purpose, call.model, call.usage, t.pricing?.[call.model]);
  return spend;
}

/** Sums spends: tokens and calls add up; a cost stays null once any part is unpriced. */
export function sumSpend(spends: readonly Spend[]): Spend {
  const total: Spend = { byPurpose: {}, tokens: 0, usd: 0, unpriced: [] };
  for (const s of spends) {
    total.tokens += s.tokens;
    total.usd = total.usd === null || s.usd === null ? null : total.usd + s.usd;
    total.unpriced = [...new Set([...total.unpriced, ...s.unpriced])].sort();
    for (const [purpose, p] of Object.entries(s.byPurpose)) {
      const entry = (total.byPurpose[purpose] ??= { calls: 0, prompt: 0, completion: 0, usd: 0 });
      entry.calls += p.calls;
      entry.prompt += p.prompt;
      entry.completion += p.completion;
      entry.usd = entry.usd === null || p.usd === null ? null : entry.usd + p.usd;
    }
  }
  return total;
}

/** One trajectory: the sum of its turns. */
export function trajectorySpend(t: Trajectory): Spend {
  return sumSpend(t.turns.map((turn) => turnSpend(t, turn)));
}

/** A group of trajectories (harness errors included: their tokens were spent). */
export function groupSpend(group: readonly Trajectory[]): Spend {
  return sumSpend(group.map(trajectorySpend));
}

/** "$0.0123", or "—" for an unknown cost. */
export function formatUsd(usd: number | null): string {
  if (usd === null) return '—';
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}
