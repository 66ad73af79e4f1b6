/**
 * Prices and costs. Witness ships no price table (prices change; a stale built-in one would be
 * wrong silently): the user configures `prices` (USD per million tokens, by model name), every
 * trajectory records the prices in force when it ran, and reports derive costs from those.
 */
import type { Price, Trajectory, Usage } from './types.ts';

export type PriceTable = Readonly<Record<string, Price>>;

/** USD of one call's usage at a price. */
export function callCost(price: Price, usage: Pick<Usage, 'promptTokens' | 'completionTokens'>): number {
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
}

/** Every model name a trajectory called: the model under test and any judge or reflector. */
export function modelsCalled(t: Pick<Trajectory, 'model' | 'turns'>): string[] {
  const names = new Set([t.model.name]);
  for (const turn of t.turns) for (const call of turn.calls ?? []) names.add(call.model);
  return [...names];
}

/** The trajectory with the prices of the models it called attached (`pricing`); unchanged when none is priced. */
export function attachPricing(t: Trajectory, prices: PriceTable): Trajectory {
  const pricing: Record<string, Price> = {};
  for (const name of modelsCalled(t)) {
    const price = prices[name];
    if (price) pricing[name] = { input: price.input, output: price.output };
  }
  return Object.keys(pricing).length === 0 ? t : { ...t, pricing };
}
