/**
 * The proposer interface the Meta-Harness search calls (a copy of the search's own declaration, so
 * this folder builds on its own; the two must stay the same shape).
 */
import type { MetaHarnessStore } from '../store.ts';

/** What the search hands a proposer for one iteration. */
export interface ProposeInput {
  /** 1, 2, … (0 is the seed harnesses). */
  iteration: number;
  /** How many candidates to write (= candidateIds.length). */
  k: number;
  /** The search run's store: everything the proposer may read (never the held-out folder). */
  store: MetaHarnessStore;
  /** Path of the skill file (Markdown): the proposer's instructions, the SDK and the store layout. */
  skillFile: string;
  /** Ids to write, in order: their folders under candidates/ exist and are empty. */
  candidateIds: string[];
}

/** Writes candidate harnesses into the store. */
export interface Proposer {
  /** Shown in proposal.json's `proposer` field and in the report. */
  name: string;
  /** True when no real model wrote the candidates. */
  simulated: boolean;
  /** Writes harness.ts + proposal.json into each of input.candidateIds; returns what it said and did. */
  propose(input: ProposeInput): Promise<{ transcript: unknown[] }>;
}
