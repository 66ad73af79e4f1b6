/** The unbiased pass@k estimator (HumanEval, BigCodeBench): per task 1 − C(n−c, k) / C(n, k), averaged. Shared by reports and evaluators. */

/** pass@k of one task with n samples of which c are correct (requires k ≤ n). */
export function passAtK(n: number, c: number, k: number): number {
  if (!(Number.isInteger(n) && Number.isInteger(c) && Number.isInteger(k)) || k < 1 || k > n || c < 0 || c > n) {
    throw new RangeError(`pass@k needs integers 0 ≤ c ≤ n and 1 ≤ k ≤ n (n=${n}, c=${c}, k=${k})`);
  }
  if (n - c < k) return 1;
  // 1 − Π_{i=n−c+1}^{n} (1 − k / i), the numerically stable form the official code uses.
  let product = 1;
  for (let i = n - c + 1; i <= n; i++) product *= 1 - k / i;
  return 1 - product;
}

/** Mean pass@k over tasks for the official k values (1, 5, 10, 25, 100) that every task has samples for. */
export function passAtKTable(tasks: readonly { n: number; c: number }[]): Record<string, number> {
  if (tasks.length === 0) return {};
  const minimum = Math.min(...tasks.map((t) => t.n));
  const table: Record<string, number> = {};
  for (const k of [1, 5, 10, 25, 100]) {
    if (k > minimum) continue;
    table[`pass@${k}`] = tasks.reduce((sum, t) => sum + passAtK(t.n, t.c, k), 0) / tasks.length;
  }
  return table;
}
