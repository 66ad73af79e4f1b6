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

/**
 * `bootstrapInterval(values, mean, options)` for several lists of the same length at once: every
 * list's interval is the one a separate call gives (same seed, so the same resampled indices), but
 * the indices are drawn once for all lists and no resample array is built — the summary's four
 * headline rates cost one pass instead of four.
 */
export function bootstrapMeans(
  lists: readonly (readonly number[])[],
  options: BootstrapOptions = {},
): (Interval | null)[] {
  const n = lists[0]?.length ?? 0;
  if (lists.some((l) => l.length !== n)) throw new RangeError('bootstrapMeans: the lists must have the same length');
  if (n === 0) return lists.map(() => null);
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const level = options.level ?? BOOTSTRAP_LEVEL;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`bootstrapInterval: resamples must be a positive integer, got ${resamples}`);
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`bootstrapInterval: level must be in (0, 1), got ${level}`);
  const rng = new Rng(options.seed ?? BOOTSTRAP_SEED);
  const stats = lists.map(() => new Float64Array(resamples));
  const sums = new Float64Array(lists.length);
  for (let r = 0; r < resamples; r++) {
    sums.fill(0);
    for (let i = 0; i < n; i++) {
      const pick = rng.int(n);
      for (let l = 0; l < lists.length; l++)
        sums[l] = (sums[l] as number) + ((lists[l] as readonly number[])[pick] as number);
    }
    for (let l = 0; l < lists.length; l++) (stats[l] as Float64Array)[r] = (sums[l] as number) / n;
  }
  const alpha = (1 - level) / 2;
  return stats.map((s) => {
    s.sort();
    const sorted = Array.from(s);
    return { low: quantile(sorted, alpha), high: quantile(sorted, 1 - alpha) };
  });
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
