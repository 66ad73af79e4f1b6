/**
 * Groups trajectories by (benchmark, model name, strategy) and computes every metric of a group
 * into one `SummaryRow`, with seeded bootstrap intervals for the headline rates.
 */
import { FEEDBACK_STRATEGY_NAMES } from '../core/strategy-names.ts';
import type { JsonObject, Trajectory } from '../core/types.ts';
import { type BootstrapOptions, type Interval, bootstrapMeans, mean } from './bootstrap.ts';
import { groupVes } from './curves.ts';
import { type Agreement, groupPassAtK, type PassAtK, repeatAgreement, taskRepeats } from './pass-at-k.ts';
import { groupSpend, type Spend } from './spend.ts';
import {
  type TokenUsage,
  cacheUsage,
  countedTrajectories,
  hardenedRate,
  harnessErrorCount,
  invalidDataCount,
  meanAttempts,
  meanTimeToSuccess,
  modelErrorCount,
  probeAgreement,
  reciprocalRank,
  rerPooled,
  rerTaskMean,
  robustIndicator,
  hardeningRan,
  solvedFinal,
  solvedFirst,
  structuralStability,
  tokenUsage,
  totalFixesBreaks,
} from './metrics.ts';

/** A rate or mean with its 95% percentile-bootstrap interval over trajectories (null when n = 0). */
export interface Estimate {
  value: number | null;
  ci: Interval | null;
}

export interface SummaryRow {
  benchmark: string;
  model: string;
  /** Set when merged runs overlap (same tasks and trials): the run id that tells the rows apart. */
  variant?: string;
  /** True when any trajectory's model is privileged (the sim model knows the gold program). */
  privileged: boolean;
  strategy: string;
  runIds: string[];
  promptHashes: string[];
  /** Distinct oracle configurations (name + settings) seen in the group. */
  oracles: { name: string; settings: JsonObject }[];
  /** Trajectories in the rates (all but harness errors and invalid data). */
  n: number;
  tasks: number;
  solved: number;
  harnessErrors: number;
  /** Episodes of items the dataset makes unposable (excluded from the rates). */
  invalidData: number;
  modelErrors: number;
  /** Extra trajectories for an already-seen (task, trial), dropped (the first one is kept). */
  duplicates: number;
  pass1: Estimate;
  passFinal: Estimate;
  mrr: Estimate;
  robust: Estimate;
  meanTimeToSuccess: number | null;
  meanAttempts: number | null;
  stability: number | null;
  fixes: number;
  breaks: number;
  rerPooled: number | null;
  rerTaskMean: number | null;
  hardened: number | null;
  probeAgreement: number | null;
  tokens: TokenUsage;
  cache: { hits: number; misses: number };
  /** Most counted episodes of any one task (the trials). */
  trials: number;
  /** Unbiased pass@k over repeated episodes (solved within the budget), k up to the fewest episodes of a task. */
  passAtK: PassAtK[];
  /** Per-task agreement of repeated episodes and the flaky tasks. */
  agreement: Agreement;
  /** Tokens and cost by purpose (solve, judge, reflect, …). */
  spend: Spend;
  /** BIRD-style VES where the oracle measured execution time, else null. */
  ves: number | null;
}

/** An item the dataset makes unposable, once per item whatever the strategies and trials. */
export interface InvalidDataEntry {
  benchmark: string;
  taskId: string;
  /** Why the item cannot be posed (the loader's or the oracle's words). */
  reason: string;
  /** Its episodes (strategies × trials × models), each recorded as invalid data. */
  episodes: number;
}

export interface HarnessErrorEntry {
  benchmark: string;
  model: string;
  strategy: string;
  taskId: string;
  trial: number;
  message: string;
}

/** Display order of the known strategies; any other strategy follows, alphabetically. */
export const STRATEGY_ORDER: readonly string[] = FEEDBACK_STRATEGY_NAMES;

