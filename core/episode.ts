/**
 * An episode: one task, one strategy, one model, up to a turn budget. Each turn the model answers,
 * the oracle checks the extracted program, and the strategy turns the verdict into feedback. After
 * a success the hardening loop probes beyond the hidden cases. Everything is recorded in a
 * Trajectory; a model failure ends the episode as `model-error`, anything else that throws is a
 * harness error.
 */
import { Conversation } from './conversation.ts';
import { runRefinement } from './refinement.ts';
import { hardenSolution, type HardeningOptions } from './hardening.ts';
import type { ChatModel } from './models/model.ts';
import type { Oracle, PreparedTask } from './oracle.ts';
import { renderPrompt, type PromptTemplate } from './prompt.ts';
import { deriveSeed } from './random.ts';
import type { FeedbackStrategy, RefiningStrategy, Strategy } from './strategy.ts';
import { DEFAULT_TOKENIZER } from './tokenizers.ts';
import {
  TRAJECTORY_SCHEMA,
  TRAJECTORY_SCHEMA_VERSION,
  type ChatMessage,
  type HardeningRecord,
  type JsonObject,
  type ModelInfo,
  type Outcome,
  type OutcomeStatus,
  type PublicTask,
  type Task,
  type Trajectory,
  type Turn,
} from './types.ts';

export interface EpisodeSetup<P extends PreparedTask> {
  runId: string;
  oracle: Oracle<P>;
  prepared: P;
  strategy: Strategy;
  model: ChatModel;
  prompt: PromptTemplate;
  /** Solve-phase turn budget (default 4, the A-CEGIS ablation budget). */
  budget: number;
  trial: number;
  /** The run seed; the episode derives its own from it. */
  seed: number;
  /** Null turns hardening off. */
  hardening: HardeningOptions | null;
}

export const DEFAULT_TURN_BUDGET = 4;

/** The task as strategies and prompts may see it. */
export function publicView(task: Task): PublicTask {
  const { gold: _gold, ...rest } = task;
  return rest;
}

/** Variables available to every seed prompt: the task's fields plus the oracle's own. */
export function promptVariables(oracle: Pick<Oracle, 'promptVariables'>, task: PublicTask): Record<string, string> {
  return {
    description: task.description,
    task_id: task.id,
    benchmark: task.benchmark,
    ...oracle.promptVariables(task),
  };
}

/** Runs one episode and returns its trajectory. Throws only for harness errors. */
export async function runEpisode<P extends PreparedTask>(setup: EpisodeSetup<P>): Promise<Trajectory> {
  const { oracle, prepared, strategy } = setup;
  const task = prepared.task;
  const startedAt = new Date();
  const view = publicView(task);
  const prompt = strategy.prompt ?? setup.prompt;
  const start: SolveStart = {
    view,
    messages: renderPrompt(prompt, promptVariables(oracle, view)),
    // The sim's seed is the same for every strategy of a (task, trial), so first answers coincide
    // across strategies, as they would for a real model given the same seed prompt.
    simSeed: deriveSeed(setup.seed, task.benchmark, task.id, setup.trial),
  };
  let solved: SolvePhase<P>;
  switch (strategy.kind) {
    case 'feedback':
      solved = await feedbackLoop(setup, strategy, start);
      break;
    case 'refining':
      solved = await refinementEpisode(setup, strategy, start);
      break;
  }
  const { conversation, solvedAtTurn, solvedTurn } = solved;

  let hardening: HardeningRecord | undefined;
  if (solvedTurn?.candidate && setup.hardening && oracle.hardener) {
    hardening = await hardenSolution({
      oracle,
      hardener: oracle.hardener,
      prepared,
      candidate: solvedTurn.candidate,
      strategy: solved.repairs,
      conversation,
      task: view,
      options: setup.hardening,
      seed: deriveSeed(setup.seed, task.benchmark, task.id, setup.trial, 'hardening'),
    });
  }
  const outcome: Outcome = {
    status: solvedAtTurn !== null ? 'solved' : conversation.modelError ? 'model-error' : 'unsolved',
    solvedAtTurn,
    ...(hardening ? { hardening } : {}),
  };
  const trajectory = assembleTrajectory(setup, conversation.turns, outcome, startedAt);
  return solved.refinementLog ? { ...trajectory, refinement: { log: solved.refinementLog } } : trajectory;
}

/** What both kinds of solve phase start from. */
interface SolveStart {
  view: PublicTask;
  /** The rendered prompt of turn 1. */
  messages: ChatMessage[];
  simSeed: number;
}

/** How the solve phase ended. */
interface SolvePhase<P extends PreparedTask> {
  conversation: Conversation<P>;
  solvedAtTurn: number | null;
  /** The turn whose program counts (and hardening starts from), when solved. */
  solvedTurn: Turn | undefined;
  /** The strategy whose feedback the hardening repairs get, if any. */
  repairs: FeedbackStrategy | null;
  refinementLog?: JsonObject[];
}

/** The feedback loop: turns until a pass, the budget, a model error or a strategy that gives no feedback. */
async function feedbackLoop<P extends PreparedTask>(
  setup: EpisodeSetup<P>,
  strategy: FeedbackStrategy,
  start: SolveStart,
): Promise<SolvePhase<P>> {
  const { oracle, prepared, budget } = setup;
  const conversation = new Conversation(
    { model: setup.model, oracle, prepared, strategy: strategy.name, trial: setup.trial, seed: start.simSeed },
    start.messages,
  );
  const turnsAllowed = Math.max(1, Math.min(budget, strategy.turns(budget)));
  for (let t = 1; t <= turnsAllowed; t++) {
    const turn = await conversation.takeTurn('solve', prepared);
    if (turn.verdict.pass) return { conversation, solvedAtTurn: turn.index, solvedTurn: turn, repairs: strategy };
    if (conversation.modelError || t === turnsAllowed) break;
    const feedback = strategy.feedback(turn.verdict, {
      task: start.view,
      render: oracle.render,
      turn: turn.index,
      phase: 'solve',
    });
    if (!feedback) break;
    conversation.giveFeedback(turn, feedback);
  }
  return { conversation, solvedAtTurn: null, solvedTurn: undefined, repairs: strategy };
}

