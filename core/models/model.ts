/** The model contract: any chat model (OpenAI-compatible endpoint, cache, sim) answers a ChatRequest. */
import type { EpisodeSimulator } from '../oracle.ts';
import type { ChatMessage, Disclosure, ModelInfo, Usage } from '../types.ts';

/**
 * Privileged context for the sim model only. Real models never read it; the episode builds it
 * from the task and from the feedback already sent, so the sim can use nothing else.
 */
export interface SimContext {
  /** Key identifying the episode (benchmark, task, strategy, trial) for the sim's own state. */
  episodeKey: string;
  /** The oracle's simulator bound to the episode's task; holds the gold, which makes the sim privileged. */
  simulator: EpisodeSimulator;
  /** Per (task, trial) and the same for every strategy, so first answers coincide across strategies. */
  seed: number;
  /** Structured copy of every feedback message sent so far, oldest first. */
  disclosures: Disclosure[];
  /** The phase of the turn being asked for. */
  phase: 'solve' | 'hardening';
}

/** Why a model is called: the solving turns, or an auxiliary call of a method (HERO, cheatsheet, the Meta-Harness proposer). */
export type CallPurpose = 'solve' | 'refine' | 'judge' | 'reflect' | 'memory' | 'propose';

export interface ChatRequest {
  messages: ChatMessage[];
  /** Default 'solve'. Auxiliary calls are accounted apart from model calls, and the sim answers them mechanically. */
  purpose?: CallPurpose;
  /** Repeat index of the episode; part of the cache key so trials are not answered from one entry. */
  trial: number;
  /** Read only by the sim model. */
  sim?: SimContext;
  signal?: AbortSignal;
}

export interface ChatReply {
  content: string;
  usage: Usage;
  latencyMs: number;
  cached: boolean;
  finishReason?: string;
}

export interface ChatModel {
  readonly info: ModelInfo;
  complete(request: ChatRequest): Promise<ChatReply>;
  close?(): Promise<void>;
}

/** A model call that failed after the client's own retries (rate limit, timeout, bad reply). */
export class ModelCallError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}

/** Rough token count for text without a tokenizer: about four characters per token. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
