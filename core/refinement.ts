/**
 * Test-time refinement episodes (HERO-T and its baselines). Control passes to the strategy's
 * `refine`, which works through a RefinementSession: it may ask the model (auxiliary calls,
 * accounted apart), run programs on the task's visible environment through the oracle's observer,
 * and adopt revisions. The session holds no gold program, no hidden cases and no verdict — `adopt`
 * records the revision as a new turn (the harness checks it for the report) and returns nothing —
 * so a refiner cannot see correctness at test time, by construction.
 *
 * Outcome: the final program decides. `solvedAtTurn` is the first turn from which every later
 * program passes (for a feedback strategy, which stops at the first pass, this is the usual τ).
 */
import { Conversation, episodeKey, noArtifactVerdict } from './conversation.ts';
import { ModelCallError, type CallPurpose, type ChatModel } from './models/model.ts';
import { episodeSimulator, type Observation, type Oracle, type PreparedTask } from './oracle.ts';
import type { Candidate, ChatMessage, JsonObject, PublicTask, Turn } from './types.ts';

export interface RefinementSession {
  readonly task: PublicTask;
  /** Fence language of the programs (regex, sql, cypher, python). */
  readonly language: string;
  /** Repeat index of the episode (a memory across instances keeps one per trial). */
  readonly trial: number;
  /** Turn 1: the model answers the prompt (plus `extraSystem`, e.g. a cheatsheet). Recorded; no verdict comes back. */
  initial(extraSystem?: string): Promise<Candidate | null>;
  /** An auxiliary model call; null when the call failed (the failure is logged). */
  ask(messages: ChatMessage[], purpose: Exclude<CallPurpose, 'solve'>): Promise<string | null>;
  extract(reply: string): Candidate | null;
  /** Runs a program on the task's visible environment; never compares with the gold. */
  observe(candidate: Candidate): Promise<Observation>;
  /** The environment: schema, sample rows, labels, library versions, dialect notes. */
  describe(): Promise<string>;
  /** Makes `candidate` the current program (recorded as a new turn). */
  adopt(candidate: Candidate, rationale: string): Promise<void>;
  /** Appends an entry to the refinement log stored in the trajectory. */
  log(entry: JsonObject): void;
}

export interface RefinementInput<P extends PreparedTask> {
  oracle: Oracle<P>;
  prepared: P;
  view: PublicTask;
  model: ChatModel;
  strategy: string;
  trial: number;
  /** Seed for the sim (shared by all strategies of a task and trial). */
  seed: number;
  /** The rendered prompt of turn 1. */
  messages: ChatMessage[];
  refine: (session: RefinementSession) => Promise<void>;
}

export interface RefinementOutcome<P extends PreparedTask> {
  conversation: Conversation<P>;
  solvedAtTurn: number | null;
  log: JsonObject[];
}

/** First turn from which every later turn passes, or null when the last one fails. */
export function stableSolveTurn(turns: readonly Turn[]): number | null {
  let first: number | null = null;
  for (const turn of turns) {
    if (turn.phase !== 'solve') continue;
    if (!turn.verdict.pass) first = null;
    else if (first === null) first = turn.index;
  }
  return first;
}

const withExtraSystem = (messages: ChatMessage[], extra: string | undefined): ChatMessage[] => {
  if (!extra) return messages;
  const system = messages.find((m) => m.role === 'system');
  if (!system) return [{ role: 'system', content: extra }, ...messages];
  return messages.map((m) => (m === system ? { role: 'system', content: `${m.content}\n\n${extra}` } : m));
};

export async function runRefinement<P extends PreparedTask>(input: RefinementInput<P>): Promise<RefinementOutcome<P>> {
  const { oracle, prepared, model } = input;
  const log: JsonObject[] = [];
  let conversation: Conversation<P> | undefined;
  const simulator = episodeSimulator(model, oracle, prepared);
  const simContext = () =>
    simulator && {
      sim: {
        episodeKey: episodeKey(prepared, input.strategy, input.trial),
        simulator,
        seed: input.seed,
        disclosures: [],
        phase: 'solve' as const,
      },
    };
  const requireConversation = () => {
    if (!conversation) throw new Error(`strategy ${input.strategy}: call session.initial() before anything else`);
    return conversation;
  };

  const session: RefinementSession = {
    task: input.view,
    language: oracle.language,
    trial: input.trial,
    async initial(extraSystem) {
      if (conversation) throw new Error(`strategy ${input.strategy}: session.initial() may be called once`);
      conversation = new Conversation(
        { model, oracle, prepared, strategy: input.strategy, trial: input.trial, seed: input.seed },
        withExtraSystem(input.messages, extraSystem),
      );
      const turn = await conversation.takeTurn('solve', prepared);
      return turn.candidate;
    },
    async ask(messages, purpose) {
      const c = requireConversation();
      const turn = c.turns.at(-1) as Turn;
      const started = performance.now();
      try {
        const reply = await model.complete({ messages, trial: input.trial, purpose, ...simContext() });
        c.recordCall(turn, {
          purpose,
          model: model.info.name,
          usage: reply.usage,
          latencyMs: reply.latencyMs,
          cached: reply.cached,
        });
        return reply.content;
      } catch (error) {
        if (!(error instanceof ModelCallError) || error.name === 'CacheMissError') throw error;
        c.recordCall(turn, {
          purpose,
          model: model.info.name,
          usage: { promptTokens: 0, completionTokens: 0 },
          latencyMs: performance.now() - started,
          cached: false,
        });
        log.push({ action: 'call-failed', purpose, error: error.message });
        return null;
      }
    },
    extract: (reply) => oracle.extract(reply),
    async observe(candidate) {
      if (!oracle.observer)
        return {
          ok: false,
          error: {
            kind: 'runtime',
            message: `the ${oracle.name} oracle cannot run programs without judging them (no observer)`,
          },
          output: '',
        };
      return oracle.observer.observe(prepared, candidate);
    },
    describe: async () => (oracle.observer ? oracle.observer.describe(prepared) : ''),
    async adopt(candidate, rationale) {
      const c = requireConversation();
      const verdict = await oracle.check(prepared, candidate);
      c.turns.push({
        index: c.turns.length + 1,
        phase: 'solve',
        messages: [],
        reply: `Revision adopted by ${input.strategy}: ${rationale || '(no rationale)'}`,
        candidate,
        verdict,
        usage: { promptTokens: 0, completionTokens: 0 },
        latencyMs: 0,
        cached: false,
      });
    },
    log: (entry) => void log.push(entry),
  };

  await input.refine(session);
  if (!conversation) {
    // A strategy that never asked for the initial program still gets a turn on record.
    conversation = new Conversation(
      { model, oracle, prepared, strategy: input.strategy, trial: input.trial, seed: input.seed },
      input.messages,
    );
    conversation.turns.push({
      index: 1,
      phase: 'solve',
      messages: input.messages,
      reply: null,
      candidate: null,
      verdict: noArtifactVerdict(prepared, `strategy ${input.strategy} produced no program`),
      usage: { promptTokens: 0, completionTokens: 0 },
      latencyMs: 0,
      cached: false,
    });
  }
  return { conversation, solvedAtTurn: stableSolveTurn(conversation.turns), log };
}
