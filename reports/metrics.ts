/**
 * Trajectory metrics as pure functions. Per-trajectory functions read one `Trajectory`; group
 * functions read the trajectories of one (benchmark, model, strategy) group — one per
 * (task, trial) — and apply the exclusion rules themselves:
 *
 * - `harness-error` trajectories (Witness's fault) and `invalid-data` ones (items the dataset makes
 *   unposable) did not measure the model: they are excluded from every rate, mean and ratio and
 *   counted apart (`harnessErrorCount`, `invalidDataCount`);
 * - `model-error` trajectories count as unsolved (τ = null, no hardening success) and are also
 *   counted apart (`modelErrorCount`);
 * - only `phase === 'solve'` turns count for the solve metrics (attempts, fixes/breaks, stability).
 *
 * Rates and means are null when no trajectory qualifies, never NaN.
 */
import type { OutcomeStatus, Trajectory } from '../core/types.ts';
import { fixesAndBreaks, solveTurns, trajectoryStability, type FixBreak } from '../core/trajectory-metrics.ts';

// ---------------------------------------------------------------- exclusion and counts

/** Whether an episode that ended so measured the model: false for harness errors and invalid data. */
export function countsInRates(status: OutcomeStatus): boolean {
  return status !== 'harness-error' && status !== 'invalid-data';
}

/** The trajectories that enter rates: all but `harness-error` and `invalid-data` ones. */
export function countedTrajectories(group: readonly Trajectory[]): Trajectory[] {
  return group.filter((t) => countsInRates(t.outcome.status));
}

/** Number of `harness-error` trajectories (excluded from all rates). */
export function harnessErrorCount(group: readonly Trajectory[]): number {
  return group.filter((t) => t.outcome.status === 'harness-error').length;
}

/** Number of `invalid-data` trajectories (excluded from all rates). */
export function invalidDataCount(group: readonly Trajectory[]): number {
  return group.filter((t) => t.outcome.status === 'invalid-data').length;
}

/** Number of `model-error` trajectories (counted as unsolved). */
export function modelErrorCount(group: readonly Trajectory[]): number {
  return group.filter((t) => t.outcome.status === 'model-error').length;
}

/** Mean of `score` over the counted trajectories; null when there are none. */
export function meanOver(group: readonly Trajectory[], score: (t: Trajectory) => number | null): number | null {
  let sum = 0;
  let n = 0;
  for (const t of countedTrajectories(group)) {
    const value = score(t);
    if (value === null) continue;
    sum += value;
    n++;
  }
  return n === 0 ? null : sum / n;
}

// ---------------------------------------------------------------- per trajectory

/** τ, the first successful solve turn: `outcome.solvedAtTurn`, but null for model errors (unsolved). */
export function timeToSuccess(t: Trajectory): number | null {
  return t.outcome.status === 'model-error' ? null : t.outcome.solvedAtTurn;
}

/**
 * 1 when the first program passed, else 0. Pass@1 is its mean. For feedback strategies (which stop
 * at the first pass) this is τ = 1; for refinement strategies (HERO-T, ReAct, Dynamic Cheatsheet)
 * it is the initial program, before refinement, while Pass@final is the refined one.
 */
export function solvedFirst(t: Trajectory): number {
  if (t.outcome.status === 'model-error' && t.outcome.solvedAtTurn === null) return 0;
  const first = t.turns.find((turn) => turn.phase === 'solve');
  return first?.verdict.pass ? 1 : 0;
}

/** 1 when solved at any solve turn (τ ≠ null), else 0. Pass@final is its mean. */
export function solvedFinal(t: Trajectory): number {
  return timeToSuccess(t) !== null ? 1 : 0;
}

/** 1/τ, or 0 when unsolved. MRR is its mean. */
export function reciprocalRank(t: Trajectory): number {
  const tau = timeToSuccess(t);
  return tau === null ? 0 : 1 / tau;
}

/** 1 when the hardening status is `hardened` or `robust` (and the trajectory is not a model error). */
export function hardenedIndicator(t: Trajectory): number {
  const status = t.outcome.hardening?.status;
  return timeToSuccess(t) !== null && (status === 'hardened' || status === 'robust') ? 1 : 0;
}

/** 1 when the hardening status is `robust` (and the trajectory is not a model error). Robust success is its mean. */
export function robustIndicator(t: Trajectory): number {
  return timeToSuccess(t) !== null && t.outcome.hardening?.status === 'robust' ? 1 : 0;
}

// ---------------------------------------------------------------- per group

/** Pass@1: fraction of counted trajectories solved at turn 1 (τ = 1). */
export function passAt1(group: readonly Trajectory[]): number | null {
  return meanOver(group, solvedFirst);
}

/** Pass@final: fraction of counted trajectories solved at any solve turn (τ ≠ null). */
export function passAtFinal(group: readonly Trajectory[]): number | null {
  return meanOver(group, solvedFinal);
}

