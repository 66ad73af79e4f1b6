/** Posing every item as a run would: what a run records as invalid data, and the exclusion list that leaves it out. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Oracle, PreparedTask } from '../core/oracle.ts';
import { parseIdLines, selectLoaded } from '../core/selection.ts';
import { loadNlRx } from '../oracles/regex/loader.ts';
import { regexOracle } from '../oracles/regex/oracle.ts';
import { formatPosedItems, poseItems, writeExclusionList } from './posed-items.ts';

const dir = mkdtempSync(join(tmpdir(), 'witness-unposable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('posing every item of an NL-RX folder', () => {
  // Line 2: a digit that is a capital (empty under brics semantics); line 3: no description.
  writeFileSync(join(dir, 'src.txt'), 'lines with dog\nlines with a digit that is a capital\n\nlines with a vowel\n');
  writeFileSync(join(dir, 'targ.txt'), '.*dog.*\n([0-9])&([A-Z])\n.*\n.*[AEIOUaeiou].*\n');
  const loaded = loadNlRx(dir);

  it('lists the unreadable items and the golds a run records as invalid data, and a gold Witness cannot pose apart', async () => {
    const regex = regexOracle();
    // A check that Witness cannot pose one task (its own limit), to show the two kinds apart.
    const oracle: Oracle<PreparedTask> = {
      ...regex,
      prepare: (task) => (task.id === '4' ? Promise.reject(new Error('task 4: beyond a limit')) : regex.prepare(task)),
    };
    const seen: number[] = [];
    const posed = await poseItems({ name: 'nl-rx', oracle, tasks: loaded }, null, (done) => seen.push(done));
    expect(seen).toEqual([1, 2, 3]);
    expect(posed).toEqual({
      suite: 'nl-rx',
      split: null,
      items: 4,
      unposable: [
        {
          id: `${join(dir, 'src.txt')}:3`,
          kind: 'invalid-data',
          reason: `${join(dir, 'src.txt')}:3: empty description`,
        },
        {
          id: '2',
          kind: 'invalid-data',
          reason:
            'task 2: the gold regex "([0-9])&([A-Z])" denotes the empty language (under dk.brics automaton semantics), so no task can be posed',
        },
        { id: '4', kind: 'harness-error', reason: 'task 4: beyond a limit' },
      ],
    });
    expect(formatPosedItems(posed).split('\n')).toEqual([
      'nl-rx items posed as a run would (split default): 4 items, 1 posable, 2 invalid data (left out of the rates), 1 Witness cannot pose (harness errors: the run fails on them)',
      `invalid  ${join(dir, 'src.txt')}:3: empty description`,
      'invalid  task 2: the gold regex "([0-9])&([A-Z])" denotes the empty language (under dk.brics automaton semantics), so no task can be posed',
      'harness  task 4: beyond a limit',
    ]);

    // The exclusion list holds the invalid items only; excluding them leaves what a run poses.
    const file = join(dir, 'invalid.txt');
    expect(await writeExclusionList(file, posed)).toBe(2);
    const ids = parseIdLines(readFileSync(file, 'utf8'), file, true);
    expect(ids).toEqual([`${join(dir, 'src.txt')}:3`, '2']);
    const kept = selectLoaded(loaded, { excludeTasks: ids }, 1, 'nl-rx');
    expect(kept.issues).toEqual([]);
    expect(kept.tasks.map((t) => t.id)).toEqual(['1', '4']);
    expect((await poseItems({ name: 'nl-rx', oracle: regex, tasks: kept }, null)).unposable).toEqual([]);
  });
});
