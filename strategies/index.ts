/** The built-in strategies, by name: the A-CEGIS ablation grid. */
import type { Strategy } from '../core/strategy.ts';
import { diagnostic } from './diagnostic.ts';
import { errorOnly } from './error-only.ts';
import { oneExample, threeExample } from './examples.ts';
import { generic } from './generic.ts';
import { zeroShot } from './zero-shot.ts';

export const STRATEGIES = {
  'zero-shot': zeroShot,
  generic,
  'error-only': errorOnly,
  'one-example': oneExample,
  'three-example': threeExample,
  diagnostic,
} as const satisfies Record<string, Strategy>;

export type StrategyName = keyof typeof STRATEGIES;
export const STRATEGY_NAMES = Object.keys(STRATEGIES) as StrategyName[];

/** Strategies by name (all six when none are named); an unknown name is an error listing the known ones. */
export function pickStrategies(...names: string[]): Strategy[] {
  if (names.length === 0) return STRATEGY_NAMES.map((name) => STRATEGIES[name]);
  return names.map((name) => {
    const found = (STRATEGIES as Record<string, Strategy>)[name];
    if (!found) throw new Error(`unknown strategy "${name}" (known: ${STRATEGY_NAMES.join(', ')})`);
    return found;
  });
}
