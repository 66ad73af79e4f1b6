/** Completing the proposals a proposer left: the fields it gave are kept, what is wrong is replaced and named. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { finalizeCandidates } from './finalize.ts';
import { SEED_ID, seededStore } from '../../../testing/meta-harness/seeded-store.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('finalizeCandidates', () => {
  it('keeps a good proposal, names every fix, and leaves unwritten folders alone', () => {
    const ids = ['c2-a', 'c2-b', 'c2-c', 'c2-d'];
    const { store, cleanup } = seededStore(ids);
    cleanups.push(cleanup);
    const write = (id: string, proposal?: string) => {
      store.writeHarness(id, 'export default 1;\n');
      if (proposal !== undefined) writeFileSync(join(store.candidateDir(id), 'proposal.json'), proposal);
    };
    write('c2-a', JSON.stringify({ hypothesis: ' h ', parent: SEED_ID, mechanism: 'memory' }));
    write('c2-b', JSON.stringify({ hypothesis: 7, parent: 'c2-a', mechanism: 'verify' }));
    write('c2-c');
    const outcomes = finalizeCandidates(store, 2, ids, 'agent');
    expect(store.readProposal('c2-a')).toEqual({
      id: 'c2-a',
      iteration: 2,
      parent: SEED_ID,
      hypothesis: 'h',
      mechanism: 'memory',
      proposer: 'agent',
    });
    expect(store.readProposal('c2-b')).toMatchObject({ parent: null, hypothesis: '(not given by the proposer)' });
    expect(outcomes).toEqual([
      { id: 'c2-a', written: true, notes: [] },
      {
        id: 'c2-b',
        written: true,
        notes: [
          'proposal.json: "hypothesis" must be a non-empty string',
          'proposal.json: "parent" "c2-a" is not a candidate of an earlier iteration',
        ],
      },
      {
        id: 'c2-c',
        written: true,
        notes: [
          'proposal.json was not written',
          'proposal.json: "hypothesis" is missing',
          'proposal.json: "mechanism" is missing',
        ],
      },
      { id: 'c2-d', written: false, notes: ['no harness.ts was written'] },
    ]);
  });
});
