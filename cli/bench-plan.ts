/**
 * `witness bench --dry-run`: what a run would do and what it would cost in model calls, from the
 * suites' tasks alone (no model, no oracle engine). The selection is the one the suites apply
 * (core/selection.ts), so the counts are those of the real run.
 */
import Table from 'cli-table3';
import type { WitnessConfig } from '../core/config.ts';
import { SUITE_DATA_ENV, type SuiteName } from '../core/config-sections.ts';
import { selectLoaded, selectStrategies } from '../core/selection.ts';
import type { LoadedTasks } from '../core/types.ts';
import { MAX_CALLS, maxCallsPerEpisode } from '../strategies/call-bounds.ts';

export interface StrategyPlan {
  name: string;
  episodes: number;
  /** Most model calls of one episode; null for a strategy without a known bound. */
  maxCallsPerEpisode: number | null;
  maxCalls: number | null;
  pattern: string | null;
}

export interface SuitePlan {
  suite: string;
  /** The data folder or file (`suites.<name>.data`), or null for the fixtures shipped with Witness. */
  data: string | null;
  /** The split (`--split`, WITNESS_SPLIT), or null for the suite's default. */
  split: string | null;
  totalTasks: number;
  selectedTasks: number;
  /** How the tasks were chosen: all, listed ids, a seeded sample, or both. */
  selection: string;
  /** Items the loader could not read (not excluded): each strategy records them as invalid data, with no model call. */
  unreadable: number;
  /** Task ids and unreadable items left out by `--exclude-tasks` (`run.excludeTasks`). */
  excluded: number;
  taskIds: string[];
  trials: number;
  strategies: StrategyPlan[];
  episodes: number;
  maxCalls: number | null;
}

export interface BenchPlan {
  model: string;
  turns: number;
  hardeningRepairs: number;
  seed: number;
  /** The run-wide spending limit (`--budget`, `budget`): the run stops cleanly once it is spent. */
  budget: { tokens?: number; usd?: number };
  /** The shard counted (`--shard i/n` among the vitest arguments): only its suite files are in `suites`. */
  shard?: { index: number; count: number };
  suites: SuitePlan[];
  episodes: number;
  /** Null when a strategy has no known bound. */
  maxCalls: number | null;
}

const sum = (values: (number | null)[]): number | null =>
  values.some((v) => v === null) ? null : values.reduce<number>((n, v) => n + (v as number), 0);

/** One suite's plan: its tasks after the run's selection × its strategies × trials, and the call bound. */
export function planSuite(
  suite: string,
  loaded: LoadedTasks,
  strategyNames: readonly string[],
  config: WitnessConfig,
): SuitePlan {
  const { run } = config;
  const selected = selectLoaded(loaded, run, config.seed, suite);
  const tasks = selected.tasks;
  const names = selectStrategies(
    strategyNames.map((name) => ({ name })),
    run.strategies,
    suite,
  ).map((s) => s.name);
  const limits = limitsOf(config);
  const trials = config.trials;
  const strategies = names.map((name): StrategyPlan => {
    const episodes = tasks.length * trials;
    const perEpisode = maxCallsPerEpisode(name, limits);
    const row = Object.hasOwn(MAX_CALLS, name) ? MAX_CALLS[name as keyof typeof MAX_CALLS] : null;
    return {
      name,
      episodes,
      maxCallsPerEpisode: perEpisode,
      maxCalls: perEpisode === null ? null : perEpisode * episodes,
      pattern: row?.pattern ?? null,
    };
  });
  const listed = [
    run.tasks ? `${run.tasks.length} listed ids` : '',
    run.excludeTasks ? `${run.excludeTasks.length} excluded ids left out` : '',
  ].filter(Boolean);
  const how = [listed.join(', '), run.limit ? `seeded sample of ${run.limit}, seed ${config.seed}` : '']
    .filter(Boolean)
    .join(', then a ');
  return {
    suite,
    data: config.suites[suite as SuiteName]?.data ?? null,
    split: run.split ?? null,
    totalTasks: loaded.tasks.length,
    selectedTasks: tasks.length,
    selection: how || 'all tasks',
    unreadable: selected.issues.length,
    excluded: run.excludeTasks?.length ?? 0,
    taskIds: tasks.map((t) => t.id),
    trials,
    strategies,
    episodes: strategies.reduce((n, s) => n + s.episodes, 0),
    maxCalls: sum(strategies.map((s) => s.maxCalls)),
  };
}

