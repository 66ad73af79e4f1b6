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
import { parseBudget, type Budget } from './budget.ts';
import type { PriceTable } from './cost.ts';
import { DEFAULT_HARDENING, type HardeningOptions } from './hardening.ts';
import { CACHE_MODES, type CacheMode } from './models/cache.ts';
import { applySectionsEnv, applySectionsFile, defaultSections, type SectionSettings } from './config-sections.ts';
import { bool, ConfigError, int, num, object, oneOf, onlyKnown, positive, text } from './config-values.ts';
import { DEFAULT_SIM } from './models/sim.ts';
import { DEFAULT_STEERABLE_SIM } from './models/steerable-sim.ts';
import { witnessPath } from './paths.ts';
import { RERUN_MODES, type RerunMode } from './resume.ts';
import { parseIdLines, parseNameList } from './selection.ts';
import type { Price } from './types.ts';

export { ConfigError } from './config-values.ts';
export type { Neo4jSettings, PythonSettings, SuitesSettings } from './config-sections.ts';

export type GateMetric = 'pass1' | 'passFinal' | 'robust';
export const GATE_METRICS: readonly GateMetric[] = ['pass1', 'passFinal', 'robust'];
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

function applyFile(config: WitnessConfig, raw: Record<string, unknown>, file: string): void {
  const where = (key: string) => `${file}: ${key}`;
  const base = dirname(file);
  const known = new Set([
    'model',
    'cache',
    'sim',
    'turns',
    'seed',
    'hardening',
    'outDir',
    'storeDir',
    'trials',
    'prices',
    'budget',
    'gate',
    'suites',
    'python',
    'neo4j',
    'proposer',
    'run',
  ]);
  for (const key of Object.keys(raw)) {
    if (!known.has(key)) throw new ConfigError(`${where(key)}: unknown setting (known: ${[...known].join(', ')})`);
  }
  const model = object(raw.model, where('model'));
  if (model) {
    if (model.name !== undefined) config.model.name = text(model.name, where('model.name'));
    if (model.baseURL !== undefined) config.model.baseURL = text(model.baseURL, where('model.baseURL'));
    if (model.apiKeyEnv !== undefined) config.model.apiKeyEnv = text(model.apiKeyEnv, where('model.apiKeyEnv'));
    if (model.temperature !== undefined)
      config.model.temperature = num(model.temperature, where('model.temperature'), 0, 2);
    if (model.seed !== undefined) config.model.seed = int(model.seed, where('model.seed'), 0);
    if (model.maxTokens !== undefined) config.model.maxTokens = int(model.maxTokens, where('model.maxTokens'), 1);
    if (model.timeoutMs !== undefined) config.model.timeoutMs = int(model.timeoutMs, where('model.timeoutMs'), 1);
    if (model.maxRetries !== undefined) config.model.maxRetries = int(model.maxRetries, where('model.maxRetries'), 0);
    if (model.retryBudgetMs !== undefined)
      config.model.retryBudgetMs = int(model.retryBudgetMs, where('model.retryBudgetMs'), 0);
    if (model.concurrency !== undefined)
      config.model.concurrency = int(model.concurrency, where('model.concurrency'), 1);
  }
  const cache = object(raw.cache, where('cache'));
  if (cache) {
    if (cache.mode !== undefined) config.cache.mode = cacheMode(cache.mode, where('cache.mode'));
    if (cache.path !== undefined) config.cache.path = resolve(base, text(cache.path, where('cache.path')));
  }
  const sim = object(raw.sim, where('sim'));
  if (sim) {
    if (sim.skill !== undefined) config.sim.skill = num(sim.skill, where('sim.skill'), 0, 1);
    if (sim.maxMutations !== undefined) config.sim.maxMutations = int(sim.maxMutations, where('sim.maxMutations'), 1);
    if (sim.neighbourhood !== undefined)
      config.sim.neighbourhood = int(sim.neighbourhood, where('sim.neighbourhood'), 0);
    for (const key of ['mistakeRate', 'ruleFactor', 'repairRate'] as const)
      if (sim[key] !== undefined) config.sim[key] = num(sim[key], where(`sim.${key}`), 0, 1);
    if (sim.harmFactor !== undefined) config.sim.harmFactor = num(sim.harmFactor, where('sim.harmFactor'), 1, 1000);
  }
  if (raw.turns !== undefined) config.turns = int(raw.turns, where('turns'), 1);
  if (raw.seed !== undefined) config.seed = int(raw.seed, where('seed'), 0);
  const hardening = object(raw.hardening, where('hardening'));
  if (hardening) {
    if (hardening.enabled !== undefined) config.hardening.enabled = bool(hardening.enabled, where('hardening.enabled'));
    if (hardening.maxCycles !== undefined)
      config.hardening.maxCycles = int(hardening.maxCycles, where('hardening.maxCycles'), 0);
    if (hardening.maxProbes !== undefined)
      config.hardening.maxProbes = int(hardening.maxProbes, where('hardening.maxProbes'), 1);
    if (hardening.maxAdded !== undefined)
      config.hardening.maxAdded = int(hardening.maxAdded, where('hardening.maxAdded'), 1);
  }
  if (raw.outDir !== undefined) config.outDir = resolve(base, text(raw.outDir, where('outDir')));
  if (raw.storeDir !== undefined) config.storeDir = resolve(base, text(raw.storeDir, where('storeDir')));
  if (raw.trials !== undefined) config.trials = int(raw.trials, where('trials'), 1);
  const prices = object(raw.prices, where('prices'));
  if (prices)
    config.prices = Object.fromEntries(
      Object.entries(prices).map(([name, p]) => [name, price(p, where(`prices.${name}`))]),
    );
  const budget = object(raw.budget, where('budget'));
  if (budget) {
    for (const key of Object.keys(budget))
      if (key !== 'tokens' && key !== 'usd')
        throw new ConfigError(`${where(`budget.${key}`)}: unknown setting (known: tokens, usd)`);
    if (budget.tokens !== undefined) config.budget.tokens = int(budget.tokens, where('budget.tokens'), 1);
    if (budget.usd !== undefined) config.budget.usd = positive(budget.usd, where('budget.usd'));
  }
  const gate = object(raw.gate, where('gate'));
  if (gate) applyGate(config.gate, gate, where, base);
  const run = object(raw.run, where('run'));
  if (run) applyRunFile(config.run, run, where, base);
  applySectionsFile(config, raw, where, base);
}

