/** The proposer interface the Meta-Harness search calls (declared with the search, in ../proposer.ts). */
export type { ProposeInput, Proposer } from '../proposer.ts';