/** Test-time refinement: the strategy works through a refinement session. */
async function refinementEpisode<P extends PreparedTask>(
  setup: EpisodeSetup<P>,
  strategy: RefiningStrategy,
  start: SolveStart,
): Promise<SolvePhase<P>> {
  const { oracle, prepared } = setup;
  const refined = await runRefinement({
    oracle,
    prepared,
    view: start.view,
    model: setup.model,
    strategy: strategy.name,
    trial: setup.trial,
    seed: start.simSeed,
    messages: start.messages,
    refine: (session) => strategy.refine(session),
  });
  const { conversation, solvedAtTurn } = refined;
  // A refiner's final program is what counts (later revisions may differ from the first passing one).
  const solvedTurn = solvedAtTurn === null ? undefined : conversation.turns.filter((t) => t.phase === 'solve').at(-1);
  return { conversation, solvedAtTurn, solvedTurn, repairs: null, refinementLog: refined.log };
}

/**
 * Who an episode is, fixed when it is declared: enough to write its trajectory when it cannot run,
 * or when its test ends without one (a timeout, a worker that died, a store that could not write).
 * Its seed is the episode's own; its prompt the strategy's own, else the benchmark's.
 */
export type EpisodePlan = Pick<
  Trajectory,
  | 'runId'
  | 'benchmark'
  | 'taskId'
  | 'strategy'
  | 'model'
  | 'trial'
  | 'seed'
  | 'promptHash'
  | 'promptFile'
  | 'oracle'
  | 'budget'
>;

/** The plan of one episode of a task. */
export function planEpisode(setup: {
  runId: string;
  task: Pick<Task, 'id' | 'benchmark'>;
  strategy: Strategy;
  model: ModelInfo;
  oracle: Pick<Oracle, 'name' | 'settings' | 'tokenizer'>;
  prompt: PromptTemplate;
  budget: number;
  trial: number;
  seed: number;
}): EpisodePlan {
  const { task, strategy, oracle } = setup;
  const prompt = strategy.prompt ?? setup.prompt;
  return {
    runId: setup.runId,
    benchmark: task.benchmark,
    taskId: task.id,
    strategy: strategy.name,
    model: setup.model,
    trial: setup.trial,
    seed: deriveSeed(setup.seed, task.benchmark, task.id, strategy.name, setup.trial),
    promptHash: prompt.hash,
    ...(prompt.file ? { promptFile: prompt.file } : {}),
    oracle: { name: oracle.name, settings: oracle.settings(), tokenizer: oracle.tokenizer ?? DEFAULT_TOKENIZER },
    budget: setup.budget,
  };
}

/** A trajectory without turns for a planned episode that did not run: a harness error or invalid data, and why. */
export function unrunTrajectory(
  plan: EpisodePlan,
  status: Extract<OutcomeStatus, 'harness-error' | 'invalid-data'>,
  reason: string,
  startedAt = new Date(),
): Trajectory {
  return {
    schema: TRAJECTORY_SCHEMA,
    version: TRAJECTORY_SCHEMA_VERSION,
    ...plan,
    caseIds: [],
    turns: [],
    outcome: { status, solvedAtTurn: null, error: reason },
    tokens: { prompt: 0, completion: 0, total: 0, estimated: false },
    cache: { hits: 0, misses: 0 },
    startedAt: startedAt.toISOString(),
    durationMs: Math.max(0, Date.now() - startedAt.getTime()),
  };
}

/** A trajectory for an episode that could not run (an oracle failure, a bug: Witness's fault). */
export function harnessErrorTrajectory<P extends PreparedTask>(
  setup: Omit<EpisodeSetup<P>, 'prepared'> & { task: Task },
  message: string,
  startedAt = new Date(),
): Trajectory {
  return unrunTrajectory(planEpisode({ ...setup, model: setup.model.info }), 'harness-error', message, startedAt);
}

/** The trajectory of an episode that ran: its plan, its turns and what they add up to. */
function assembleTrajectory<P extends PreparedTask>(
  setup: EpisodeSetup<P>,
  turns: Turn[],
  outcome: Outcome,
  startedAt: Date,
): Trajectory {
  const prompt = turns.reduce((n, t) => n + t.usage.promptTokens, 0);
  const completion = turns.reduce((n, t) => n + t.usage.completionTokens, 0);
  const caching = typeof (setup.model as { stats?: unknown }).stats === 'function';
  const answered = turns.filter((t) => t.reply !== null);
  return {
    schema: TRAJECTORY_SCHEMA,
    version: TRAJECTORY_SCHEMA_VERSION,
    ...planEpisode({ ...setup, task: setup.prepared.task, model: setup.model.info }),
    caseIds: setup.prepared.caseIds,
    turns,
    outcome,
    tokens: {
      prompt,
      completion,
      total: prompt + completion,
      estimated: turns.some((t) => t.usage.estimated === true),
    },
    cache: {
      hits: answered.filter((t) => t.cached).length,
      misses: caching ? answered.filter((t) => !t.cached).length : 0,
    },
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
  };
}
