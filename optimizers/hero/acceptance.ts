/**
 * HERO-O's adaptive paired acceptance. A candidate prompt and the current prompt are run on the
 * same update instances; each instance is a fix (current fails, candidate passes), a break, or
 * unchanged. Starting from a first slice, the 95% interval of the difference in pass rate decides:
 * above the margin → adopt; at or below it → reject; straddling it → widen the slice (doubling) and
 * look again. When the pool is exhausted the point estimate decides (adopt when it exceeds the
 * margin). The interval is Agresti & Min's adjusted Wald interval for a difference of paired
 * proportions (half a pseudo-count added to fixes and to breaks): unlike a plain t-interval it
 * does not collapse to a point on a small slice with no spread, so two unchanged instances are
 * not taken as proof of no effect.
 */

export type PairedOutcome = 'fix' | 'break' | 'unchanged';

export interface AcceptanceOptions {
  /** Improvement in pass rate the candidate must exceed (default 0). */
  margin: number;
  /** Size of the first slice (default 8). */
  firstSlice: number;
}

export const DEFAULT_ACCEPTANCE: AcceptanceOptions = { margin: 0, firstSlice: 8 };

export interface AcceptanceStep {
  evaluated: number;
  mean: number;
  low: number;
  high: number;
}

export interface AcceptanceDecision {
  adopt: boolean;
  /** Why: 'interval above margin', 'interval at or below margin', 'pool exhausted: mean …'. */
  reason: string;
  fixes: number;
  breaks: number;
  unchanged: number;
  /** One entry per slice looked at, in order (the widening history). */
  steps: AcceptanceStep[];
}

const Z = 1.959964;

/** Agresti–Min interval for the paired difference in pass rate, from fixes and breaks among n instances. */
export function pairedInterval(fixes: number, breaks: number, n: number): AcceptanceStep {
  if (n === 0) return { evaluated: 0, mean: 0, low: -1, high: 1 };
  const b = fixes + 0.5;
  const c = breaks + 0.5;
  const m = n + 2;
  const centre = (b - c) / m;
  const half = Z * Math.sqrt((b + c - (b - c) ** 2 / m) / (m * m));
  return {
    evaluated: n,
    mean: (fixes - breaks) / n,
    low: Math.max(-1, centre - half),
    high: Math.min(1, centre + half),
  };
}

/**
 * Decides acceptance, asking `outcomeAt(i)` for instance i only as the slice widens, so candidates
 * that are clearly better or worse cost fewer evaluations.
 */
export async function decideAcceptance(
  poolSize: number,
  outcomeAt: (index: number) => Promise<PairedOutcome>,
  options: AcceptanceOptions = DEFAULT_ACCEPTANCE,
): Promise<AcceptanceDecision> {
  const outcomes: PairedOutcome[] = [];
  const steps: AcceptanceStep[] = [];
  let slice = Math.min(poolSize, Math.max(1, options.firstSlice));
  const tally = () => ({
    fixes: outcomes.filter((o) => o === 'fix').length,
    breaks: outcomes.filter((o) => o === 'break').length,
    unchanged: outcomes.filter((o) => o === 'unchanged').length,
  });
  while (true) {
    while (outcomes.length < slice) outcomes.push(await outcomeAt(outcomes.length));
    const { fixes, breaks } = tally();
    const step = pairedInterval(fixes, breaks, outcomes.length);
    steps.push(step);
    if (step.low > options.margin) return { adopt: true, reason: 'interval above margin', ...tally(), steps };
    if (step.high <= options.margin) return { adopt: false, reason: 'interval at or below margin', ...tally(), steps };
    if (slice >= poolSize) {
      const adopt = step.mean > options.margin;
      return {
        adopt,
        reason: `pool exhausted: mean ${step.mean.toFixed(3)} ${adopt ? '>' : '≤'} margin ${options.margin}`,
        ...tally(),
        steps,
      };
    }
    slice = Math.min(poolSize, slice * 2);
  }
}
