/**
 * A proposer that turns the search's files into folders cannot stop the search: an external
 * command (a real shell command) makes one candidate's harness.ts a folder and another's spend.json
 * a folder; the search records the first as failed, evaluates the second (its spend.json is a file
 * again), and a resume of the same store finishes with the same rows.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSimModel } from '../../core/models/sim.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { commandProposer } from './proposer/command.ts';
import { DEFAULT_SKILL_FILE } from './proposer/skill.ts';
import { runSearch } from './search.ts';
import { MetaHarnessStore } from './store.ts';
import { REGEX_PROMPT, REGEX_TASKS } from '../../testing/meta-harness/support.ts';

const dir = mkdtempSync(join(tmpdir(), 'witness-mh-recovery-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SABOTEUR = [
  'set -e',
  'first=$(printf "%s\\n" "$WITNESS_MH_CANDIDATE_DIRS" | sed -n 1p)',
  'second=$(printf "%s\\n" "$WITNESS_MH_CANDIDATE_DIRS" | sed -n 2p)',
  'mkdir -p "$first/harness.ts/x.ts"',
  'cp "$WITNESS_MH_STORE/candidates/seed-zero-shot/harness.ts" "$second/harness.ts"',
  'mkdir -p "$second/spend.json/x"',
].join('\n');

describe('a store whose search-owned files a proposer made folders', () => {
  it('is searched to the end, and resumed', async () => {
    const store = new MetaHarnessStore(dir, 'run');
    const search = () =>
      runSearch({
        store,
        oracle: regexOracle(),
        prompt: REGEX_PROMPT,
        model: createSimModel({ seed: 1 }),
        tasks: REGEX_TASKS,
        testTasks: [],
        trials: 1,
        seed: 1,
        price: null,
        proposer: commandProposer(SABOTEUR),
        skillFile: DEFAULT_SKILL_FILE,
        options: { iterations: 1, candidates: 2, seeds: ['zero-shot'] },
      });
    const first = await search();
    const outcomes = Object.fromEntries(first.rows.map((r) => [r.id, r.outcome]));
    expect(outcomes).toEqual({
      'seed-zero-shot': 'evaluated',
      'i1-c1': 'failed: harness.ts is not a regular file (a folder or a link)',
      'i1-c2': 'evaluated',
    });
    expect(statSync(join(store.candidateDir('i1-c2'), 'spend.json')).isFile()).toBe(true);
    expect(store.readSpend('i1-c2').tokens).toBeGreaterThan(0);

    const resumed = await search();
    expect(resumed.rows).toEqual(first.rows);
    expect(resumed.spent).toEqual(first.spent);
  }, 60_000);
});
