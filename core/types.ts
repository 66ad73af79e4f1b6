/**
 * The contracts every part of Witness speaks: tasks, candidates, verdicts, feedback, turns and
 * trajectories. Everything here is JSON-safe (it travels through vitest's task meta, the blob
 * reporter and the run store) and versioned by TRAJECTORY_SCHEMA_VERSION.
 */

import type { TokenizerName } from './tokenizers.ts';

export const TRAJECTORY_SCHEMA = 'witness.trajectory';
export const TRAJECTORY_SCHEMA_VERSION = 1;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** One benchmark item. `gold` is the reference program; only oracles and the sim model read it. */
export interface Task {
  /** Stable and unique within its benchmark (e.g. the line number or question id). */
  id: string;
  benchmark: string;
  /** The natural-language statement the model sees. */
  description: string;
  gold: string;
  /** Oracle-specific inputs (dialect, database id, schema text, …). */
  context?: JsonObject;
  /** Provenance: source file, line, difficulty, … */
  meta?: JsonObject;
}

/** A dataset item that could not be turned into a task, with the reason. */
export interface TaskIssue {
  /** Names the item: file and line, or question id. */
  item: string;
  message: string;
  /**
   * Whose fault it is: `invalid-data` (the default) when the dataset makes the item unposable, a
   * `harness-error` when Witness could not provide what the item needs (an engine that would not start).
   */
  kind?: 'invalid-data' | 'harness-error';
}

/** What a dataset loader returns: the tasks, and the items it could not read (never dropped silently). */
export interface LoadedTasks {
  tasks: Task[];
  issues: TaskIssue[];
}

/** What a strategy may see of a task: everything but the gold program. */
export type PublicTask = Omit<Task, 'gold'>;

/** The program extracted from a model reply. */
export interface Candidate {
  source: string;
  /** How it was found: a fenced block, the whole reply, or a `/…/flags` literal. */
  extraction: 'code-block' | 'whole-reply' | 'literal';
}

/**
 * Why a candidate failed without a judgement on its output. Every kind is a model failure, counted in
 * the score: `too-complex` = no engine can run the answer (a regex V8 or the automaton budget cannot
 * take, a program or query text beyond the engine's limits); `too-large` = it ran but its result or
 * output exceeded the oracle's byte or row caps. Broken datasets and our own bugs are never verdicts.
 */
export type ErrorKind = 'syntax' | 'runtime' | 'timeout' | 'unsafe' | 'no-artifact' | 'too-complex' | 'too-large';
export const ERROR_KINDS: readonly ErrorKind[] = [
  'syntax',
  'runtime',
  'timeout',
  'unsafe',
  'no-artifact',
  'too-complex',
  'too-large',
];

export interface CaseResult {
  /** Stable id of a test case (a hidden test, a probe database, a seeded input, a test method). */
  id: string;
  pass: boolean;
}

/**
 * A concrete counterexample. `kind` is oracle-defined (regex: `false-negative` / `false-positive`;
 * SQL: `missing-row` / `extra-row`; Python: `failing-input`), `label` is the human wording
 * ("too narrow"), `size` orders witnesses shortest first.
 */
export interface Witness {
  kind: string;
  label: string;
  input: Json;
  expected?: Json;
  actual?: Json;
  size: number;
  caseId?: string;
}

export interface VerdictError {
  kind: ErrorKind;
  /** The engine's own message (regex parser, SQLite, Neo4j, Python traceback). */
  message: string;
}

/** The one currency between oracles and strategies. */
export interface Verdict {
  pass: boolean;
  /** Per-case results over the task's stable case list (same ids, same order, every turn). */
  cases: CaseResult[];
  /** Counterexamples, already ordered shortest first within each kind. */
  witnesses: Witness[];
  error?: VerdictError;
  timings: { totalMs: number } & Record<string, number>;
  /** Oracle-specific facts, e.g. `{ equivalent: false, counterexample: … }`. */
  detail?: JsonObject;
}

/** Exactly what a feedback message tells the model, in structured form. */
export interface Disclosure {
  witnesses: Witness[];
  failing?: { failed: number; total: number };
  error?: VerdictError;
  /** True when the feedback only says "wrong" and nothing more. */
  bare?: boolean;
}

export interface Feedback {
  text: string;
  disclosed: Disclosure;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** True when counted by the harness (sim, or an endpoint that reports no usage). */
  estimated?: boolean;
}

/**
 * A model call made for a turn besides the turn's own answer — a HERO refiner, judge or reflector
 * call, a cheatsheet curator's — accounted apart from the solving calls.
 */
