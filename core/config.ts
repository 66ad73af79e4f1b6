/**
 * Run configuration, the one channel for every setting (docs/configuration.md lists them all).
 * Precedence: environment variables > `witness.config.json` (or the file named by WITNESS_CONFIG)
 * > defaults. Every invalid value is an error that names its source (file + key path, or variable).
 * Relative paths in the file resolve against the file's folder; relative paths from the environment
 * (and CLI options) against the project root loadConfig is given (the working directory for the CLI,
 * vitest's root under vitest).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Budget } from './budget.ts';
import { applyEnv } from './config-env.ts';
import { configFileSchema, type GateMetric } from './config-schema.ts';
import { defaultSections, type SectionSettings } from './config-sections.ts';
import { ConfigError, parseSetting } from './config-values.ts';
import type { PriceTable } from './cost.ts';
import { DEFAULT_HARDENING, type HardeningOptions } from './hardening.ts';
import type { CacheMode } from './models/cache.ts';
import { DEFAULT_SIM } from './models/sim.ts';
import { DEFAULT_STEERABLE_SIM } from './models/steerable-sim.ts';
import { witnessPath } from './paths.ts';
import type { RerunMode } from './resume.ts';

export { ConfigError } from './config-values.ts';
export { GATE_METRICS, type GateMetric } from './config-schema.ts';
export type { Neo4jSettings, PythonSettings } from './config-sections.ts';
export type GateScope = 'benchmark' | 'strategy';

/** The regression gate's policy (see reports/gate.ts and docs/reports.md). */
export interface GateSettings {
  /** Results or baseline file the reporter compares every run against; unset = no gate in the reporter. */
  baseline?: string;
  /** Per-instance success the gate compares: solved at turn 1, solved by the last turn, or robust. */
  metric: GateMetric;
  /** A drop of the metric up to this much (absolute share, 0.02 = 2 points) is noise, never a failure. */
  noiseBand: number;
  /** Significance level of the one-sided exact sign test on tasks that changed. */
  alpha: number;
  /** The candidate fails when its metric is below this share, whatever the baseline. */
  floor?: number;
  /** One comparison per benchmark (strategies pooled) or per (benchmark, strategy). */
  by: GateScope;
  /** Only these strategies take part; all when unset. */
  strategies?: string[];
}

/** How this session runs: which run it is or resumes (environment only, set by `witness bench`) and what it selects (also the file's `run`). */
export interface RunSettings {
  /** Run id to resume: its finished episodes are reused. */
  resume?: string;
  /** Redo stored episodes that errored or failed (needs `resume`). */
  rerun?: RerunMode;
  /** This run's id (WITNESS_RUN_ID, set once per vitest run so every worker stores into one run). */
  id?: string;
  /** The data split the suites run on (WITNESS_SPLIT, `witness bench --split`); unset = each suite's default. */
  split?: string;
  /** Only these strategies of each suite (WITNESS_STRATEGIES, `run.strategies`); unset = all. */
  strategies?: string[];
  /** Only these task ids (WITNESS_TASKS: a comma list or `@file`, `run.tasks`); unset = all. */
  tasks?: string[];
  /** Leave these task ids (or unreadable items) out (WITNESS_EXCLUDE_TASKS: a comma list or `@file`, `run.excludeTasks`), e.g. the invalid items `witness data check --write-invalid` lists. */
  excludeTasks?: string[];
  /** Invalid data fails its test (and the run) like a harness error (WITNESS_STRICT_DATA, `run.strictData`, `witness bench --strict-data`). */
  strictData?: boolean;
  /** A seeded sample of this many tasks per suite (WITNESS_LIMIT, `run.limit`; seed = `seed`). */
  limit?: number;
}

export interface ModelConfig {
  /** `sim` (the default) or a model name served by the OpenAI-compatible endpoint. */
  name: string;
  baseURL?: string;
  /** Name of the environment variable holding the key (the key itself never enters the config). */
  apiKeyEnv: string;
  temperature: number;
  seed?: number;
  maxTokens?: number;
  timeoutMs: number;
  /** Retries of a failed call at most (transient failures only); 0 = one attempt. */
  maxRetries: number;
  /** No retry starts once a call has run this long, attempts and backoff included. */
  retryBudgetMs: number;
  concurrency: number;
}

