import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileRegex } from './compile.ts';
import { isEmptyLanguage } from './equivalence.ts';
import { findNlRxTurk, loadNlRx, NLRX_TURK_SETTING } from './loader.ts';
import { regexOracle } from './oracle.ts';
import { runConfig } from '../../core/run-config.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/nl-rx', import.meta.url));

describe('NL-RX loader', () => {
  it('loads the fixture tasks with line-number ids and the brics dialect', () => {
    const { tasks, issues } = loadNlRx(fixtures);
    expect(issues).toEqual([]);
    expect(tasks.length).toBeGreaterThanOrEqual(30);
    expect(tasks[0]).toMatchObject({
      id: '1',
      benchmark: 'nl-rx',
      gold: '.*dog.*',
      context: { dialect: 'brics' },
      meta: { line: 1 },
    });
    expect(loadNlRx(fixtures, { limit: 5, benchmark: 'mine' }).tasks.map((t) => `${t.benchmark}:${t.id}`)).toEqual([
      'mine:1',
      'mine:2',
      'mine:3',
      'mine:4',
      'mine:5',
    ]);
  });

  it('names both files when they do not align, and the file and line of an empty item', () => {
    const dir = mkdtempSync(join(tmpdir(), 'witness-nlrx-'));
    writeFileSync(join(dir, 'src.txt'), 'a\nb\n');
    writeFileSync(join(dir, 'targ.txt'), 'x\n');
    expect(() => loadNlRx(dir)).toThrow(/src\.txt has 2 lines but .*targ\.txt has 1/);
    writeFileSync(join(dir, 'targ.txt'), 'dog\n\n');
    const { tasks, issues } = loadNlRx(dir);
    expect(tasks.map((t) => t.id)).toEqual(['1']);
    expect(issues).toEqual([{ item: `${join(dir, 'targ.txt')}:2`, message: 'empty regex' }]);
    expect(() => loadNlRx(join(dir, 'missing'))).toThrow(
      /no NL-RX-Turk files in .*missing: expected src\.txt \+ targ\.txt/,
    );
  });
});

describe('fixture tasks', () => {
  it('every gold denotes a non-empty language with non-members, and gets 12 + 12 hidden tests', async () => {
    const oracle = regexOracle();
    for (const task of loadNlRx(fixtures).tasks) {
      expect(isEmptyLanguage(compileRegex(task.gold, 'brics')), `line ${task.id}`).toBe(false);
      const prepared = await oracle.prepare(task);
      expect(prepared.cases.filter((c) => !c.expected).length, `line ${task.id} negatives`).toBe(12);
      expect(prepared.cases.filter((c) => c.expected).length, `line ${task.id} positives`).toBeGreaterThanOrEqual(1);
    }
  });

  it('covers the constructs of the dataset', () => {
    const golds = loadNlRx(fixtures).tasks.map((t) => t.gold);
    for (const construct of [
      '&',
      '~',
      '\\b',
      '|',
      '{',
      '*',
      '+',
      '?',
      '[A-Z]',
      '[a-z]',
      '[0-9]',
      '[AEIOUaeiou]',
      'dog',
      'truck',
      'ring',
      'lake',
    ]) {
      expect(
        golds.some((g) => g.includes(construct)),
        construct,
      ).toBe(true);
    }
  });
});

const real = findNlRxTurk(runConfig().config.suites['nl-rx'].data);
if (real === null) console.warn(`NL-RX-Turk not found at ${NLRX_TURK_SETTING}: its real-data test is skipped`);
describe.runIf(real !== null)('NL-RX-Turk (real data, read in place)', () => {
  it('parses every line and counts the & and ~ lines', () => {
    const { tasks, issues } = loadNlRx(real as string, { benchmark: 'nl-rx-turk' });
    expect(tasks.length + issues.length).toBe(10_000);
    expect(issues).toEqual([]);
    let empty = 0;
    for (const task of tasks) {
      if (isEmptyLanguage(compileRegex(task.gold, 'brics'))) empty++;
    }
    const withAnd = tasks.filter((t) => t.gold.includes('&')).length;
    const withNot = tasks.filter((t) => t.gold.includes('~')).length;
    console.info(
      `NL-RX-Turk: ${tasks.length} lines parsed; ${withAnd} use &, ${withNot} use ~; ${empty} denote the empty language under brics semantics`,
    );
    expect(withAnd).toBe(2727);
    expect(withNot).toBe(1716);
    expect(empty).toBeGreaterThan(0);
  });
});