function limitsOf(config: WitnessConfig) {
  return { turns: config.turns, hardeningRepairs: config.hardening.enabled ? config.hardening.maxCycles : 0 };
}

/** The whole plan: the suites' plans and their totals. */
export function benchPlan(suites: SuitePlan[], config: WitnessConfig, shard?: BenchPlan['shard']): BenchPlan {
  const limits = limitsOf(config);
  return {
    model: config.model.name,
    turns: limits.turns,
    hardeningRepairs: limits.hardeningRepairs,
    seed: config.seed,
    budget: config.budget,
    ...(shard ? { shard } : {}),
    suites,
    episodes: suites.reduce((n, s) => n + s.episodes, 0),
    maxCalls: sum(suites.map((s) => s.maxCalls)),
  };
}

const count = (n: number | null) => (n === null ? 'unknown' : n.toLocaleString('en-US'));
const atMost = (n: number | null) => (n === null ? 'unknown (a strategy has no known bound)' : `at most ${count(n)}`);

/** The plan as text: one block per suite with a table of strategies, then the totals. */
export function formatBenchPlan(plan: BenchPlan): string {
  const lines = [
    `dry run: nothing is run and no model is called (model ${plan.model}, ${plan.turns} turns, ` +
      `${plan.hardeningRepairs ? `up to ${plan.hardeningRepairs} hardening repairs` : 'hardening off'}, seed ${plan.seed})`,
  ];
  if (plan.shard)
    lines.push(
      `shard ${plan.shard.index}/${plan.shard.count}: the suites of its files only (vitest shards by file)${plan.suites.length ? '' : '; none'}`,
    );
  for (const s of plan.suites) {
    const data = s.data ?? 'the fixtures';
    const dataVar = SUITE_DATA_ENV[s.suite as SuiteName];
    lines.push(
      '',
      `${s.suite} · data: ${data}${s.data === null && dataVar ? ` (set ${dataVar} or --data)` : ''} · split: ${s.split ?? 'default'}`,
      `  tasks: ${count(s.selectedTasks)} of ${count(s.totalTasks)} (${s.selection})` +
        (s.unreadable ? `; ${s.unreadable} unreadable items are recorded as invalid data` : ''),
      `  trials: ${s.trials} · episodes: ${count(s.episodes)} · model calls: ${atMost(s.maxCalls)}`,
    );
    const table = new Table({
      head: ['strategy', 'episodes', 'calls/episode ≤', 'calls ≤', 'call pattern'],
      style: { head: [], border: [] },
      chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
      colAligns: ['left', 'right', 'right', 'right', 'left'],
    });
    for (const st of s.strategies)
      table.push([st.name, count(st.episodes), count(st.maxCallsPerEpisode), count(st.maxCalls), st.pattern ?? '—']);
    lines.push(table.toString());
  }
  lines.push(
    '',
    `total: ${count(plan.episodes)} episodes, model calls ${atMost(plan.maxCalls)} (retries of failed requests not counted)`,
  );
  const { tokens, usd } = plan.budget;
  if (tokens !== undefined || usd !== undefined)
    lines.push(
      `budget: ${[tokens !== undefined ? `${count(tokens)} tokens` : '', usd !== undefined ? `$${usd}` : ''].filter(Boolean).join(' or ')}; the run stops cleanly once it is spent`,
    );
  return lines.join('\n');
}
