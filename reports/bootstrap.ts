/** Percentile bootstrap confidence intervals, seeded so that every report is reproducible. */
import { Rng } from '../core/random.ts';

export interface Interval {
  low: number;
  high: number;
}

export interface BootstrapOptions {
  /** Number of resamples (default 2,000). */
  resamples?: number;
  /** Confidence level in (0, 1) (default 0.95). */
  level?: number;
  /** Seed of the resampling generator (default BOOTSTRAP_SEED). */
  seed?: number;
}

/** The fixed default seed: the same data always gives the same interval. */
export const BOOTSTRAP_SEED = 20260701;
export const BOOTSTRAP_RESAMPLES = 2000;
export const BOOTSTRAP_LEVEL = 0.95;

/** Arithmetic mean; NaN for an empty list (callers guard against empty input). */
export function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * Percentile-method bootstrap interval of `statistic` over `values`.
 *
 * Draws `resamples` samples of size n with replacement (indices from a seeded `Rng`), applies the
 * statistic to each, sorts the results and returns the (1−level)/2 and (1+level)/2 quantiles
 * (linear interpolation between order statistics). Returns null for empty input. Deterministic for
 * a given (values, statistic, options); all-equal data gives a zero-width interval.
 */
export function bootstrapInterval(
  values: readonly number[],
  statistic: (sample: readonly number[]) => number,
  options: BootstrapOptions = {},
): Interval | null {
  const n = values.length;
  if (n === 0) return null;
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const level = options.level ?? BOOTSTRAP_LEVEL;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`bootstrapInterval: resamples must be a positive integer, got ${resamples}`);
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`bootstrapInterval: level must be in (0, 1), got ${level}`);
  const rng = new Rng(options.seed ?? BOOTSTRAP_SEED);
  const stats = new Array<number>(resamples);
  const sample = new Array<number>(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) sample[i] = values[rng.int(n)] as number;
    stats[r] = statistic(sample);
  }
  stats.sort((x, y) => x - y);
  const alpha = (1 - level) / 2;
  return { low: quantile(stats, alpha), high: quantile(stats, 1 - alpha) };
}

/** The p-quantile of ascending `sorted` by linear interpolation between order statistics. */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('quantile of an empty list');
  const position = (sorted.length - 1) * p;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const lo = sorted[lower] as number;
  const hi = sorted[upper] as number;
  return lo + (hi - lo) * (position - lower);
}
