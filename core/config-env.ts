/**
 * The environment variables of the configuration, as one table in the order they apply (the
 * environment wins over the file), and the function that applies them. A variable's value is
 * checked by its key's schema (core/config-schema.ts); relative paths resolve against the project root.
 */
import { z } from 'zod';
import { parseBudget } from './budget.ts';
import { SECTIONS_ENV } from './config-sections.ts';
import { configFileSchema } from './config-schema.ts';
import { ConfigError, envOnly, type EnvSetting, fromThrowing, oneOf, parseSetting, text } from './config-values.ts';
import { RERUN_MODES } from './resume.ts';

const runId = z.string().regex(/^[\w.-]+$/, {
  error: (issue) => `a run id may only contain letters, digits, '.', '_' and '-', got ${JSON.stringify(issue.input)}`,
});

const budget = z.string().transform((value, context) => fromThrowing((where) => parseBudget(value, where), context));

/** Every variable that sets a key, in the order they apply. */
export const ENV_SETTINGS: readonly EnvSetting[] = [
  { name: 'WITNESS_MODEL', key: 'model.name', read: 'string' },
  { name: 'OPENAI_BASE_URL', key: 'model.baseURL', read: 'string' },
  { name: 'WITNESS_TEMPERATURE', key: 'model.temperature', read: 'number' },
  { name: 'WITNESS_MODEL_SEED', key: 'model.seed', read: 'number' },
  { name: 'WITNESS_MAX_TOKENS', key: 'model.maxTokens', read: 'number' },
  { name: 'WITNESS_TIMEOUT_MS', key: 'model.timeoutMs', read: 'number' },
  { name: 'WITNESS_MAX_RETRIES', key: 'model.maxRetries', read: 'number' },
  { name: 'WITNESS_RETRY_BUDGET_MS', key: 'model.retryBudgetMs', read: 'number' },
  { name: 'WITNESS_CONCURRENCY', key: 'model.concurrency', read: 'number' },
  { name: 'WITNESS_CACHE', key: 'cache.mode', read: 'string' },
  { name: 'WITNESS_CACHE_PATH', key: 'cache.path', read: 'string' },
  { name: 'WITNESS_SIM_SKILL', key: 'sim.skill', read: 'number' },
  { name: 'WITNESS_TURNS', key: 'turns', read: 'number' },
  { name: 'WITNESS_SEED', key: 'seed', read: 'number' },
  { name: 'WITNESS_HARDENING', key: 'hardening.enabled', read: 'switch' },
  { name: 'WITNESS_OUT', key: 'outDir', read: 'string' },
  { name: 'WITNESS_STORE', key: 'storeDir', read: 'string' },
  { name: 'WITNESS_TRIALS', key: 'trials', read: 'number' },
  envOnly('WITNESS_BUDGET', 'budget', budget, 'run-wide spending limit: tokens (`120k`, `1.5M`) or USD (`$2.50`)'),
  { name: 'WITNESS_GATE_BASELINE', key: 'gate.baseline', read: 'string' },
  { name: 'WITNESS_GATE_METRIC', key: 'gate.metric', read: 'string' },
  { name: 'WITNESS_GATE_NOISE_BAND', key: 'gate.noiseBand', read: 'number' },
  { name: 'WITNESS_GATE_FLOOR', key: 'gate.floor', read: 'number' },
  envOnly('WITNESS_RESUME', 'run.resume', runId, 'run id to resume: its finished episodes are reused (`--resume`)'),
  envOnly('WITNESS_RERUN', 'run.rerun', oneOf(RERUN_MODES), 'with a resume: redo the episodes that errored or failed'),
  envOnly('WITNESS_RUN_ID', 'run.id', runId, 'name of this run in the store; unset: a timestamp, one per vitest run'),
  envOnly(
    'WITNESS_SPLIT',
    'run.split',
    text(),
    "the data split the suites run on (`--split`); unset: each suite's default",
  ),
  { name: 'WITNESS_STRATEGIES', key: 'run.strategies', read: 'string' },
  { name: 'WITNESS_TASKS', key: 'run.tasks', read: 'string' },
  { name: 'WITNESS_EXCLUDE_TASKS', key: 'run.excludeTasks', read: 'string' },
  { name: 'WITNESS_STRICT_DATA', key: 'run.strictData', read: 'switch' },
  { name: 'WITNESS_LIMIT', key: 'run.limit', read: 'number' },
  ...SECTIONS_ENV,
];

type Env = Record<string, string | undefined>;
type Settings = Record<string, unknown>;

/** Applies the environment to `config`; relative paths resolve against `root`. */
export function applyEnv(config: object, env: Env, root: string): void {
  const fileSchema = configFileSchema(root);
  for (const setting of ENV_SETTINGS) {
    const value = env[setting.name];
    if (value === undefined || value === '') continue;
    if (setting.fallback && valueAt(config, setting.key) !== undefined) continue;
    const parsed = readVariable(setting, value, () => setting.schema ?? keySchema(fileSchema, setting.key));
    if (parsed !== undefined) setAt(config, setting.key, parsed);
  }
  const run = (config as { run: { rerun?: string; resume?: string } }).run;
  if (run.rerun && !run.resume)
    throw new ConfigError('WITNESS_RERUN: needs WITNESS_RESUME=<run id> (which run to redo episodes of)');
}

function readVariable(setting: EnvSetting, value: string, schema: () => z.ZodType): unknown {
  const { name, read } = setting;
  if (typeof read === 'function') return read(value, name);
  if (read === 'trimmed') return value.trim() || undefined;
  if (read === 'raw') return value;
  const input = read === 'number' ? Number(value) : read === 'switch' ? switchValue(value) : value;
  return parseSetting(schema(), input, () => name);
}

/** An on/off variable: 1, true, 0 or false (anything else stays text, for the schema to name). */
function switchValue(value: string): boolean | string {
  return value === '1' || value === 'true' ? true : value === '0' || value === 'false' ? false : value;
}

/** The schema of one key of the file, e.g. `suites.bird.vesIterations`. */
export function keySchema(fileSchema: z.ZodType, key: string): z.ZodType {
  let schema: z.ZodType = fileSchema;
  for (const part of key.split('.')) {
    const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
    const next = inner instanceof z.ZodObject ? (inner.shape as Record<string, z.ZodType>)[part] : undefined;
    if (!next) throw new Error(`config: no key ${key} in the file schema`);
    schema = next;
  }
  return schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
}

/** The value at a key path such as `suites.bird.data`, or undefined. */
export function valueAt(target: object, key: string): unknown {
  return key.split('.').reduce<unknown>((o, part) => (o as Settings | undefined)?.[part], target);
}

function setAt(target: object, key: string, value: unknown): void {
  const parts = key.split('.');
  const last = parts.pop() as string;
  const parent = parts.reduce((o, part) => o[part] as Settings, target as Settings);
  parent[last] = value;
}