export interface AuxiliaryCall {
  /** What the call was for: its `ChatRequest.purpose` (refine, judge, reflect, memory; never solve). */
  purpose: string;
  /** The model that answered; its price is looked up by this name. */
  model: string;
  usage: Usage;
  latencyMs: number;
  cached: boolean;
}

/** A model's price in USD per million tokens. */
export interface Price {
  input: number;
  output: number;
}

export type TurnPhase = 'solve' | 'hardening';

export interface Turn {
  /** 1-based over the whole trajectory (hardening turns continue the count). */
  index: number;
  phase: TurnPhase;
  /** Messages added to the conversation for this turn (the full conversation is the concatenation). */
  messages: ChatMessage[];
  /** Raw model reply; null when the model call failed. */
  reply: string | null;
  candidate: Candidate | null;
  verdict: Verdict;
  /** Rendered after the verdict when another turn follows. */
  feedback?: Feedback;
  usage: Usage;
  latencyMs: number;
  cached: boolean;
  /** Set when the model call itself failed (after the client's retries). */
  modelError?: string;
  /** Auxiliary calls made for this turn; their tokens are in neither `usage` nor `Trajectory.tokens`. */
  calls?: AuxiliaryCall[];
}

export type HardeningStatus = 'hidden' | 'hardened' | 'robust';

export interface HardeningRecord {
  /** hidden = passed the hidden cases only; hardened = also the probe-expanded set; robust = hardened and the final probe pass was clean. */
  status: HardeningStatus;
  cycles: number;
  probesRun: number;
  probesAdded: number;
  repairs: number;
  /** Final probe pass found no disagreement. */
  sampledClean: boolean;
  /** Exact equivalence with the gold when decidable (regex DFA), else null. */
  exact: boolean | null;
  /** The witnesses the probes added to the case set. */
  added: Witness[];
}

/**
 * How an episode ended. `harness-error` is Witness's own fault (a bug, an engine or a limit of its
 * own); `invalid-data` is an item the dataset makes unposable (unreadable, a gold that denotes
 * nothing or fails on its own database). Both are excluded from every rate and counted apart.
 */
export type OutcomeStatus = 'solved' | 'unsolved' | 'model-error' | 'harness-error' | 'invalid-data';
export const OUTCOME_STATUSES: readonly OutcomeStatus[] = [
  'solved',
  'unsolved',
  'model-error',
  'harness-error',
  'invalid-data',
];

export interface Outcome {
  status: OutcomeStatus;
  /** τ: the first solve-phase turn whose verdict passed, or null. */
  solvedAtTurn: number | null;
  hardening?: HardeningRecord;
  /** Why the episode did not run: the harness error, or what makes the item invalid data; never a model failure. */
  error?: string;
}

export interface ModelInfo {
  name: string;
  endpoint?: string;
  /** The sim model knows the gold; every report says so. */
  privileged: boolean;
  temperature?: number;
  seed?: number;
}

/** The oracle as a trajectory records it. */
export interface OracleInfo {
  name: string;
  settings: JsonObject;
  /** The tokenizer structural stability uses for its programs; absent in files written before it was recorded. */
  tokenizer?: TokenizerName;
}

/** The one serialized artifact: everything the reporter, leaderboards and gates read. */
export interface Trajectory {
  schema: typeof TRAJECTORY_SCHEMA;
  version: typeof TRAJECTORY_SCHEMA_VERSION;
  runId: string;
  benchmark: string;
  taskId: string;
  strategy: string;
  model: ModelInfo;
  trial: number;
  seed: number;
  /** sha256 of the seed prompt template the run used (first 16 hex digits). */
  promptHash: string;
  promptFile?: string;
  oracle: OracleInfo;
  /** Solve-phase turn budget. */
  budget: number;
  /** Stable list of case ids for fix/break counting. */
  caseIds: string[];
  turns: Turn[];
  outcome: Outcome;
  /** Tokens of the solving calls; auxiliary calls (refiner, judge, reflector, …) are in `turns[].calls`. */
  tokens: { prompt: number; completion: number; total: number; estimated: boolean };
  cache: { hits: number; misses: number };
  /** Prices in force for the models this episode called, by model name; absent when none was configured. */
  pricing?: Record<string, Price>;
  /** Test-time refinement strategies (HERO-T, ReAct, Dynamic Cheatsheet): what the refiner did, step by step. */
  refinement?: { log: JsonObject[] };
  startedAt: string;
  durationMs: number;
}
