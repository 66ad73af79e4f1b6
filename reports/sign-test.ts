/**
 * The exact sign test (McNemar's exact test on discordant pairs): under "no change", each
 * discordant item is a fix or a break with probability 1/2, so breaks ~ Binomial(fixes + breaks, 1/2).
 * Computed exactly in log space, so it stays accurate for thousands of items.
 */

export interface SignTest {
  /** Discordant items: fixes + breaks. */
  n: number;
  fixes: number;
  breaks: number;
  /** One-sided p that the candidate is worse: P(X ≥ breaks). */
  pWorse: number;
  /** One-sided p that the candidate is better: P(X ≥ fixes). */
  pBetter: number;
  /** Two-sided exact McNemar p: min(1, 2 · min(P(X ≤ breaks), P(X ≥ breaks))). */
  pTwoSided: number;
}

function logSumExp(values: readonly number[]): number {
  const max = Math.max(...values);
  if (max === -Infinity) return -Infinity;
  let sum = 0;
  for (const v of values) sum += Math.exp(v - max);
  return max + Math.log(sum);
}

/** log P(X = i) for i = 0..n, X ~ Binomial(n, 1/2). */
function logPmf(n: number): number[] {
  const out = new Array<number>(n + 1);
  out[0] = -n * Math.LN2;
  for (let i = 1; i <= n; i++) out[i] = (out[i - 1] as number) + Math.log((n - i + 1) / i);
  return out;
}

/** P(X ≥ x) for X ~ Binomial(n, 1/2). */
export function binomialUpperTail(n: number, x: number): number {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(x))
    throw new RangeError(`binomialUpperTail: need integers n ≥ 0 and x, got n=${n}, x=${x}`);
  if (x <= 0) return 1;
  if (x > n) return 0;
  return Math.min(1, Math.exp(logSumExp(logPmf(n).slice(x))));
}

/** The exact sign test on `fixes` (better) and `breaks` (worse). */
export function signTest(fixes: number, breaks: number): SignTest {
  const n = fixes + breaks;
  const pWorse = binomialUpperTail(n, breaks);
  const pBetter = binomialUpperTail(n, fixes);
  return { n, fixes, breaks, pWorse, pBetter, pTwoSided: n === 0 ? 1 : Math.min(1, 2 * Math.min(pWorse, pBetter)) };
}
