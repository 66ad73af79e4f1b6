/**
 * The CI regression gate: policy in, verdict out. It compares a candidate run with a baseline on
 * the instances both have, one check per benchmark (strategies pooled) or per (benchmark,
 * strategy), and fails only when
 * - the candidate's metric is below the absolute floor, or
 * - the metric fell by more than the noise band AND the exact sign test says the breaks outnumber
 *   the fixes beyond chance (one-sided p < alpha), or
 * - it closes: nothing was compared, or the candidate's ledger shows planned episodes without a
 *   trajectory of their own (lost, or not run for the budget), so the run is incomplete.
 * A drop beyond the band that is not significant is a warning. The verdict names the metric, the
 * numbers and the instances that broke. Pure: no I/O.
 */
import type { GateMetric, GateSettings } from '../core/config.ts';
import type { BootstrapOptions } from './bootstrap.ts';
import { ledgerGap } from './ledger.ts';
import { countsInRates } from './metrics.ts';
import { type GateInput, type InstanceOutcome, succeeded } from './outcomes.ts';
import { comparePairs, type Pair, type PairedComparison, pairInstances } from './paired.ts';

export type GatePolicy = Omit<GateSettings, 'baseline'>;
export type GateStatus = 'pass' | 'warn' | 'fail';

export const METRIC_LABELS: Record<GateMetric, string> = {
  pass1: 'Pass@1',
  passFinal: 'Pass@final',
  robust: 'robust success',
};

export interface GateCheck {
  benchmark: string;
  /** null when the strategies are pooled. */
  strategy: string | null;
  status: GateStatus;
  comparison: PairedComparison;
  /** The candidate's metric over all its counted instances in scope (what the floor applies to). */
  candidateOverall: number | null;
  /** Why the check did not pass, one sentence each. */
  reasons: string[];
}