/** The file's `run` section: the selection (`strategies`, `tasks`, `excludeTasks`, `limit`) and `strictData`; the rest of `run` is environment only. */
function applyRunFile(
  run: RunSettings,
  raw: Record<string, unknown>,
  where: (key: string) => string,
  base: string,
): void {
  onlyKnown(raw, ['strategies', 'tasks', 'excludeTasks', 'limit', 'strictData'], (k) => where(`run.${k}`));
  if (raw.strategies !== undefined) run.strategies = names(raw.strategies, where('run.strategies'));
  const ids = (value: unknown, key: string, allowEmpty = false) =>
    typeof value === 'string' && value.trim().startsWith('@')
      ? taskIds(value, where(key), base, allowEmpty)
      : names(value, where(key));
  if (raw.tasks !== undefined) run.tasks = ids(raw.tasks, 'run.tasks');
  if (raw.excludeTasks !== undefined) run.excludeTasks = ids(raw.excludeTasks, 'run.excludeTasks', true);
  if (raw.limit !== undefined) run.limit = int(raw.limit, where('run.limit'), 1);
  if (raw.strictData !== undefined) run.strictData = bool(raw.strictData, where('run.strictData'));
}

/** A list of names: a JSON array of strings or a comma-separated string. */
function names(value: unknown, where: string): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) throw new ConfigError(`${where}: expected a non-empty list`);
    return [...new Set(value.map((v, i) => text(v, `${where}[${i}]`)))];
  }
  return selectionValue(() => parseNameList(text(value, where), where));
}

