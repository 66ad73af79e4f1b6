/**
 * VES and R-VES, as BIRD computes them (DAMO-ConvAI `evaluation_ves.py`; bird-bench/mini_dev
 * `evaluation_ves.py`). Only correct queries are timed: N interleaved runs (predicted, then gold),
 * ratio_i = gold_i / predicted_i, ratios outside mean ± 3σ (population σ, strict bounds) dropped,
 * time ratio = mean of the rest. VES = 100 × mean over all questions of √ratio (wrong answers 0);
 * R-VES = 100 × mean of √reward, with the reward bucketed from the ratio.
 */

export const DEFAULT_VES_ITERATIONS = 100;

/**
 * Keeps values strictly inside mean ± 3σ. When none survive (all ratios identical, σ = 0, where
 * BIRD's script divides by zero and scores the question 0), all are kept instead.
 */
export function dropOutliers(values: readonly number[]): number[] {
  if (values.length === 0) return [];
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const std = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
  const kept = values.filter((v) => v < mean + 3 * std && v > mean - 3 * std);
  return kept.length > 0 ? kept : [...values];
}

/** Timer floor, so a run too quick for the clock cannot divide by zero. */
const MIN_MS = 1e-6;

/** gold/predicted time ratio over interleaved runs, outliers dropped. */
export function timeRatio(goldMs: readonly number[], predictedMs: readonly number[]): number {
  if (goldMs.length === 0 || goldMs.length !== predictedMs.length) {
    throw new Error(
      `timeRatio needs as many gold as predicted timings (got ${goldMs.length} and ${predictedMs.length})`,
    );
  }
  const ratios = goldMs.map((g, i) => Math.max(g, MIN_MS) / Math.max(predictedMs[i] as number, MIN_MS));
  const kept = dropOutliers(ratios);
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

/** R-VES reward buckets (mini-dev): ≥2 → 1.25, ≥1 → 1, ≥0.5 → 0.75, ≥0.25 → 0.5, >0 → 0.25, 0 → 0. */
export function rvesReward(ratio: number): number {
  if (ratio >= 2) return 1.25;
  if (ratio >= 1) return 1;
  if (ratio >= 0.5) return 0.75;
  if (ratio >= 0.25) return 0.5;
  if (ratio > 0) return 0.25;
  return 0;
}

/** One question's VES term: √ratio for a correct answer, 0 for a wrong one (ratio 0). */
export const vesTerm = (ratio: number): number => Math.sqrt(Math.max(0, ratio));
/** One question's R-VES term: √reward. */
export const rvesTerm = (ratio: number): number => Math.sqrt(rvesReward(ratio));

/** 100 × mean of the per-question terms (0 for no questions). */
export function efficiencyScore(terms: readonly number[]): number {
  return terms.length === 0 ? 0 : (100 * terms.reduce((a, b) => a + b, 0)) / terms.length;
}
