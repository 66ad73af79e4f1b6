/**
 * The one list of the built-in strategies' names, without loading any strategy: for commands that
 * check a `--strategies` list before they start, and for the reports' display order
 * (strategies/index.ts builds the strategies, and its tests check it builds exactly these).
 */

/** The A-CEGIS ablation grid of feedback strategies, in leaderboard order. */
export const FEEDBACK_STRATEGY_NAMES: readonly string[] = [
  'zero-shot',
  'generic',
  'error-only',
  'one-example',
  'three-example',
  'diagnostic',
];

/** The grid, then the refining strategies (HERO-T and its baselines). */
export const BUILT_IN_STRATEGY_NAMES: readonly string[] = [...FEEDBACK_STRATEGY_NAMES, 'hero-t', 'react', 'cheatsheet'];

/** A strategy named `harness:<path>` runs the harness module at `<path>` (docs/meta-harness.md). */
export const HARNESS_STRATEGY_PREFIX = 'harness:';

/** True for `harness:<path>` with a path. */
const isHarnessName = (name: string): boolean =>
  name.startsWith(HARNESS_STRATEGY_PREFIX) && name.length > HARNESS_STRATEGY_PREFIX.length;

/** True for a built-in strategy's name or a `harness:<path>` name. */
export const isStrategyName = (name: string): boolean => BUILT_IN_STRATEGY_NAMES.includes(name) || isHarnessName(name);

/** The `harness:<path>` names of a strategy selection, in order (a suite adds them to its built-in strategies). */
export const harnessStrategyNames = (names: readonly string[] | undefined): string[] =>
  (names ?? []).filter(isHarnessName);
