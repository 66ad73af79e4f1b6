/**
 * Instance outcomes: what the gate compares, one per (benchmark, strategy, task, trial, model) —
 * projected from trajectories, or read from a compact baseline file (`witness.baseline`), which is
 * what a repository commits instead of a multi-megabyte results file.
 */
import { readFile } from 'node:fs/promises';
import type { GateMetric } from '../core/config.ts';
import { type HardeningStatus, OUTCOME_STATUSES, type OutcomeStatus, type Trajectory } from '../core/types.ts';
import type { Ledger } from './ledger.ts';
import { countsInRates, timeToSuccess } from './metrics.ts';
import { parseResults, RESULTS_SCHEMA, writeFileAtomic } from './results-file.ts';

export const BASELINE_SCHEMA = 'witness.baseline';
export const BASELINE_VERSION = 1;

export interface InstanceOutcome {
  benchmark: string;
  strategy: string;
  taskId: string;
  trial: number;
  model: string;
  runId: string;
  promptHash: string;
  status: OutcomeStatus;
  /** τ, null when unsolved (model errors count as unsolved). */
  solvedAtTurn: number | null;
  hardening: HardeningStatus | null;
}

export interface BaselineFile {
  schema: typeof BASELINE_SCHEMA;
  version: typeof BASELINE_VERSION;
  runId: string;
  createdAt: string;
  instances: InstanceOutcome[];
}

/** The gate's view of one trajectory. */
export function outcomeOf(t: Trajectory): InstanceOutcome {
  return {
    benchmark: t.benchmark,
    strategy: t.strategy,
    taskId: t.taskId,
    trial: t.trial,
    model: t.model.name,
    runId: t.runId,
    promptHash: t.promptHash,
    status: t.outcome.status,
    solvedAtTurn: timeToSuccess(t),
    hardening: t.outcome.hardening?.status ?? null,
  };
}

/** Whether an instance succeeded under a gate metric (never for harness errors or invalid data, which the gate excludes). */
export function succeeded(o: InstanceOutcome, metric: GateMetric): boolean {
  if (!countsInRates(o.status) || o.solvedAtTurn === null) return false;
  if (metric === 'pass1') return o.solvedAtTurn === 1;
  if (metric === 'passFinal') return true;
  return o.hardening === 'robust';
}

/** A baseline file for these trajectories, instances in a stable order. */
export function buildBaseline(trajectories: readonly Trajectory[], createdAt = new Date()): BaselineFile {
  const instances = trajectories.map(outcomeOf).sort((a, b) => compareKeys(instanceSortKey(a), instanceSortKey(b)));
  return {
    schema: BASELINE_SCHEMA,
    version: BASELINE_VERSION,
    runId: [...new Set(instances.map((i) => i.runId))].sort().join('+'),
    createdAt: createdAt.toISOString(),
    instances,
  };
}

function instanceSortKey(o: InstanceOutcome): (string | number)[] {
  return [o.benchmark, o.model, o.strategy, o.taskId, o.trial, o.runId];
}

function compareKeys(a: (string | number)[], b: (string | number)[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as string | number;
    const y = b[i] as string | number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Writes a baseline file atomically (one instance per line, so diffs stay readable). */
export async function writeBaselineFile(path: string, baseline: BaselineFile): Promise<void> {
  const { instances, ...head } = baseline;
  const lines = instances.map((i) => `    ${JSON.stringify(i)}`);
  const text = `${JSON.stringify(head, null, 2).replace(/\n}$/, ',\n  "instances": [\n')}${lines.join(',\n')}\n  ]\n}\n`;
  await writeFileAtomic(path, text);
}

const HARDENING: readonly (HardeningStatus | null)[] = ['hidden', 'hardened', 'robust', null];

function instanceProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const v = value as Record<string, unknown>;
  for (const field of ['benchmark', 'strategy', 'taskId', 'model', 'runId', 'promptHash'] as const) {
    if (typeof v[field] !== 'string') return `field "${field}" must be a string`;
  }
  if (!Number.isInteger(v.trial)) return 'field "trial" must be an integer';
  if (!OUTCOME_STATUSES.includes(v.status as OutcomeStatus))
    return `field "status" must be one of ${OUTCOME_STATUSES.join(', ')}`;
  if (v.solvedAtTurn !== null && !Number.isInteger(v.solvedAtTurn))
    return 'field "solvedAtTurn" must be an integer or null';
  if (!HARDENING.includes(v.hardening as HardeningStatus | null))
    return 'field "hardening" must be hidden, hardened, robust or null';
  return null;
}

/** What the gate reads from a file: the run id(s), the instance outcomes, and the ledger of planned episodes when the file has one. */
export interface GateInput {
  path: string;
  runId: string;
  instances: InstanceOutcome[];
  ledger?: Ledger;
}

/** Checks a parsed results file or baseline file; throws an Error naming `path` and the first problem. */
export function parseGateInput(value: unknown, path: string): GateInput {
  const schema = (value as { schema?: unknown } | null)?.schema;
  if (schema === RESULTS_SCHEMA) {
    const results = parseResults(value, path);
    return {
      path,
      runId: results.runId,
      instances: results.trajectories.map(outcomeOf),
      ...(results.ledger ? { ledger: results.ledger } : {}),
    };
  }
  const fail = (problem: string): never => {
    throw new Error(`${path}: not a Witness results or baseline file: ${problem}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('the top level is not an object');
  const v = value as Record<string, unknown>;
  if (v.schema !== BASELINE_SCHEMA)
    fail(`schema is ${JSON.stringify(v.schema)}, expected "${RESULTS_SCHEMA}" or "${BASELINE_SCHEMA}"`);
  if (v.version !== BASELINE_VERSION)
    fail(`version is ${JSON.stringify(v.version)}, this reader understands version ${BASELINE_VERSION}`);
  if (typeof v.runId !== 'string') fail('field "runId" must be a string');
  if (!Array.isArray(v.instances)) return fail('field "instances" must be an array');
  v.instances.forEach((item: unknown, i: number) => {
    const problem = instanceProblem(item);
    if (problem) fail(`instances[${i}]: ${problem}`);
  });
  return { path, runId: v.runId as string, instances: v.instances as InstanceOutcome[] };
}

/** Reads a results or baseline file for the gate; every error names the file. */
export async function readGateInput(path: string): Promise<GateInput> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`${path}: cannot read: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: not valid JSON: ${(error as Error).message}`);
  }
  return parseGateInput(parsed, path);
}
