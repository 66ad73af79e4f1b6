/**
 * The proposer interface of the Meta-Harness search (docs/meta-harness.md#the-search): each
 * iteration the search pre-creates k empty candidate folders in the store and asks the proposer to
 * fill them. A proposer writes `harness.ts` and `proposal.json` (store.writeHarness /
 * store.writeProposal) into each folder named by `candidateIds`; what it writes is validated and
 * evaluated by the search, never trusted.
 */
import type { MetaHarnessStore } from './store.ts';

/** What the search hands a proposer for one iteration. */
export interface ProposeInput {
  /** 1, 2, … (0 is the seed harnesses). */
  iteration: number;
  /** How many candidates to write (= candidateIds.length). */
  k: number;
  /** The search run's store: everything the proposer may read (never the held-out folder). */
  store: MetaHarnessStore;
  /** The skill file (Markdown) describing the harness SDK and the store layout for the proposer. */
  skillFile: string;
  /** Ids to write, in order: their folders under candidates/ exist and are empty. */
  candidateIds: string[];
}

/** Writes candidate harnesses into the store. */
export interface Proposer {
  /** Shown in proposal.json's `proposer` field and in the report. */
  name: string;
  /** True when no real model wrote the candidates (the report says "proposer simulated"). */
  simulated: boolean;
  /** Writes harness.ts + proposal.json into each of input.candidateIds; returns what it said and did. */
  propose(input: ProposeInput): Promise<{ transcript: unknown[] }>;
}
