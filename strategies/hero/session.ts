/**
 * What a test-time refiner may touch. By construction it holds no gold program, no hidden cases
 * and no verdict: `adopt` records a revision (the harness checks it for the report) and returns
 * nothing, and `observe` only runs a program on the task's visible environment.
 */
import type { Observation } from '../../core/oracle.ts';
import type { CallPurpose } from '../../core/models/model.ts';
import type { Candidate, ChatMessage, JsonObject, PublicTask } from '../../core/types.ts';
import type { VerifiedExample } from './retrieve.ts';

export interface RefinementSession {
  readonly task: PublicTask;
  /** Fence language of the programs (regex, sql, cypher, python). */
  readonly language: string;
  /** Turn 1: the model answers the prompt (plus `extraSystem`, e.g. a cheatsheet). Recorded; no verdict comes back. */
  initial(extraSystem?: string): Promise<Candidate | null>;
  /** An auxiliary model call; null when the call failed (the failure is recorded). */
  ask(messages: ChatMessage[], purpose: CallPurpose): Promise<string | null>;
  extract(reply: string): Candidate | null;
  observe(candidate: Candidate): Promise<Observation>;
  describe(): Promise<string>;
  /** Verified solutions of the most similar training tasks (never this task). */
  retrieve(k: number): VerifiedExample[];
  /** Makes `candidate` the current program (recorded as a new turn). */
  adopt(candidate: Candidate, rationale: string): Promise<void>;
  /** Appends an entry to the refinement log stored in the trajectory. */
  log(entry: JsonObject): void;
}