export interface WitnessConfig extends SectionSettings {
  model: ModelConfig;
  cache: { mode: CacheMode; path: string };
  /** The sim's settings; mistakeRate, ruleFactor, harmFactor and repairRate steer `sim-steerable` only. */
  sim: {
    skill: number;
    maxMutations: number;
    neighbourhood: number;
    mistakeRate: number;
    ruleFactor: number;
    harmFactor: number;
    repairRate: number;
  };
  /** Solve-phase turn budget. */
  turns: number;
  seed: number;
  hardening: HardeningOptions & { enabled: boolean };
  outDir: string;
  storeDir: string;
  /** Repeats per (task, strategy) when a suite does not set its own. */
  trials: number;
  /** USD per million tokens by model name; none built in. */
  prices: PriceTable;
  /** Run-wide spending limit; empty = none. */
  budget: Budget;
  gate: GateSettings;
  run: RunSettings;
}

export interface LoadedConfig {
  config: WitnessConfig;
  /** True when no model was configured and the sim stands in. */
  defaultedToSim: boolean;
  /** The config file that was read, if any. */
  file?: string;
}

export function defaultConfig(root: string): WitnessConfig {
  return {
    model: {
      name: 'sim',
      apiKeyEnv: 'OPENAI_API_KEY',
      temperature: 0,
      timeoutMs: 60_000,
      maxRetries: 10,
      retryBudgetMs: 600_000,
      concurrency: 4,
    },
    cache: { mode: 'readwrite', path: witnessPath(root, 'cache.sqlite') },
    sim: { ...DEFAULT_SIM, ...DEFAULT_STEERABLE_SIM },
    turns: 4,
    seed: 1,
    hardening: { enabled: true, ...DEFAULT_HARDENING },
    outDir: resolve(root, 'witness-out'),
    storeDir: witnessPath(root, 'runs'),
    trials: 1,
    prices: {},
    budget: {},
    gate: { metric: 'pass1', noiseBand: 0.02, alpha: 0.05, by: 'benchmark' },
    run: {},
    ...defaultSections(root),
  };
}

type Env = Record<string, string | undefined>;

/** Loads the configuration for a project root. */
export function loadConfig(root: string = process.cwd(), env: Env = process.env): LoadedConfig {
  const config = defaultConfig(root);
  const fileName = env.WITNESS_CONFIG ? resolve(root, env.WITNESS_CONFIG) : resolve(root, 'witness.config.json');
  let file: string | undefined;
  if (existsSync(fileName)) {
    file = fileName;
    applyFile(config, readJson(fileName), fileName);
  } else if (env.WITNESS_CONFIG) {
    throw new ConfigError(`WITNESS_CONFIG names ${fileName}, which does not exist`);
  }
  const modelFromFile = config.model.name !== 'sim';
  applyEnv(config, env, root);
  const defaultedToSim = !modelFromFile && !env.WITNESS_MODEL;
  return file ? { config, defaultedToSim, file } : { config, defaultedToSim };
}

function readJson(path: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Error('the top level must be an object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`${path}: invalid config: ${(error as Error).message}`);
  }
}

type DeepPartial<T> = { [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : DeepPartial<T[K]> };

/** The file's settings over `config`; relative paths resolve against the file's folder. */
function applyFile(config: WitnessConfig, raw: Record<string, unknown>, file: string): void {
  const { $schema: _, ...settings } = parseSetting(configFileSchema(dirname(file)), raw, (key) => `${file}: ${key}`);
  mergeInto(config, settings satisfies DeepPartial<WitnessConfig>);
}

/** Copies `source` into `target`, object by object (so a file key leaves its section's other defaults). */
function mergeInto(target: object, source: object): void {
  const into = target as Record<string, unknown>;
  for (const [key, value] of Object.entries(source)) {
    const current = into[key];
    if (isObject(value) && isObject(current)) mergeInto(current, value);
    else into[key] = value;
  }
}

const isObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
