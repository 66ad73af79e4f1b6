/**
 * What an oracle family tells the rest of Witness about each benchmark it serves: one descriptor
 * per suite (oracles/<family>/suite.ts), listed once in oracles/suites.ts. `witness optimize`,
 * `split`, `data check` and `bench --dry-run` and HERO-O's data read these. The configuration's
 * suite sections (core/config-sections.ts, `SUITE_NAMES`) are checked against this list by
 * oracles/suites.test.ts.
 */
import type { WitnessConfig } from './config.ts';
import type { SuiteName } from './config-sections.ts';
import type { DataReport } from './data-report.ts';
import type { Oracle, PreparedTask } from './oracle.ts';
import type { LoadedTasks } from './types.ts';

/** A benchmark's tasks, oracle and seed prompt, without strategies. */
export interface BenchmarkSpec {
  name: string;
  tasks: LoadedTasks;
  oracle: Oracle<PreparedTask>;
  /** Path of the seed prompt template. */
  prompt: string;
  /** Releases what the spec started besides the oracle (e.g. a Neo4j server); the oracle is disposed too. */
  dispose?: () => Promise<void>;
}

/** What a spec's caller may ask for besides the configuration. */
export interface SpecOptions {
  /** The data split (default: the configuration's `run.split`; unset = the suite's default). */
  split?: string;
}

/** Whether the engine a suite needs can run on this machine, and if not, why and how to fix it. */
export type EngineStatus = { ok: true } | { ok: false; reason: string };

/** A suite's data for HERO-O: the tasks to optimize on and, when the suite has one, its evaluation split. */
export interface HeroSources {
  optimization: LoadedTasks;
  /** The suite's own evaluation split, or null when a seeded share is held out. */
  evaluation: LoadedTasks | null;
  optimizationSplit: string | null;
  evaluationSplit: string | null;
  /** The task field pools are disjoint by, or null. */
  groupedBy: 'db_id' | 'graph' | null;
  data: string | null;
}

/** HERO-O's data when the suite's folder has splits of its own (BIRD's train and dev). */
export type OwnHeroSplits = Pick<HeroSources, 'optimization' | 'evaluation' | 'optimizationSplit' | 'evaluationSplit'>;

/** One benchmark as its oracle family declares it. Heavy modules load inside the functions, when used. */
export interface SuiteDescriptor {
  name: SuiteName;
  /** Path of the seed prompt template. */
  prompt: string;
  /** The suite with its engines started, for commands outside vitest (`witness optimize`, `data check --items`). */
  spec(config: WitnessConfig, options?: SpecOptions): Promise<BenchmarkSpec>;
  /** The tasks alone, starting no engine (`witness bench --dry-run`, split files). */
  tasks(config: WitnessConfig, options?: SpecOptions): Promise<LoadedTasks>;
  /** `witness data check`: the data at `data` in the benchmark's official layout. */
  checkData(data: string): DataReport | Promise<DataReport>;
  /** The task field HERO-O keeps its pools disjoint by, or null. */
  heroGroupedBy: HeroSources['groupedBy'];
  /** HERO-O's data when the folder at `data` has splits of its own; null = a seeded partition of the tasks. */
  heroSplits?(data: string): Promise<OwnHeroSplits | null>;
  /** Whether its engine runs here (checked before posing every item); unset = it always does. */
  engineStatus?(config: WitnessConfig): Promise<EngineStatus>;
}

/** Releases a spec: its oracle, then anything else it started (a Neo4j server). */
export async function disposeSpec(spec: BenchmarkSpec): Promise<void> {
  await spec.oracle.dispose?.();
  await spec.dispose?.();
}

/** A spec's tasks, the spec released: for callers that need only the tasks. */
export async function tasksOf(spec: BenchmarkSpec): Promise<LoadedTasks> {
  try {
    return spec.tasks;
  } finally {
    await disposeSpec(spec);
  }
}

/** The split asked for: the caller's, else the configuration's `run.split`. */
export function splitOf(config: WitnessConfig, options: SpecOptions = {}): string | undefined {
  return 'split' in options ? options.split : config.run.split;
}
