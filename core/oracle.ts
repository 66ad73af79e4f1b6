/**
 * The face every oracle shows the loop: prepare a task (hidden cases, gold results), extract and
 * check a candidate, render witnesses; and the capabilities an oracle may offer besides — mutating
 * programs for the sim model, probing apparent successes for hardening, observing for HERO-T. A
 * user's own oracle need only be an `OracleDefinition`: a name and a check.
 */
import type { Rng } from './random.ts';
import type { SteeringCatalog } from './steering.ts';
import type { TokenizerName } from './tokenizers.ts';
import type { Candidate, ErrorKind, JsonObject, PublicTask, Task, Verdict, VerdictError, Witness } from './types.ts';

/** A task after the oracle has done its one-time work (generated cases, gold results). */
export interface PreparedTask {
  task: Task;
  /** Stable case ids, the same list in every verdict for this task. */
  caseIds: string[];
}

/** Turns verdict contents into text. Strategies decide how much of it the model gets to see. */
export interface FeedbackRenderer {
  /** One witness as a short line, e.g. `"dogdog" should match but does not (too narrow)`. */
  witness(witness: Witness): string;
  /** The error-only summary: how many cases fail, no examples. */
  failureSummary(verdict: Verdict): string;
  /** An execution error with the engine's message. */
  error(error: VerdictError): string;
  /** Closing instruction of every feedback message, e.g. how to format the corrected answer. */
  readonly retry: string;
}

export interface ProbeReport {
  probed: number;
  /** Inputs on which candidate and gold disagree, as witnesses labelled by the gold. */
  disagreements: Witness[];
}

export interface ProbeOptions {
  rng: Rng;
  maxProbes: number;
  /** 1-based hardening cycle, or 0 for the final probe pass. */
  round: number;
}

/** Hardening support: probes beyond the hidden cases (fast-check and oracle-specific pools). */
export interface Hardener<P extends PreparedTask> {
  probe(prepared: P, candidate: Candidate, options: ProbeOptions): Promise<ProbeReport>;
  /** The same task with the given disagreements added to its case list. */
  extend(prepared: P, witnesses: Witness[]): P;
  /**
   * Exact equivalence with the gold: true / false when decided (e.g. minimal DFAs); null when this
   * oracle cannot decide it for such programs (the final probe pass then decides robustness);
   * 'undecided' when it normally decides but could not here (budgets, non-regular regexes) — such a
   * solution is never robust.
   */
  exact?(prepared: P, candidate: Candidate): Promise<boolean | null | 'undecided'>;
}

/** What running a program showed, without saying whether it is right (HERO-T may see this, never a verdict). */
export interface Observation {
  /** Ran to completion without an error. */
  ok: boolean;
  error?: VerdictError;
  /** What the run produced, rendered and truncated (rows, output values, matches). */
  output: string;
  /** Result shape when it has one (rows × columns, number of outputs). */
  shape?: { rows?: number; columns?: number };
}

/**
 * Execution without judgement, for test-time refinement (HERO-T): run a candidate on the task's
 * visible environment and describe that environment. Never uses hidden cases, the gold program or
 * gold results.
 */
export interface Observer<P extends PreparedTask> {
  observe(prepared: P, candidate: Candidate): Promise<Observation>;
  /** The environment as text: schema, sample rows, graph labels, library versions, … */
  describe(prepared: P): Promise<string>;
}

/** Sim support: the privileged operations the offline `sim` model is built from. Never given to a strategy. */
export interface Simulator<P extends PreparedTask> {
  /** One random mutation of a program written in the gold's notation, or null if none applies. */
  mutate(prepared: P, program: string, rng: Rng): string | null;
  /** The reply a model would give for a program written in the gold's notation. */
  answer(prepared: P, program: string): string;
  /** Does this candidate behave on the witness's input as the witness says the gold does? */
  agrees(prepared: P, candidate: Candidate, witness: Witness): Promise<boolean>;
  /** Steerable-sim support (optional): the named mistake classes and the rules that address them. */
  readonly steering?: SteeringCatalog;
  /** One mutation of the named class (a mistake of that kind), or null when the class has no site in the program. */
  mutateOfClass?(prepared: P, program: string, cls: string, rng: Rng): string | null;
}

/** A simulator bound to one episode's prepared task: what the sim model receives, once per episode. */
export interface EpisodeSimulator {
  /** The gold program: this is what makes the sim privileged. */
  readonly gold: string;
  mutate(program: string, rng: Rng): string | null;
  answer(program: string): string;
  extract(reply: string): Candidate | null;
  agrees(candidate: Candidate, witness: Witness): Promise<boolean>;
  readonly steering?: SteeringCatalog;
  mutateOfClass?(program: string, cls: string, rng: Rng): string | null;
  /** The oracle's observer on this task, when it has one: the steerable sim checks that a conversation shows what it saw. */
  observe?(candidate: Candidate): Promise<Observation>;
}

/**
 * The episode's simulator for a privileged model (the sim), bound once; undefined for every other
 * model, so a real model's request never carries the gold. An oracle without a simulator cannot
 * be answered by the sim: that is said once, naming both.
 */
