/**
 * The records of a Meta-Harness store (proposal.json, validation.json, scores.json, evolution rows,
 * frontier.json, the held-out results) and their typed checks on read: a file that does not match
 * gets an error naming the file and the field, never a half-read value.
 */
import type { JsonObject } from '../../core/types.ts';
import type { FrontierCandidate } from './frontier.ts';

/** Why and from what a candidate was written. */
export interface ProposalRecord {
  id: string;
  /** 0 for the seed harnesses, then 1, 2, … */
  iteration: number;
  /** The candidate it was copied from, or null for a seed. */
  parent: string | null;
  hypothesis: string;
  /** The one mechanism changed (prompt rule, verification, retrieval, budget, memory, …). */
  mechanism: string;
  /** Who wrote it: seed, agent, external, sim. */
  proposer: string;
}

export interface ValidationCheck {
  name: string;
  ok: boolean;
  message?: string;
}

/** The outcome of validating a candidate before evaluation. */
export interface ValidationRecord {
  ok: boolean;
  checks: ValidationCheck[];
}

/** One search episode of a candidate. */
export interface TaskScore {
  taskId: string;
  trial: number;
  pass: boolean;
  tokens: number;
  calls: number;
  timeMs: number;
  /** Set when the harness failed on this task (stopped, crashed, over budget), with the reason. */
  error?: string;
}

/** A candidate's evaluation on the search pool: per task and overall. */
export interface ScoresRecord {
  passAtFinal: number;
  meanTokens: number;
  meanCalls: number;
  meanTimeMs: number;
  tasks: TaskScore[];
}

/** One row of evolution.jsonl: one evaluated (or invalid) candidate. */
export interface EvolutionRow {
  iteration: number;
  id: string;
  parent: string | null;
  hypothesis: string;
  mechanism: string;
  /** 'evaluated', 'invalid: …', 'failed: …'. */
  outcome: string;
  passAtFinal: number | null;
  meanTokens: number | null;
  /** Pass@final minus the best before this candidate, or null. */
  deltaVsBest: number | null;
  onFrontier: boolean;
}

export interface FrontierRecord {
  iteration: number;
  /** Best first (see frontier.ts). */
  members: FrontierCandidate[];
}

/** Held-out test results, written after the search, outside the proposer's view. */
export interface HeldOutRecord {
  results: { id: string; scores: ScoresRecord }[];
  /** Paired statistics against the seed (the gate's), as the search computed them. */
  comparison?: JsonObject;
}

/** A store file that does not hold what it should. */
export class StoreRecordError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'StoreRecordError';
  }
}

type Check<T> = (value: unknown, at: string) => T;

const fail = (at: string, expected: string, value: unknown): never => {
  throw new Error(`${at || 'the top level'} must be ${expected}, got ${JSON.stringify(value) ?? String(value)}`);
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const field = (at: string, key: string) => (at ? `${at}.${key}` : key);

const str: Check<string> = (v, at) => (typeof v === 'string' ? v : fail(at, 'a string', v));
const bool: Check<boolean> = (v, at) => (typeof v === 'boolean' ? v : fail(at, 'a boolean', v));
const count: Check<number> = (v, at) =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : fail(at, 'an integer ≥ 0', v);
const amount: Check<number> = (v, at) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fail(at, 'a number ≥ 0', v);
const share: Check<number> = (v, at) =>
  typeof v === 'number' && v >= 0 && v <= 1 ? v : fail(at, 'a number between 0 and 1', v);
const real: Check<number> = (v, at) => (typeof v === 'number' && Number.isFinite(v) ? v : fail(at, 'a number', v));
const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (v, at) =>
    v === null ? null : check(v, at);
const list =
  <T>(check: Check<T>): Check<T[]> =>
  (v, at) =>
    Array.isArray(v) ? v.map((x, i) => check(x, `${at}[${i}]`)) : fail(at, 'a list', v);

/** Checks an object's fields; optional fields (listed in `optional`) may be absent. */
function record<T>(shape: { [K in keyof T]-?: Check<T[K]> }, optional: readonly (keyof T)[] = []): Check<T> {
  return (v, at) => {
    if (!isObject(v)) return fail(at, 'an object', v);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(shape) as (keyof T & string)[]) {
      if (v[key] === undefined && optional.includes(key)) continue;
      out[key] = shape[key](v[key], field(at, key));
    }
    return out as T;
  };
}

const jsonObject: Check<JsonObject> = (v, at) => (isObject(v) ? (v as JsonObject) : fail(at, 'an object', v));

export const checkProposal: Check<ProposalRecord> = record<ProposalRecord>({
  id: str,
  iteration: count,
  parent: nullable(str),
  hypothesis: str,
  mechanism: str,
  proposer: str,
});

export const checkValidation: Check<ValidationRecord> = record<ValidationRecord>({
  ok: bool,
  checks: list(record<ValidationCheck>({ name: str, ok: bool, message: str }, ['message'])),
});

const checkTaskScore = record<TaskScore>(
  { taskId: str, trial: count, pass: bool, tokens: amount, calls: count, timeMs: amount, error: str },
  ['error'],
);

export const checkScores: Check<ScoresRecord> = record<ScoresRecord>({
  passAtFinal: share,
  meanTokens: amount,
  meanCalls: amount,
  meanTimeMs: amount,
  tasks: list(checkTaskScore),
});

export const checkEvolutionRow: Check<EvolutionRow> = record<EvolutionRow>({
  iteration: count,
  id: str,
  parent: nullable(str),
  hypothesis: str,
  mechanism: str,
  outcome: str,
  passAtFinal: nullable(share),
  meanTokens: nullable(amount),
  deltaVsBest: nullable(real),
  onFrontier: bool,
});

export const checkFrontier: Check<FrontierRecord> = record<FrontierRecord>({
  iteration: count,
  members: list(record<FrontierCandidate>({ id: str, passAtFinal: share, meanTokens: amount })),
});

export const checkHeldOut: Check<HeldOutRecord> = record<HeldOutRecord>(
  {
    results: list(record<{ id: string; scores: ScoresRecord }>({ id: str, scores: checkScores })),
    comparison: jsonObject,
  },
  ['comparison'],
);

/** Runs a check on parsed content, turning its complaint into a StoreRecordError naming `file`. */
export function checked<T>(file: string, check: Check<T>, value: unknown): T {
  try {
    return check(value, '');
  } catch (error) {
    throw new StoreRecordError(file, (error as Error).message);
  }
}