export interface GateVerdict {
  ok: boolean;
  status: GateStatus;
  metric: GateMetric;
  /** One line: the status and the headline. */
  title: string;
  policy: GatePolicy;
  baseline: { path: string; runId: string };
  candidate: { path: string; runId: string };
  checks: GateCheck[];
  unmatched: { baselineOnly: number; candidateOnly: number; harnessErrors: number };
  /** Notes that qualify the verdict (benchmarks not compared, instances matched by model). */
  notes: string[];
}

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
const points = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} points`;
const pValue = (p: number) => (p < 0.0001 ? p.toExponential(1) : p.toFixed(4));

/** "nl-rx · diagnostic · task 12 · trial 0" */
export function instanceLabel(i: InstanceOutcome): string {
  return `${i.benchmark} · ${i.strategy} · task ${i.taskId} · trial ${i.trial}`;
}

/** "nl-rx" or "nl-rx · diagnostic" */
export function scopeLabel(check: Pick<GateCheck, 'benchmark' | 'strategy'>): string {
  return check.strategy === null ? check.benchmark : `${check.benchmark} · ${check.strategy}`;
}

function judge(
  scope: { benchmark: string; strategy: string | null },
  comparison: PairedComparison,
  overall: number | null,
  policy: GatePolicy,
): GateCheck {
  const label = METRIC_LABELS[policy.metric];
  const reasons: string[] = [];
  let status: GateStatus = 'pass';
  if (policy.floor !== undefined && overall !== null && overall < policy.floor) {
    status = 'fail';
    reasons.push(`${label} of the candidate is ${pct(overall)}, below the floor of ${pct(policy.floor)}`);
  }
  if (comparison.n === 0) {
    if (status === 'pass') status = 'warn';
    reasons.push('no instance is shared with the baseline, so nothing was compared');
  } else if (comparison.delta !== null && comparison.delta < -policy.noiseBand) {
    const { sign } = comparison;
    const ci = comparison.interval ? ` [${points(comparison.interval.low)}, ${points(comparison.interval.high)}]` : '';
    const drop =
      `${label} fell from ${pct(comparison.baselineRate)} to ${pct(comparison.candidateRate)} ` +
      `(Δ ${points(comparison.delta)}${ci}) on ${comparison.n} shared instances, beyond the noise band of ${(policy.noiseBand * 100).toFixed(1)} points; ` +
      `${comparison.breaks.length} broke, ${comparison.fixes.length} fixed; ` +
      `tasks worse/better ${sign.breaks}/${sign.fixes}, exact sign test one-sided p = ${pValue(sign.pWorse)}`;
    if (sign.pWorse < policy.alpha) {
      status = 'fail';
      reasons.push(`${drop} < ${policy.alpha}`);
    } else {
      if (status === 'pass') status = 'warn';
      reasons.push(`${drop} ≥ ${policy.alpha}, so the drop may be noise`);
    }
  }
  return { ...scope, status, comparison, candidateOverall: overall, reasons };
}

function rate(instances: readonly InstanceOutcome[], metric: GateMetric): number | null {
  const counted = instances.filter((i) => countsInRates(i.status));
  return counted.length === 0 ? null : counted.filter((i) => succeeded(i, metric)).length / counted.length;
}

/** Runs the gate. `baseline` and `candidate` are what `readGateInput` returns. */
export function evaluateGate(
  baseline: GateInput,
  candidate: GateInput,
  policy: GatePolicy,
  bootstrap: BootstrapOptions = {},
): GateVerdict {
  const inScope = (i: InstanceOutcome) => policy.strategies === undefined || policy.strategies.includes(i.strategy);
  const pairing = pairInstances(baseline.instances.filter(inScope), candidate.instances.filter(inScope));
  const scopeOf = (i: InstanceOutcome) => ({
    benchmark: i.benchmark,
    strategy: policy.by === 'strategy' ? i.strategy : null,
  });
  const scopes = new Map<
    string,
    { benchmark: string; strategy: string | null; pairs: Pair[]; instances: InstanceOutcome[] }
  >();
  for (const i of candidate.instances.filter(inScope)) {
    const scope = scopeOf(i);
    const key = JSON.stringify(scope);
    const entry = scopes.get(key) ?? { ...scope, pairs: [], instances: [] };
    entry.instances.push(i);
    scopes.set(key, entry);
  }
  for (const pair of pairing.pairs) scopes.get(JSON.stringify(scopeOf(pair.candidate)))?.pairs.push(pair);
  const checks = [...scopes.values()]
    .sort((a, b) => (scopeLabel(a) < scopeLabel(b) ? -1 : scopeLabel(a) > scopeLabel(b) ? 1 : 0))
    .map((s) =>
      judge(
        { benchmark: s.benchmark, strategy: s.strategy },
        comparePairs(s.pairs, policy.metric, bootstrap),
        rate(s.instances, policy.metric),
        policy,
      ),
    );

  const notes: string[] = [];
  const gated = new Set(checks.map((c) => c.benchmark));
  const missing = [...new Set(baseline.instances.filter(inScope).map((i) => i.benchmark))]
    .filter((b) => !gated.has(b))
    .sort();
  if (missing.length > 0)
    notes.push(`baseline benchmarks the candidate did not run (not gated): ${missing.join(', ')}`);
  if (pairing.byModel) notes.push('some benchmark has several models, so instances are matched by model name too');
  if (pairing.harnessErrors.length > 0)
    notes.push(
      `${pairing.harnessErrors.length} shared instances left out: a harness error or invalid data on either side`,
    );

  const gap = candidate.ledger ? ledgerGap(candidate.ledger) : null;
  if (gap) notes.push(`${gap}; the gate does not judge an incomplete run (fail closed)`);
  let status: GateStatus = checks.some((c) => c.status === 'fail')
    ? 'fail'
    : checks.some((c) => c.status === 'warn')
      ? 'warn'
      : 'pass';
  if (pairing.pairs.length === 0) {
    status = 'fail';
    notes.push('no instance is shared between baseline and candidate: the gate compared nothing (fail closed)');
  }
  if (gap) status = 'fail';
  const label = METRIC_LABELS[policy.metric];
  const failing = checks.filter((c) => c.status === 'fail');
  const counted = `${checks.length} ${checks.length === 1 ? 'check' : 'checks'}`;
  const title =
    status === 'fail'
      ? `Witness gate: FAIL — ${failing.length > 0 ? `${label} regressed or fell below the floor in ${failing.map(scopeLabel).join(', ')}` : gap ? 'planned episodes are missing from the run' : 'nothing to compare'}`
      : status === 'warn'
        ? `Witness gate: pass with warnings — ${label} did not regress significantly (${counted})`
        : `Witness gate: pass — ${label} did not regress beyond the noise band (${counted})`;
  return {
    ok: status !== 'fail',
    status,
    metric: policy.metric,
    title,
    policy,
    baseline: { path: baseline.path, runId: baseline.runId },
    candidate: { path: candidate.path, runId: candidate.runId },
    checks,
    unmatched: {
      baselineOnly: pairing.baselineOnly.length,
      candidateOnly: pairing.candidateOnly.length,
      harnessErrors: pairing.harnessErrors.length,
    },
    notes,
  };
}
