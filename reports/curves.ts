/**
 * The data behind the report's plots, as pure functions of a group's trajectories: convergence
 * (share solved by turn t), the time-to-success distribution, hidden vs hardened vs robust success,
 * and VES where the oracle measured execution time.
 */
import type { Trajectory, Turn } from '../core/types.ts';
import { solveTurns } from '../core/trajectory-metrics.ts';
import { countedTrajectories, timeToSuccess } from './metrics.ts';

/** Largest solve-phase turn budget in the group (at least 1). */
export function maxBudget(group: readonly Trajectory[]): number {
  return Math.max(1, ...group.map((t) => t.budget));
}

/** Share of counted trajectories solved by turn t, for t = 1..turns (Pass@1 at t = 1, Pass@final at the budget). */
export function convergenceCurve(group: readonly Trajectory[], turns: number = maxBudget(group)): (number | null)[] {
  const counted = countedTrajectories(group);
  return Array.from({ length: turns }, (_, i) => {
    if (counted.length === 0) return null;
    return (
      counted.filter((t) => {
        const tau = timeToSuccess(t);
        return tau !== null && tau <= i + 1;
      }).length / counted.length
    );
  });
}

export interface TauHistogram {
  /** counts[t − 1] = counted trajectories first solved at turn t. */
  counts: number[];
  unsolved: number;
}

/** How many counted trajectories were first solved at each turn, and how many never. */
export function tauHistogram(group: readonly Trajectory[], turns: number = maxBudget(group)): TauHistogram {
  const counts = new Array<number>(turns).fill(0);
  let unsolved = 0;
  for (const t of countedTrajectories(group)) {
    const tau = timeToSuccess(t);
    if (tau === null || tau > turns) unsolved++;
    else counts[tau - 1] = (counts[tau - 1] as number) + 1;
  }
  return { counts, unsolved };
}

/**
 * VES contribution of one trajectory (BIRD: 100·√(gold time / candidate time) for a correct query,
 * 0 otherwise), read from the passing solve turn's `verdict.detail`: `ves` (already on the 100
 * scale) or `timeRatio` (gold/candidate). Null when unsolved or when the oracle recorded no timing.
 */
export function vesOf(t: Trajectory): number | null {
  const turns = solveTurns(t);
  const timed = (turn: Turn | undefined): number | null => {
    const detail = turn?.verdict.detail;
    if (!detail) return null;
    if (typeof detail.ves === 'number' && Number.isFinite(detail.ves) && detail.ves >= 0) return detail.ves;
    if (typeof detail.timeRatio === 'number' && Number.isFinite(detail.timeRatio) && detail.timeRatio >= 0)
      return 100 * Math.sqrt(detail.timeRatio);
    return null;
  };
  const tau = timeToSuccess(t);
  return tau === null ? null : timed(turns.find((turn) => turn.index === tau));
}

/**
 * VES of a group: the mean contribution over counted trajectories, the others counting 0 (as BIRD
 * counts incorrect queries) — null when no trajectory carries timing (the oracle does not measure it).
 */
export function groupVes(group: readonly Trajectory[]): number | null {
  const counted = countedTrajectories(group);
  const values = counted.map(vesOf);
  if (values.every((v) => v === null)) return null;
  return values.reduce<number>((sum, v) => sum + (v ?? 0), 0) / counted.length;
}
