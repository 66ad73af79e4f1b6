/** The conversation of an episode: messages, turns, and what the feedback has disclosed so far. */
import { ModelCallError, type ChatModel } from './models/model.ts';
import { episodeSimulator, type EpisodeSimulator, type Oracle, type PreparedTask } from './oracle.ts';
import type { AuxiliaryCall, ChatMessage, Disclosure, Feedback, Turn, TurnPhase, Verdict } from './types.ts';

export interface ConversationSetup<P extends PreparedTask> {
  model: ChatModel;
  oracle: Oracle<P>;
  prepared: P;
  strategy: string;
  trial: number;
  /** Seed handed to the sim model: per (task, trial), shared by all strategies. */
  seed: number;
}

/** A verdict for a turn that produced no program (no code block, or the model call failed). */
export function noArtifactVerdict(prepared: PreparedTask, message: string): Verdict {
  return {
    pass: false,
    cases: prepared.caseIds.map((id) => ({ id, pass: false })),
    witnesses: [],
    error: { kind: 'no-artifact', message },
    timings: { totalMs: 0 },
  };
}

/** Identifies an episode to the sim model, which keeps its own state per episode. */
export function episodeKey(prepared: PreparedTask, strategy: string, trial: number): string {
  return `${prepared.task.benchmark}\u0000${prepared.task.id}\u0000${strategy}\u0000${trial}`;
}

/** The conversation of one episode: the messages so far, the turns taken, what was disclosed. */
export class Conversation<P extends PreparedTask> {
  readonly messages: ChatMessage[] = [];
  readonly turns: Turn[] = [];
  readonly disclosures: Disclosure[] = [];
  private pending: ChatMessage[] = [];
  modelError: string | undefined;
  /** Bound only for the privileged sim model. */
  private readonly simulator: EpisodeSimulator | undefined;

  constructor(
    private readonly setup: ConversationSetup<P>,
    initial: ChatMessage[],
  ) {
    this.simulator = episodeSimulator(setup.model, setup.oracle, setup.prepared);
    this.messages.push(...initial);
    this.pending.push(...initial);
  }

  /** Asks the model, extracts and checks the program against `against`, and records the turn. */
  async takeTurn(phase: TurnPhase, against: P): Promise<Turn> {
    const { model, oracle, trial } = this.setup;
    const added = this.pending;
    this.pending = [];
    const started = performance.now();
    let content: string | null = null;
    let reply: Awaited<ReturnType<ChatModel['complete']>> | null = null;
    try {
      reply = await model.complete({
        messages: [...this.messages],
        trial,
        ...(this.simulator && {
          sim: {
            episodeKey: this.key(),
            simulator: this.simulator,
            seed: this.setup.seed,
            disclosures: [...this.disclosures],
            phase,
          },
        }),
      });
      content = reply.content;
    } catch (error) {
      if (!(error instanceof ModelCallError) || error.name === 'CacheMissError') throw error;
      this.modelError = error.message;
    }
    const candidate = content === null ? null : oracle.extract(content);
    const verdict = candidate
      ? await oracle.check(against, candidate)
      : noArtifactVerdict(
          against,
          content === null ? `the model call failed: ${this.modelError}` : 'no program found in the reply',
        );
    if (content !== null) this.messages.push({ role: 'assistant', content });
    const turn: Turn = {
      index: this.turns.length + 1,
      phase,
      messages: added,
      reply: content,
      candidate,
      verdict,
      usage: reply?.usage ?? { promptTokens: 0, completionTokens: 0 },
      latencyMs: reply?.latencyMs ?? Math.round(performance.now() - started),
      cached: reply?.cached ?? false,
      ...(this.modelError && content === null ? { modelError: this.modelError } : {}),
    };
    this.turns.push(turn);
    return turn;
  }

  /** Queues feedback as the next user message, attached to the turn it answers when given. */
  giveFeedback(turn: Turn | null, feedback: Feedback): void {
    if (turn) turn.feedback = feedback;
    const message: ChatMessage = { role: 'user', content: feedback.text };
    this.messages.push(message);
    this.pending.push(message);
    this.disclosures.push(feedback.disclosed);
  }

  /** Records an auxiliary call (refiner, judge, reflector, …) made for a turn; its tokens are accounted apart. */
  recordCall(turn: Turn, call: AuxiliaryCall): void {
    (turn.calls ??= []).push(call);
  }

  private key(): string {
    const { prepared, strategy, trial } = this.setup;
    return episodeKey(prepared, strategy, trial);
  }
}
