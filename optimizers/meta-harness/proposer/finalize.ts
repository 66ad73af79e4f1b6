/**
 * After a proposer's turn: each candidate folder it filled gets a complete, checked proposal.json
 * (the proposer writes only hypothesis, parent and mechanism; id, iteration and who wrote it are
 * added here). What is missing or wrong is filled with a placeholder and named in a note, so the
 * search still validates every harness that was written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetaHarnessStore } from '../store.ts';

export interface CandidateOutcome {
  id: string;
  /** harness.ts was written. */
  written: boolean;
  /** What had to be fixed in proposal.json, or why the candidate is missing. */
  notes: string[];
}

const NOT_GIVEN = '(not given by the proposer)';

/** Completes proposal.json of every written candidate; candidates without harness.ts are reported, not touched. */
export function finalizeCandidates(
  store: MetaHarnessStore,
  iteration: number,
  candidateIds: readonly string[],
  proposer: string,
): CandidateOutcome[] {
  // A parent is a candidate of an earlier iteration: this iteration's siblings are not evaluated yet.
  const known = new Set(store.listCandidates().filter((id) => !candidateIds.includes(id)));
  return candidateIds.map((id) => {
    const dir = store.candidateDir(id);
    const harness = store.harnessState(id);
    if (harness === 'missing') return { id, written: false, notes: ['no harness.ts was written'] };
    if (harness === 'not-a-file') return { id, written: false, notes: ['harness.ts is not a regular file'] };
    const notes: string[] = [];
    const given = readGiven(join(dir, 'proposal.json'), notes);
    const text = (key: 'hypothesis' | 'mechanism'): string => {
      const value = given[key];
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
      notes.push(`proposal.json: "${key}" ${value === undefined ? 'is missing' : 'must be a non-empty string'}`);
      return NOT_GIVEN;
    };
    const hypothesis = text('hypothesis');
    const mechanism = text('mechanism');
    let parent: string | null = null;
    if (typeof given.parent === 'string' && known.has(given.parent)) parent = given.parent;
    else if (given.parent !== undefined && given.parent !== null)
      notes.push(`proposal.json: "parent" ${JSON.stringify(given.parent)} is not a candidate of an earlier iteration`);
    store.writeProposal({ id, iteration, parent, hypothesis, mechanism, proposer });
    return { id, written: true, notes };
  });
}

function readGiven(file: string, notes: string[]): Record<string, unknown> {
  if (!existsSync(file)) {
    notes.push('proposal.json was not written');
    return {};
  }
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    notes.push('proposal.json is not a JSON object');
  } catch (error) {
    notes.push(`proposal.json is not valid JSON: ${(error as Error).message}`);
  }
  return {};
}