export function episodeSimulator<P extends PreparedTask>(
  model: { info: { name: string; privileged: boolean } },
  oracle: Oracle<P>,
  prepared: P,
): EpisodeSimulator | undefined {
  if (!model.info.privileged) return undefined;
  if (!oracle.simulator)
    throw new Error(
      `the ${model.info.name} model answers from the gold through the oracle's simulator, and oracle ${oracle.name} offers none: use a real model`,
    );
  return bindSimulator(oracle as SimulatedOracle<P>, prepared);
}

/** Binds an oracle's simulator to one prepared task. */
export function bindSimulator<P extends PreparedTask>(oracle: SimulatedOracle<P>, prepared: P): EpisodeSimulator {
  const { simulator, observer } = oracle;
  const bound: EpisodeSimulator = {
    gold: prepared.task.gold,
    mutate: (program, rng) => simulator.mutate(prepared, program, rng),
    answer: (program) => simulator.answer(prepared, program),
    extract: (reply) => oracle.extract(reply),
    agrees: (candidate, witness) => simulator.agrees(prepared, candidate, witness),
    ...(simulator.steering ? { steering: simulator.steering } : {}),
    ...(observer ? { observe: (candidate: Candidate) => observer.observe(prepared, candidate) } : {}),
  };
  const ofClass = simulator.mutateOfClass;
  if (ofClass) bound.mutateOfClass = (program, cls, rng) => ofClass.call(simulator, prepared, program, cls, rng);
  return bound;
}

export interface Oracle<P extends PreparedTask = PreparedTask> {
  readonly name: string;
  /** Fence language used in prompts and preferred when extracting code blocks. */
  readonly language: string;
  /** Settings recorded in every trajectory (dialect, comparison mode, timeouts). */
  settings(): JsonObject;
  /** How structural stability splits this oracle's programs into tokens (default 'code'); recorded in every trajectory. */
  readonly tokenizer?: TokenizerName;
  /** Variables the seed prompt template may use besides the task's own fields. */
  promptVariables(task: PublicTask): Record<string, string>;
  /**
   * One-time work per task. Throws a TaskInputError for an item the dataset makes unposable (invalid
   * data); anything else it throws is a harness error (Witness's fault: a bug, an engine, a limit).
   */
  prepare(task: Task): Promise<P>;
  /** Finds the program in a model reply, or null when there is none. */
  extract(reply: string): Candidate | null;
  check(prepared: P, candidate: Candidate): Promise<Verdict>;
  readonly render: FeedbackRenderer;
  /** What the privileged sim model may do with a prepared task (bound to one episode by `bindSimulator`); unset = the sim cannot answer this oracle's tasks. */
  readonly simulator?: Simulator<P>;
  readonly hardener?: Hardener<P>;
  /** Execution without judgement for HERO-T. */
  readonly observer?: Observer<P>;
  dispose?(): Promise<void>;
}

/** An oracle that offers the sim's hooks, as every built-in one does. */
export type SimulatedOracle<P extends PreparedTask = PreparedTask> = Oracle<P> & { readonly simulator: Simulator<P> };

/**
 * What an oracle of one's own must give: a name and a check. Everything else is optional —
 * `defineOracle` (core/oracle-defaults.ts) supplies the defaults: the code-fence extractor, plain
 * witness lines, no prompt variables, no hardening, no observer for HERO-T, no sim.
 */
export type OracleDefinition<P extends PreparedTask = PreparedTask> = Pick<Oracle<P>, 'name' | 'check'> &
  Partial<Omit<Oracle<P>, 'name' | 'check' | 'render'>> & { readonly render?: Partial<FeedbackRenderer> };

/**
 * An item the dataset makes unposable (a missing field, a missing database, a gold that denotes
 * nothing or fails on its own data): invalid data, excluded from rates, not a failure of the run
 * unless strict data is asked for. Names the item so the user can find it.
 */
export class TaskInputError extends Error {
  constructor(
    readonly item: string,
    message: string,
  ) {
    super(`${item}: ${message}`);
    this.name = 'TaskInputError';
  }
}

/** How an item whose preparation threw is recorded: invalid data for a TaskInputError, else a harness error. */
export function unposedStatus(error: unknown): 'invalid-data' | 'harness-error' {
  return error instanceof TaskInputError ? 'invalid-data' : 'harness-error';
}

/** Failures of a gold program that are its own: it does not parse, fails at run time, or is refused as unsafe. */
const GOLD_OWN_FAILURES: ReadonlySet<ErrorKind> = new Set(['syntax', 'runtime', 'unsafe']);

/**
 * The error for a gold program that failed with `kind`: invalid data (a TaskInputError) when the
 * gold itself is at fault; a harness error when one of Witness's limits stopped it (timeout, size,
 * complexity), which the run's settings decide, not the dataset.
 */
export function goldFailure(item: string, kind: ErrorKind, message: string): Error {
  return GOLD_OWN_FAILURES.has(kind) ? new TaskInputError(item, message) : new Error(`${item}: ${message}`);
}