/** Plain code-unit comparison: locale-independent, so reports sort the same everywhere. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Known strategies in STRATEGY_ORDER, then the others alphabetically. */
export function compareStrategies(a: string, b: string): number {
  const ia = STRATEGY_ORDER.indexOf(a);
  const ib = STRATEGY_ORDER.indexOf(b);
  if (ia !== -1 || ib !== -1) {
    if (ia === -1) return 1;
    if (ib === -1) return -1;
    return ia - ib;
  }
  return compareText(a, b);
}

/** Row order: benchmark, model, variant, then strategy (`compareStrategies`). */
export function compareRows(
  a: Pick<SummaryRow, 'benchmark' | 'model' | 'strategy' | 'variant'>,
  b: Pick<SummaryRow, 'benchmark' | 'model' | 'strategy' | 'variant'>,
): number {
  return (
    compareText(a.benchmark, b.benchmark) ||
    compareText(a.model, b.model) ||
    compareText(a.variant ?? '', b.variant ?? '') ||
    compareStrategies(a.strategy, b.strategy)
  );
}

export interface Group {
  benchmark: string;
  model: string;
  variant?: string;
  strategy: string;
  trajectories: Trajectory[];
  duplicates: number;
}

/**
 * Groups by (benchmark, model name, variant, strategy), keeping one trajectory per (task, trial):
 * the first one seen; later ones are counted in `duplicates`. `variantOf` tells overlapping runs
 * apart (see reports/merge.ts); without it there are no variants. Groups come out in row order.
 */
export function groupTrajectories(
  trajectories: readonly Trajectory[],
  variantOf?: (t: Trajectory) => string | undefined,
): Group[] {
  const groups = new Map<string, Group & { seen: Set<string> }>();
  for (const t of trajectories) {
    const variant = variantOf?.(t);
    const key = JSON.stringify([t.benchmark, t.model.name, variant ?? null, t.strategy]);
    let group = groups.get(key);
    if (!group) {
      group = {
        benchmark: t.benchmark,
        model: t.model.name,
        ...(variant === undefined ? {} : { variant }),
        strategy: t.strategy,
        trajectories: [],
        duplicates: 0,
        seen: new Set(),
      };
      groups.set(key, group);
    }
    const item = JSON.stringify([t.taskId, t.trial]);
    if (group.seen.has(item)) group.duplicates++;
    else {
      group.seen.add(item);
      group.trajectories.push(t);
    }
  }
  return [...groups.values()].map(({ seen: _seen, ...group }) => group).sort(compareRows);
}

function distinct<T>(items: readonly T[], key: (item: T) => string = String): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

/** Summarizes one group. `bootstrap` options default to 2,000 resamples at 95% with BOOTSTRAP_SEED. */
export function summarizeGroup(group: Group, bootstrap: BootstrapOptions = {}): SummaryRow {
  const all = group.trajectories;
  const counted = countedTrajectories(all);
  // The headline rates resample the same trajectories: one pass of draws for all of them.
  const hardened = hardeningRan(all);
  const scores = [solvedFirst, solvedFinal, reciprocalRank, ...(hardened ? [robustIndicator] : [])];
  const lists = scores.map((score) => counted.map(score));
  const intervals = bootstrapMeans(lists, bootstrap);
  const estimate = (index: number): Estimate => {
    const values = lists[index] as number[];
    return values.length === 0 ? { value: null, ci: null } : { value: mean(values), ci: intervals[index] ?? null };
  };
  const { fixes, breaks } = totalFixesBreaks(all);
  const repeats = taskRepeats(all);
  return {
    benchmark: group.benchmark,
    model: group.model,
    ...(group.variant === undefined ? {} : { variant: group.variant }),
    privileged: all.some((t) => t.model.privileged),
    strategy: group.strategy,
    runIds: distinct(all.map((t) => t.runId)).sort(),
    promptHashes: distinct(all.map((t) => t.promptHash)).sort(),
    oracles: distinct(
      all.map((t) => ({ name: t.oracle.name, settings: t.oracle.settings })),
      (o) => JSON.stringify(o),
    ),
    n: counted.length,
    tasks: distinct(all.map((t) => t.taskId)).length,
    solved: counted.filter((t) => solvedFinal(t) === 1).length,
    harnessErrors: harnessErrorCount(all),
    invalidData: invalidDataCount(all),
    modelErrors: modelErrorCount(all),
    duplicates: group.duplicates,
    pass1: estimate(0),
    passFinal: estimate(1),
    mrr: estimate(2),
    robust: hardened ? estimate(3) : { value: null, ci: null },
    meanTimeToSuccess: meanTimeToSuccess(all),
    meanAttempts: meanAttempts(all),
    stability: structuralStability(all),
    fixes,
    breaks,
    rerPooled: rerPooled(all),
    rerTaskMean: rerTaskMean(all),
    hardened: hardenedRate(all),
    probeAgreement: probeAgreement(all),
    tokens: tokenUsage(all),
    cache: cacheUsage(all),
    trials: Math.max(0, ...repeats.map((r) => r.n)),
    passAtK: groupPassAtK(repeats),
    agreement: repeatAgreement(repeats),
    spend: groupSpend(all),
    ves: groupVes(all),
  };
}

