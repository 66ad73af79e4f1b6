/**
 * The built-in strategies, by name: the A-CEGIS ablation grid of feedback strategies, then the
 * refining ones (HERO-T and its baselines), which are built from what they need (`StrategyInputs`).
 */
import type { FeedbackStrategy, RefiningStrategy, Strategy } from '../core/strategy.ts';
import { harnessStrategy } from './harness/strategy.ts';
import { diagnostic } from './diagnostic.ts';
import { errorOnly } from './error-only.ts';
import { oneExample, threeExample } from './examples.ts';
import { generic } from './generic.ts';
import { dynamicCheatsheet, heroT, reactRefiner } from './hero/index.ts';
import type { VerifiedExample } from './hero/retrieve.ts';
import { BUILT_IN_STRATEGY_NAMES, HARNESS_STRATEGY_PREFIX } from '../core/strategy-names.ts';
import { zeroShot } from './zero-shot.ts';

/** The A-CEGIS ablation grid: the six feedback strategies, in order. */
export const STRATEGIES = {
  'zero-shot': zeroShot,
  generic,
  'error-only': errorOnly,
  'one-example': oneExample,
  'three-example': threeExample,
  diagnostic,
} as const satisfies Record<string, FeedbackStrategy>;

export type StrategyName = keyof typeof STRATEGIES;
export const STRATEGY_NAMES = Object.keys(STRATEGIES) as StrategyName[];

/** What the refining strategies are built from; every field may be left out. */
export interface StrategyInputs {
  /** Verified training examples for HERO-T's and ReAct's retrieval (e.g. `verifiedTrainExamples(...)`). */
  examples?: () => Promise<VerifiedExample[]>;
  /** A HERO-O report (`hero-report.json`) whose learned prompt and examples HERO-T uses when the file exists. */
  heroReport?: string;
}

/** The refining strategies, each built anew from the inputs (a cheatsheet's memory belongs to one instance). */
export const REFINING_STRATEGIES = {
  'hero-t': (inputs) => heroT({ report: inputs.heroReport, examples: inputs.examples }),
  react: (inputs) => reactRefiner({ examples: inputs.examples }),
  cheatsheet: () => dynamicCheatsheet(),
} as const satisfies Record<string, (inputs: StrategyInputs) => RefiningStrategy>;

export type RefiningStrategyName = keyof typeof REFINING_STRATEGIES;
export const REFINING_STRATEGY_NAMES = Object.keys(REFINING_STRATEGIES) as RefiningStrategyName[];

/** Every built-in strategy name: the grid, then the refining ones. */
export const ALL_STRATEGY_NAMES: readonly string[] = BUILT_IN_STRATEGY_NAMES;

/**
 * Built-in strategies by name (all of them when `names` is left out), the refining ones built from
 * `inputs`, and `harness:<path>` for a Meta-Harness harness module; an unknown name is an error
 * listing the known ones.
 */
export function buildStrategies(inputs: StrategyInputs, names: readonly string[] = ALL_STRATEGY_NAMES): Strategy[] {
  return names.map((name): Strategy => {
    if (Object.hasOwn(STRATEGIES, name)) return STRATEGIES[name as StrategyName];
    if (Object.hasOwn(REFINING_STRATEGIES, name)) return REFINING_STRATEGIES[name as RefiningStrategyName](inputs);
    if (name.startsWith(HARNESS_STRATEGY_PREFIX)) return harnessStrategy(name.slice(HARNESS_STRATEGY_PREFIX.length));
    throw new Error(
      `unknown strategy "${name}" (known: ${ALL_STRATEGY_NAMES.join(', ')}) — or harness:<path> for a harness module`,
    );
  });
}

/** Strategies by name (the six of the grid when none are named), refining ones without inputs; an unknown name is an error listing the known ones. */
export function pickStrategies(...names: string[]): Strategy[] {
  return buildStrategies({}, names.length === 0 ? STRATEGY_NAMES : names);
}
