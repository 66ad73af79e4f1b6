/**
 * The schema of `witness.config.json`: every key, its kind and what it means. Relative paths
 * resolve against `base` (the file's folder); the same schema checks each environment variable's
 * value (core/config-env.ts) and produces the JSON Schema and the docs' reference table
 * (core/config-reference.ts).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { sectionsFileShape } from './config-sections.ts';
import { bool, fromThrowing, int, num, oneOf, path, positive, section, text } from './config-values.ts';
import { CACHE_MODES } from './models/cache.ts';
import { parseIdLines, parseNameList } from './selection.ts';

export type GateMetric = 'pass1' | 'passFinal' | 'robust';
export const GATE_METRICS: readonly GateMetric[] = ['pass1', 'passFinal', 'robust'];

const usd = () => num(0, 1e6);

const price = z
  .strictObject(
    { input: usd().optional(), output: usd().optional() },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? 'unknown setting (known: input, output)'
          : 'expected { "input": USD per million tokens, "output": USD per million tokens }',
    },
  )
  .refine((p) => p.input !== undefined && p.output !== undefined, {
    message: 'expected both "input" and "output" (USD per million tokens)',
  })
  .transform((p) => ({ input: p.input as number, output: p.output as number }))
  .meta({ required: ['input', 'output'] });

/** A non-empty JSON array of strings, or one string. */
const listOrString = () => z.union([z.array(text()).min(1, 'expected a non-empty list'), text()]);

/** A list of names: a JSON array of strings (repeats dropped) or a comma-separated string. */
const names = () =>
  listOrString().transform((value, context) =>
    Array.isArray(value) ? [...new Set(value)] : fromThrowing((where) => parseNameList(value, where), context),
  );

/** Task ids: a list, a comma list, or `@file` with one id per line (relative to `base`; an empty file only when `allowEmpty`). */
const taskIds = (base: string, allowEmpty = false) =>
  listOrString().transform((value, context) => {
    if (Array.isArray(value)) return [...new Set(value)];
    if (!value.startsWith('@')) return fromThrowing((where) => parseNameList(value, where), context);
    const file = resolve(base, value.slice(1));
    let content: string;
    try {
      content = readFileSync(file, 'utf8');
    } catch (error) {
      context.addIssue({ code: 'custom', message: `cannot read the task list ${file}: ${(error as Error).message}` });
      return z.NEVER;
    }
    return fromThrowing((where) => parseIdLines(content, `${where}: ${file}`, allowEmpty), context);
  });

const STRATEGY_LIST = 'expected a non-empty list of strategy names';

const schemas = new Map<string, ReturnType<typeof buildSchema>>();

/** The whole file; `base` is the folder relative paths resolve against. Built once per folder (a build takes milliseconds). */
export function configFileSchema(base: string): ReturnType<typeof buildSchema> {
  let schema = schemas.get(base);
  if (!schema) schemas.set(base, (schema = buildSchema(base)));
  return schema;
}

function buildSchema(base: string) {
  return section({
    $schema: z.string().describe('the JSON Schema of this file (editors read it; Witness ignores it)'),
    model: section({
      name: text().describe('model name at the endpoint, or `sim`, or `sim-steerable`'),
      baseURL: text().describe('the endpoint base URL (…/v1); unset: OpenAI'),
      apiKeyEnv: text().describe('*name* of the variable holding the API key (the key never enters the config)'),
      temperature: num(0, 2).describe('sampling temperature'),
      seed: int(0).describe('sampling seed sent to the endpoint'),
      maxTokens: int(1).describe('completion token cap'),
      timeoutMs: int(1).describe('per-attempt request timeout in ms'),
      maxRetries: int(0).describe('retries of a failed call at most (transient failures only); 0 = one attempt'),
      retryBudgetMs: int(0).describe(
        'no retry starts once a call has run this long (ms), attempts and backoff included',
      ),
      concurrency: int(1).describe('requests in flight per suite file'),
    }).describe('the model and its endpoint'),
    cache: section({
      mode: oneOf(CACHE_MODES).describe('how the response cache is used'),
      path: path(base).describe('the response cache file'),
    }).describe('the response cache'),
    sim: section({
      skill: num(0, 1).describe('the sim: chance a task is solved at once'),
      maxMutations: int(1).describe('the sim: mutations of the gold at most'),
      neighbourhood: int(0).describe('the sim: size of the neighbourhood of mutations'),
      mistakeRate: num(0, 1).describe("the steerable sim (`sim-steerable`): a class's mistake rate"),
      ruleFactor: num(0, 1).describe('the steerable sim: the factor a rule in the prompt applies to a mistake rate'),
      harmFactor: num(1, 1000).describe('the steerable sim: the factor a harmful rule applies to a mistake rate'),
      repairRate: num(0, 1).describe(
        'the steerable sim: the chance an execution error shown in the conversation is repaired',
      ),
    }).describe('the offline sim models'),
    turns: int(1).describe('solve-phase turn budget'),
    seed: int(0).describe('run seed'),
    hardening: section({
      enabled: bool().describe('hardening after a success'),
      maxCycles: int(0).describe('hardening cycles at most'),
      maxProbes: int(1).describe('probes per cycle at most'),
      maxAdded: int(1).describe('counterexamples added per cycle at most'),
    }).describe('hardening probes after a success'),
    outDir: path(base).describe('where the reporter writes and `witness report` reads'),
    storeDir: path(base).describe('the run store'),
    trials: int(1).describe('repeats per (task, strategy) when a suite does not set its own'),
    prices: z
      .record(z.string(), price, { error: 'expected an object' })
      .describe('USD per million tokens by model name: `{ "input": …, "output": … }`'),
    budget: section({
      tokens: int(1).describe('run-wide token limit'),
      usd: positive().describe('run-wide spending limit in USD'),
    }).describe('run-wide spending limit'),
    gate: section({
      baseline: path(base).describe(
        'results or baseline file the reporter gates against; unset: no gate in the reporter',
      ),
      metric: oneOf(GATE_METRICS).describe('per-instance success the gate compares'),
      noiseBand: num(0, 1).describe('a drop of the metric up to this much (absolute share) is noise'),
      alpha: num(0, 0.5).describe('significance of the one-sided exact sign test on tasks that changed'),
      floor: num(0, 1).describe('the candidate fails when its metric is below this share, whatever the baseline'),
      by: oneOf(['benchmark', 'strategy'] as const).describe(
        'one comparison per benchmark, or per (benchmark, strategy)',
      ),
      strategies: z
        .array(text(), { error: STRATEGY_LIST })
        .min(1, STRATEGY_LIST)
        .describe('only these strategies take part; unset: all'),
    }).describe("the regression gate's policy"),
    ...sectionsFileShape(base),
    run: section({
      strategies: names().describe(
        'only these strategies of each suite (a list, or `"a,b"`; `witness bench --strategies`)',
      ),
      tasks: taskIds(base).describe(
        'only these task ids (a list, `"a,b"`, or `"@file"` with one id per line, relative to the config file; `witness bench --tasks`)',
      ),
      excludeTasks: taskIds(base, true).describe(
        'task ids (or unreadable items) to leave out, before the sample (a list, `"a,b"`, or `"@file"`: an empty file excludes nothing; `witness data check --write-invalid` writes one)',
      ),
      limit: int(1).describe('a sample of this many tasks per suite, drawn with `seed` (`witness bench --limit`)'),
      strictData: bool().describe(
        'invalid data fails its test and the run like a harness error, instead of being listed and left out of the rates',
      ),
    }).describe('what a run selects'),
  });
}