/** Groups → one `SummaryRow` per (benchmark, model, variant, strategy), in row order. */
export function summarize(
  trajectories: readonly Trajectory[],
  bootstrap: BootstrapOptions = {},
  variantOf?: (t: Trajectory) => string | undefined,
): SummaryRow[] {
  return groupTrajectories(trajectories, variantOf).map((group) => summarizeGroup(group, bootstrap));
}

export interface Section {
  benchmark: string;
  model: string;
  variant?: string;
  rows: SummaryRow[];
}

/** "nl-rx · sim", or "nl-rx · sim · run-2" for a variant. */
export function sectionTitle(section: Pick<Section, 'benchmark' | 'model' | 'variant'>): string {
  return [section.benchmark, section.model, ...(section.variant === undefined ? [] : [section.variant])].join(' · ');
}

/** Splits ordered rows into one section per (benchmark, model, variant), as the tables show them. */
export function sectionsOf(rows: readonly SummaryRow[]): Section[] {
  const sections: Section[] = [];
  for (const row of [...rows].sort(compareRows)) {
    const last = sections.at(-1);
    if (last && last.benchmark === row.benchmark && last.model === row.model && last.variant === row.variant)
      last.rows.push(row);
    else
      sections.push({
        benchmark: row.benchmark,
        model: row.model,
        ...(row.variant === undefined ? {} : { variant: row.variant }),
        rows: [row],
      });
  }
  return sections;
}

/** Every harness-error trajectory with its message, in row order then task id and trial. */
export function listHarnessErrors(trajectories: readonly Trajectory[]): HarnessErrorEntry[] {
  return trajectories
    .filter((t) => t.outcome.status === 'harness-error')
    .map((t) => ({
      benchmark: t.benchmark,
      model: t.model.name,
      strategy: t.strategy,
      taskId: t.taskId,
      trial: t.trial,
      message: t.outcome.error ?? '(no message recorded)',
    }))
    .sort((a, b) => compareRows(a, b) || compareText(a.taskId, b.taskId) || a.trial - b.trial);
}

/** Every item recorded as invalid data, once, with its reason and how many episodes it had, by benchmark then task id. */
export function listInvalidData(trajectories: readonly Trajectory[]): InvalidDataEntry[] {
  const items = new Map<string, InvalidDataEntry>();
  for (const t of trajectories) {
    if (t.outcome.status !== 'invalid-data') continue;
    const key = JSON.stringify([t.benchmark, t.taskId]);
    const entry = items.get(key);
    if (entry) entry.episodes++;
    else
      items.set(key, {
        benchmark: t.benchmark,
        taskId: t.taskId,
        reason: t.outcome.error ?? '(no reason recorded)',
        episodes: 1,
      });
  }
  return [...items.values()].sort((a, b) => compareText(a.benchmark, b.benchmark) || compareText(a.taskId, b.taskId));
}
