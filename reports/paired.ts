/**
 * Paired comparison of two runs on the instances both have: fixes (failed in the baseline, passed
 * in the candidate), breaks (the reverse), Δ of the success rate with a cluster-bootstrap interval,
 * and an exact sign test. Instances of one task (its strategies and trials) are correlated, so the
 * task is the unit of resampling and of the sign test: a task counts as broken when the candidate
 * lost more of its instances than it gained. With one instance per task (one strategy, one trial)
 * this is exactly McNemar's test on instances.
 */
import type { GateMetric } from '../core/config.ts';
import { type BootstrapOptions, bootstrapInterval, type Interval } from './bootstrap.ts';
import { countsInRates } from './metrics.ts';
import { type InstanceOutcome, succeeded } from './outcomes.ts';
import { type SignTest, signTest } from './sign-test.ts';

export interface Pair {
  baseline: InstanceOutcome;
  candidate: InstanceOutcome;
}

export interface Pairing {
  pairs: Pair[];
  /** Instances only one side has (other tasks, strategies, trials or models). */
  baselineOnly: InstanceOutcome[];
  candidateOnly: InstanceOutcome[];
  /** Shared instances left out because either side did not measure the model (a harness error or invalid data). */
  harnessErrors: Pair[];
  /** True when some benchmark has several models on one side, so instances are matched by model name too. */
  byModel: boolean;
}

function severalModels(instances: readonly InstanceOutcome[]): boolean {
  const models = new Map<string, Set<string>>();
  for (const i of instances) models.set(i.benchmark, (models.get(i.benchmark) ?? new Set()).add(i.model));
  return [...models.values()].some((m) => m.size > 1);
}

/**
 * Matches instances by (benchmark, strategy, task, trial) — and model when either side holds several
 * models of a benchmark; otherwise a run of one model is compared with a run of another. The first
 * instance seen of a key wins on each side.
 */
export function pairInstances(baseline: readonly InstanceOutcome[], candidate: readonly InstanceOutcome[]): Pairing {
  const byModel = severalModels(baseline) || severalModels(candidate);
  const key = (i: InstanceOutcome) =>
    JSON.stringify([i.benchmark, i.strategy, i.taskId, i.trial, byModel ? i.model : '']);
  const index = (list: readonly InstanceOutcome[]) => {
    const map = new Map<string, InstanceOutcome>();
    for (const i of list) if (!map.has(key(i))) map.set(key(i), i);
    return map;
  };
  const base = index(baseline);
  const cand = index(candidate);
  const pairs: Pair[] = [];
  const harnessErrors: Pair[] = [];
  for (const [k, b] of base) {
    const c = cand.get(k);
    if (!c) continue;
    (countsInRates(b.status) && countsInRates(c.status) ? pairs : harnessErrors).push({
      baseline: b,
      candidate: c,
    });
  }
  return {
    pairs,
    baselineOnly: [...base].filter(([k]) => !cand.has(k)).map(([, i]) => i),
    candidateOnly: [...cand].filter(([k]) => !base.has(k)).map(([, i]) => i),
    harnessErrors,
    byModel,
  };
}

export interface PairedComparison {
  metric: GateMetric;
  /** Shared instances compared. */
  n: number;
  /** Distinct tasks among them (the clusters). */
  tasks: number;
  baselineRate: number | null;
  candidateRate: number | null;
  /** candidateRate − baselineRate over the shared instances. */
  delta: number | null;
  /** Percentile-bootstrap interval of Δ, resampling tasks. */
  interval: Interval | null;
  /** Instances that passed only in the candidate / only in the baseline (candidate side). */
  fixes: InstanceOutcome[];
  breaks: InstanceOutcome[];
  /** Exact sign test over tasks whose net change is positive (fixes) or negative (breaks). */
  sign: SignTest;
}

/** Compares paired instances under a metric. Deterministic: the bootstrap is seeded. */
export function comparePairs(
  pairs: readonly Pair[],
  metric: GateMetric,
  bootstrap: BootstrapOptions = {},
): PairedComparison {
  const fixes: InstanceOutcome[] = [];
  const breaks: InstanceOutcome[] = [];
  const clusters = new Map<string, { delta: number; n: number }>();
  let baseWins = 0;
  let candWins = 0;
  for (const { baseline, candidate } of pairs) {
    const b = succeeded(baseline, metric);
    const c = succeeded(candidate, metric);
    baseWins += b ? 1 : 0;
    candWins += c ? 1 : 0;
    if (c && !b) fixes.push(candidate);
    if (b && !c) breaks.push(candidate);
    const task = JSON.stringify([candidate.benchmark, candidate.taskId]);
    const cluster = clusters.get(task) ?? { delta: 0, n: 0 };
    cluster.delta += Number(c) - Number(b);
    cluster.n++;
    clusters.set(task, cluster);
  }
  const n = pairs.length;
  const list = [...clusters.values()];
  const sign = signTest(list.filter((c) => c.delta > 0).length, list.filter((c) => c.delta < 0).length);
  const ratio = (sample: readonly number[]) => {
    let d = 0;
    let m = 0;
    for (const i of sample) {
      const c = list[i] as { delta: number; n: number };
      d += c.delta;
      m += c.n;
    }
    return d / m;
  };
  return {
    metric,
    n,
    tasks: list.length,
    baselineRate: n === 0 ? null : baseWins / n,
    candidateRate: n === 0 ? null : candWins / n,
    delta: n === 0 ? null : (candWins - baseWins) / n,
    interval:
      n === 0
        ? null
        : bootstrapInterval(
            list.map((_, i) => i),
            ratio,
            bootstrap,
          ),
    fixes,
    breaks,
    sign,
  };
}