/** Mean time-to-success: mean τ over solved trajectories; null when none is solved. */
export function meanTimeToSuccess(group: readonly Trajectory[]): number | null {
  return meanOver(group, timeToSuccess);
}

/** MRR: mean of 1/τ over counted trajectories, 0 for an unsolved one. */
export function meanReciprocalRank(group: readonly Trajectory[]): number | null {
  return meanOver(group, reciprocalRank);
}

/** Mean attempts: mean number of solve-phase turns per counted trajectory. */
export function meanAttempts(group: readonly Trajectory[]): number | null {
  return meanOver(group, (t) => solveTurns(t).length);
}

/** Σ fixes and Σ breaks over the counted trajectories. */
export function totalFixesBreaks(group: readonly Trajectory[]): FixBreak {
  const total = { fixes: 0, breaks: 0 };
  for (const t of countedTrajectories(group)) {
    const fb = fixesAndBreaks(t);
    total.fixes += fb.fixes;
    total.breaks += fb.breaks;
  }
  return total;
}

/**
 * RER (pooled) = Σ fixes / max(1, Σ breaks) over the counted trajectories of the group
 * (single-turn trajectories contribute 0 and 0); null when nothing is counted.
 */
export function rerPooled(group: readonly Trajectory[]): number | null {
  if (countedTrajectories(group).length === 0) return null;
  const { fixes, breaks } = totalFixesBreaks(group);
  return fixes / Math.max(1, breaks);
}

/**
 * RER (task mean) = mean over counted trajectories with ≥ 2 solve turns of
 * fixes_i / max(1, breaks_i); null when no trajectory has 2 solve turns.
 */
export function rerTaskMean(group: readonly Trajectory[]): number | null {
  return meanOver(group, (t) => {
    if (solveTurns(t).length < 2) return null;
    const { fixes, breaks } = fixesAndBreaks(t);
    return fixes / Math.max(1, breaks);
  });
}

/** Structural stability: mean of `trajectoryStability` over counted trajectories that have a pair; null when none. */
export function structuralStability(group: readonly Trajectory[]): number | null {
  return meanOver(group, trajectoryStability);
}

/** Hardened rate: fraction of counted trajectories whose hardening status is `hardened` or `robust`. */
export function hardenedRate(group: readonly Trajectory[]): number | null {
  return hardeningRan(group) ? meanOver(group, hardenedIndicator) : null;
}

/** Robust success: fraction of counted trajectories whose hardening status is `robust`. */
export function robustSuccess(group: readonly Trajectory[]): number | null {
  return hardeningRan(group) ? meanOver(group, robustIndicator) : null;
}

/**
 * False when the group has solved trajectories and none of them was hardened — the oracle has no
 * hardener or hardening was off — so the rates are unknown, not zero.
 */
export function hardeningRan(group: readonly Trajectory[]): boolean {
  const solved = group.filter((t) => countsInRates(t.outcome.status) && timeToSuccess(t) !== null);
  return solved.length === 0 || solved.some((t) => t.outcome.hardening !== undefined);
}

/**
 * Probe agreement: among counted trajectories with `hardening.exact !== null`, the fraction where
 * `hardening.sampledClean === hardening.exact` — how often sampled probing agreed with the exact
 * equivalence check; null when no trajectory has an exact check.
 */
export function probeAgreement(group: readonly Trajectory[]): number | null {
  return meanOver(group, (t) => {
    const h = t.outcome.hardening;
    if (h === undefined || h.exact === null) return null;
    return h.sampledClean === h.exact ? 1 : 0;
  });
}

export interface TokenUsage {
  /** Σ (prompt + completion) tokens over every trajectory of the group, harness errors included. */
  total: number;
  /** total / number of trajectories; null for an empty group. */
  meanPerTrajectory: number | null;
  /** True when any count was estimated by the harness rather than reported by the endpoint. */
  estimated: boolean;
}

/**
 * Tokens: Σ prompt + completion tokens over all trajectories of the group (harness errors
 * included: the tokens were spent), the mean per trajectory, and whether any were estimated.
 */
export function tokenUsage(group: readonly Trajectory[]): TokenUsage {
  let total = 0;
  let estimated = false;
  for (const t of group) {
    total += t.tokens.prompt + t.tokens.completion;
    estimated ||= t.tokens.estimated || t.turns.some((turn) => turn.usage.estimated === true);
  }
  return { total, meanPerTrajectory: group.length === 0 ? null : total / group.length, estimated };
}

/** Cache hits and misses summed over all trajectories of the group. */
export function cacheUsage(group: readonly Trajectory[]): { hits: number; misses: number } {
  let hits = 0;
  let misses = 0;
  for (const t of group) {
    hits += t.cache.hits;
    misses += t.cache.misses;
  }
  return { hits, misses };
}
