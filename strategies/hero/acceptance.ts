/**
 * HERO-O's adaptive paired acceptance. A candidate prompt and the current prompt are run on the
 * same update instances; each instance is a fix (current fails, candidate passes, +1), a break
 * (−1) or unchanged (0). Starting from a first slice, the 95% interval of the mean paired
 * difference decides: above the margin → adopt; at or below it → reject; straddling it → widen the
 * slice (doubling) and look again. When the pool is exhausted the point estimate decides (adopt
 * when it exceeds the margin). The interval is a t-interval on the paired differences, the
 * textbook choice for a paired mean; with fewer than 2 instances or zero spread it is the point.
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

// Two-sided 97.5% quantiles of Student's t for df = 1..30; beyond that the normal 1.96.
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

export function pairedInterval(differences: readonly number[]): AcceptanceStep {
  const n = differences.length;
  if (n === 0) return { evaluated: 0, mean: 0, low: -1, high: 1 };
  const mean = differences.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { evaluated: n, mean, low: -1, high: 1 };
  const variance = differences.reduce((a, d) => a + (d - mean) ** 2, 0) / (n - 1);
  const t = T975[n - 2] ?? 1.96;
  const half = t * Math.sqrt(variance / n);
  return { evaluated: n, mean, low: mean - half, high: mean + half };
}

const value = (o: PairedOutcome) => (o === 'fix' ? 1 : o === 'break' ? -1 : 0);

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
    const step = pairedInterval(outcomes.map(value));
    steps.push(step);
    if (step.low > options.margin) return { adopt: true, reason: 'interval above margin', ...tally(), steps };
    if (step.high <= options.margin) return { adopt: false, reason: 'interval at or below margin', ...tally(), steps };
    if (slice >= poolSize) {
      const adopt = step.mean > options.margin;
      return { adopt, reason: `pool exhausted: mean ${step.mean.toFixed(3)} ${adopt ? '>' : '≤'} margin ${options.margin}`, ...tally(), steps };
    }
    slice = Math.min(poolSize, slice * 2);
  }
}