/** Task ids: a comma list, or `@file` with one id per line (relative to `base`; an empty file only when `allowEmpty`). */
function taskIds(value: string, where: string, base: string, allowEmpty = false): string[] {
  const trimmed = value.trim();
  if (!trimmed.startsWith('@')) return selectionValue(() => parseNameList(trimmed, where));
  const file = resolve(base, trimmed.slice(1));
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${where}: cannot read the task list ${file}: ${(error as Error).message}`);
  }
  return selectionValue(() => parseIdLines(content, `${where}: ${file}`, allowEmpty));
}

function selectionValue<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

function applyGate(
  gate: GateSettings,
  raw: Record<string, unknown>,
  where: (key: string) => string,
  base: string,
): void {
  const known = new Set(['baseline', 'metric', 'noiseBand', 'alpha', 'floor', 'by', 'strategies']);
  for (const key of Object.keys(raw))
    if (!known.has(key))
      throw new ConfigError(`${where(`gate.${key}`)}: unknown setting (known: ${[...known].join(', ')})`);
  if (raw.baseline !== undefined) gate.baseline = resolve(base, text(raw.baseline, where('gate.baseline')));
  if (raw.metric !== undefined) gate.metric = oneOf(raw.metric, GATE_METRICS, where('gate.metric'));
  if (raw.noiseBand !== undefined) gate.noiseBand = num(raw.noiseBand, where('gate.noiseBand'), 0, 1);
  if (raw.alpha !== undefined) gate.alpha = num(raw.alpha, where('gate.alpha'), 0, 0.5);
  if (raw.floor !== undefined) gate.floor = num(raw.floor, where('gate.floor'), 0, 1);
  if (raw.by !== undefined) gate.by = oneOf(raw.by, ['benchmark', 'strategy'] as const, where('gate.by'));
  if (raw.strategies !== undefined) {
    if (!Array.isArray(raw.strategies) || raw.strategies.length === 0)
      throw new ConfigError(`${where('gate.strategies')}: expected a non-empty list of strategy names`);
    gate.strategies = raw.strategies.map((s, i) => text(s, where(`gate.strategies[${i}]`)));
  }
}

function price(value: unknown, where: string): Price {
  const o = object(value, where);
  if (!o)
    throw new ConfigError(`${where}: expected { "input": USD per million tokens, "output": USD per million tokens }`);
  for (const key of Object.keys(o))
    if (key !== 'input' && key !== 'output')
      throw new ConfigError(`${where}.${key}: unknown setting (known: input, output)`);
  if (o.input === undefined || o.output === undefined)
    throw new ConfigError(`${where}: expected both "input" and "output" (USD per million tokens)`);
  return { input: num(o.input, `${where}.input`, 0, 1e6), output: num(o.output, `${where}.output`, 0, 1e6) };
}

function applyEnv(config: WitnessConfig, env: Env, root: string): void {
  const get = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : (env[name] as string));
  const set = <T>(name: string, parse: (value: string, where: string) => T, apply: (value: T) => void) => {
    const value = get(name);
    if (value !== undefined) apply(parse(value, name));
  };
  set('WITNESS_MODEL', text, (v) => (config.model.name = v));
  set('OPENAI_BASE_URL', text, (v) => (config.model.baseURL = v));
  set(
    'WITNESS_TEMPERATURE',
    (v, w) => num(Number(v), w, 0, 2),
    (v) => (config.model.temperature = v),
  );
  set(
    'WITNESS_MODEL_SEED',
    (v, w) => int(Number(v), w, 0),
    (v) => (config.model.seed = v),
  );
  set(
    'WITNESS_MAX_TOKENS',
    (v, w) => int(Number(v), w, 1),
    (v) => (config.model.maxTokens = v),
  );
  set(
    'WITNESS_TIMEOUT_MS',
    (v, w) => int(Number(v), w, 1),
    (v) => (config.model.timeoutMs = v),
  );
  set(
    'WITNESS_MAX_RETRIES',
    (v, w) => int(Number(v), w, 0),
    (v) => (config.model.maxRetries = v),
  );
  set(
    'WITNESS_RETRY_BUDGET_MS',
    (v, w) => int(Number(v), w, 0),
    (v) => (config.model.retryBudgetMs = v),
  );
  set(
    'WITNESS_CONCURRENCY',
    (v, w) => int(Number(v), w, 1),
    (v) => (config.model.concurrency = v),
  );
  set('WITNESS_CACHE', cacheMode, (v) => (config.cache.mode = v));
  set('WITNESS_CACHE_PATH', text, (v) => (config.cache.path = resolve(root, v)));
  set(
    'WITNESS_SIM_SKILL',
    (v, w) => num(Number(v), w, 0, 1),
    (v) => (config.sim.skill = v),
  );
  set(
    'WITNESS_TURNS',
    (v, w) => int(Number(v), w, 1),
    (v) => (config.turns = v),
  );
  set(
    'WITNESS_SEED',
    (v, w) => int(Number(v), w, 0),
    (v) => (config.seed = v),
  );
  set('WITNESS_HARDENING', switchValue, (v) => (config.hardening.enabled = v));
  set('WITNESS_OUT', text, (v) => (config.outDir = resolve(root, v)));
  set('WITNESS_STORE', text, (v) => (config.storeDir = resolve(root, v)));
  set(
    'WITNESS_TRIALS',
    (v, w) => int(Number(v), w, 1),
    (v) => (config.trials = v),
  );
  set('WITNESS_BUDGET', budgetText, (v) => (config.budget = v));
  set('WITNESS_GATE_BASELINE', text, (v) => (config.gate.baseline = resolve(root, v)));
  set(
    'WITNESS_GATE_METRIC',
    (v, w) => oneOf(v, GATE_METRICS, w),
    (v) => (config.gate.metric = v),
  );
  set(
    'WITNESS_GATE_NOISE_BAND',
    (v, w) => num(Number(v), w, 0, 1),
    (v) => (config.gate.noiseBand = v),
  );
  set(
    'WITNESS_GATE_FLOOR',
    (v, w) => num(Number(v), w, 0, 1),
    (v) => (config.gate.floor = v),
  );
  set('WITNESS_RESUME', runId, (v) => (config.run.resume = v));
  set(
    'WITNESS_RERUN',
    (v, w) => oneOf(v, RERUN_MODES, w),
    (v) => (config.run.rerun = v),
  );
  set('WITNESS_RUN_ID', runId, (v) => (config.run.id = v));
  set('WITNESS_SPLIT', text, (v) => (config.run.split = v));
  set(
    'WITNESS_STRATEGIES',
    (v, w) => selectionValue(() => parseNameList(v, w)),
    (v) => (config.run.strategies = v),
  );
  set(
    'WITNESS_TASKS',
    (v, w) => taskIds(v, w, root),
    (v) => (config.run.tasks = v),
  );
  set(
    'WITNESS_EXCLUDE_TASKS',
    (v, w) => taskIds(v, w, root, true),
    (v) => (config.run.excludeTasks = v),
  );
  set('WITNESS_STRICT_DATA', switchValue, (v) => (config.run.strictData = v));
  set(
    'WITNESS_LIMIT',
    (v, w) => int(Number(v), w, 1),
    (v) => (config.run.limit = v),
  );
  applySectionsEnv(config, env, root);
  if (config.run.rerun && !config.run.resume)
    throw new ConfigError('WITNESS_RERUN: needs WITNESS_RESUME=<run id> (which run to redo episodes of)');
}

/** An on/off variable: 1, true, 0 or false. */
function switchValue(value: string, where: string): boolean {
  return bool(value === '1' || value === 'true' ? true : value === '0' || value === 'false' ? false : value, where);
}

function budgetText(value: string, where: string): Budget {
  try {
    return parseBudget(value, where);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

function runId(value: string, where: string): string {
  if (!/^[\w.-]+$/.test(value))
    throw new ConfigError(
      `${where}: a run id may only contain letters, digits, '.', '_' and '-', got ${JSON.stringify(value)}`,
    );
  return value;
}

function cacheMode(value: unknown, where: string): CacheMode {
  if (typeof value !== 'string' || !CACHE_MODES.includes(value as CacheMode)) {
    throw new ConfigError(`${where}: expected one of ${CACHE_MODES.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as CacheMode;
}

let processConfig: LoadedConfig | undefined;

/**
 * This process's configuration (working directory, process environment), read once. For the
 * defaults of components built without explicit settings; entry points load and pass their own.
 */
export function processLoadedConfig(): LoadedConfig {
  return (processConfig ??= loadConfig());
}
