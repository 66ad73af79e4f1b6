/**
 * The most model calls one episode of each built-in strategy can make, read off its code: what
 * `witness bench --dry-run` multiplies into the cost of a run. Retries of a failed request are
 * not counted (each call may be retried `model.maxRetries` times).
 */
import { DEFAULT_EVIDENCE_ACTIONS } from './hero/index.ts';
import { refinerSteps } from './hero/refiner.ts';
import { STRATEGIES, type RefiningStrategyName, type StrategyName } from './index.ts';

export interface CallLimits {
  /** The solve-phase turn budget (`turns`). */
  turns: number;
  /** Hardening repair attempts after a success: `hardening.maxCycles`, 0 when hardening is off. */
  hardeningRepairs: number;
}

/** Solve turns (the strategy's share of the budget) plus, when it gives feedback, one repair per hardening cycle. */
const feedbackBound =
  (name: StrategyName, givesFeedback: boolean) =>
  ({ turns, hardeningRepairs }: CallLimits): number =>
    Math.max(1, Math.min(turns, STRATEGIES[name].turns(turns))) + (givesFeedback ? hardeningRepairs : 0);

/** Per strategy: the bound, and the call pattern it comes from (shown by the dry run); the type asks for a row per built-in strategy. */
export const MAX_CALLS: Record<
  StrategyName | RefiningStrategyName,
  { calls: (limits: CallLimits) => number; pattern: string }
> = {
  'zero-shot': { calls: feedbackBound('zero-shot', false), pattern: 'one solve call, no feedback, no repairs' },
  generic: { calls: feedbackBound('generic', true), pattern: 'a solve call per turn + a repair per hardening cycle' },
  'error-only': {
    calls: feedbackBound('error-only', true),
    pattern: 'a solve call per turn + a repair per hardening cycle',
  },
  'one-example': {
    calls: feedbackBound('one-example', true),
    pattern: 'a solve call per turn + a repair per hardening cycle',
  },
  'three-example': {
    calls: feedbackBound('three-example', true),
    pattern: 'a solve call per turn + a repair per hardening cycle',
  },
  diagnostic: {
    calls: feedbackBound('diagnostic', true),
    pattern: 'a solve call per turn + a repair per hardening cycle',
  },
  'hero-t': {
    calls: () => 1 + refinerSteps(DEFAULT_EVIDENCE_ACTIONS) + 1,
    pattern: `initial program + up to ${refinerSteps(DEFAULT_EVIDENCE_ACTIONS)} refiner calls (${DEFAULT_EVIDENCE_ACTIONS} evidence actions, picks, retries, the revision) + the judge`,
  },
  react: {
    calls: () => 1 + refinerSteps(DEFAULT_EVIDENCE_ACTIONS),
    pattern: `initial program + up to ${refinerSteps(DEFAULT_EVIDENCE_ACTIONS)} refiner calls (${DEFAULT_EVIDENCE_ACTIONS} evidence actions, picks, retries, the revision)`,
  },
  cheatsheet: { calls: () => 2, pattern: 'one solve call (with the cheatsheet) + one curator call' },
};

/** The bound of a built-in strategy by name, or null for a strategy this table does not know. */
export function maxCallsPerEpisode(name: string, limits: CallLimits): number | null {
  return Object.hasOwn(MAX_CALLS, name) ? MAX_CALLS[name as keyof typeof MAX_CALLS].calls(limits) : null;
}
