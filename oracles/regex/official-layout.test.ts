/** The NL-RX loader and `witness data check --suite nl-rx` on generated folders of DeepRegex's layouts, sound and broken. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DataReport } from '../../core/data-report.ts';
import { checkNlRxData, NLRX_TURK_RELEASE } from './data-check.ts';
import { findNlRxTurk, loadNlRx, nlRxSplitsIn } from './loader.ts';
import { NLRX_PAIRS, writeNlRxRaw, writeNlRxSplits } from '../../testing/layouts/regex.ts';
import { runConfig } from '../../core/run-config.ts';

const made: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'witness-nlrx-layout-'));
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const errors = (report: DataReport) =>
  report.findings.filter((f) => f.level === 'error').map((f) => `${f.path ?? ''} ${f.item ?? ''}: ${f.message}`);

describe('NL-RX-Turk layouts', () => {
  it('reads the raw files as split all, and the tokenized DeepRegex splits de-tokenized to the same tasks', () => {
    const dir = folder();
    writeNlRxRaw(dir);
    writeNlRxSplits(dir);
    expect(nlRxSplitsIn(dir)).toEqual(['all', 'train', 'val', 'test']);
    const raw = loadNlRx(dir);
    expect(raw.tasks.map((t) => t.id)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(raw.tasks[0]).toMatchObject({
      description: "lines with the string 'dog'",
      gold: '.*dog.*',
      meta: { split: 'all' },
    });
    const pairs = (split: string) => loadNlRx(dir, { split }).tasks.map((t) => [t.id, t.description, t.gold]);
    expect(pairs('train')).toEqual(NLRX_PAIRS.slice(0, 3).map((p, i) => [`train-${i + 1}`, p.description, p.regex]));
    expect(pairs('val')).toEqual([['val-1', NLRX_PAIRS[3]!.description, NLRX_PAIRS[3]!.regex]]);
    expect(pairs('test')).toEqual(NLRX_PAIRS.slice(4).map((p, i) => [`test-${i + 1}`, p.description, p.regex]));
  });

  it('finds both layouts in a clone of the deep-regex repository; defaults to test without the raw files', () => {
    const clone = folder();
    writeNlRxRaw(join(clone, 'datasets', 'NL-RX-Turk'));
    writeNlRxSplits(join(clone, 'deep-regex-model', 'data_turk_eval_turk'));
    expect(loadNlRx(clone).tasks).toHaveLength(6);
    expect(loadNlRx(clone, { split: 'test' }).tasks.map((t) => t.id)).toEqual(['test-1', 'test-2']);
    const splitsOnly = folder();
    writeNlRxSplits(splitsOnly);
    writeFileSync(join(splitsOnly, 'targ.txt'), 'a tokenized targ.txt, as DeepRegex keeps beside its splits');
    expect(loadNlRx(splitsOnly).tasks.map((t) => t.id)).toEqual(['test-1', 'test-2']);
  });

  it('names the file and line of a gold that is not a brics regex, and loads the other lines', () => {
    const dir = folder();
    const { targ } = writeNlRxRaw(dir);
    writeFileSync(targ, readFileSync(targ, 'utf8').replace('([0-9])(.*)', '([0-9](.*)'));
    const { tasks, issues } = loadNlRx(dir);
    expect(tasks.map((t) => t.id)).toEqual(['1', '3', '4', '5', '6']);
    expect(issues).toEqual([{ item: `${targ}:2`, message: expect.stringMatching(/^not a brics regex: /) }]);
  });

  it('refuses an unknown split naming the known ones, and a missing one naming what the folder has', () => {
    const dir = folder();
    writeNlRxRaw(dir);
    expect(() => loadNlRx(dir, { split: 'dev' })).toThrow('unknown nl-rx split "dev" (known: all, train, val, test)');
    expect(() => loadNlRx(dir, { split: 'test' })).toThrow(
      /nl-rx split "test" needs src-test\.txt and targ-test\.txt in .*; this folder has the splits all\. The official files are published at https:\/\/github\.com\/nicholaslocascio\/deep-regex/,
    );
  });
});

describe('checkNlRxData', () => {
  it('passes sound raw and split files, counting each split, and says they are not the official release', () => {
    const dir = folder();
    writeNlRxRaw(dir);
    writeNlRxSplits(dir);
    const report = checkNlRxData(dir);
    expect(errors(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.release).toBeUndefined();
    expect(report.counts).toEqual({
      'all.pairs': 6,
      'all.invalidGolds': 0,
      'train.pairs': 3,
      'train.invalidGolds': 0,
      'val.pairs': 1,
      'val.invalidGolds': 0,
      'test.pairs': 2,
      'test.invalidGolds': 0,
    });
    expect(report.findings).toContainEqual({
      level: 'info',
      path: 'targ.txt',
      message: expect.stringMatching(/^not the official release: src\.txt has \d+ bytes \(official: 615,567\)/),
    });
  });

  it('names misaligned files and every bad line: empty, a placeholder in a raw file, a regex that does not parse', () => {
    const dir = folder();
    const { src, targ } = writeNlRxRaw(dir);
    writeFileSync(src, `${readFileSync(src, 'utf8')}\nlines with a bracket\n`);
    writeFileSync(targ, `${readFileSync(targ, 'utf8')}\n. * <M0> . *\n([0-9]\n\n`);
    const report = checkNlRxData(dir);
    expect(report.ok).toBe(false);
    expect(errors(report)).toEqual([
      'src.txt : 7 lines but targ.txt has 9; the files must align line by line',
      'targ.txt line 7: uses DeepRegex placeholders (<M0>, <NUM>, …): a tokenized line in a raw file',
      expect.stringMatching(/^targ\.txt line 8: not a brics regex: /),
      'targ.txt line 9: empty regex',
    ]);
    expect(report.counts['all.invalidGolds']).toBe(1);
  });

  it('says what it expected in a folder without NL-RX files (a lone targ.txt is not one)', () => {
    const dir = folder();
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'targ.txt'), '.*dog.*');
    expect(errors(checkNlRxData(dir))).toEqual([
      expect.stringMatching(
        /: no NL-RX-Turk files: expected src\.txt \+ targ\.txt, or DeepRegex's src-train\.txt .*\(targ\.txt alone is not a dataset: src\.txt is missing\)$/,
      ),
    ]);
  });
});

const real = findNlRxTurk(runConfig().config.suites['nl-rx'].data);
describe.runIf(real !== null)('NL-RX-Turk (real data, read in place)', () => {
  it('is recognized as the official release by size and SHA-256, with 10,000 pairs that all parse', () => {
    const report = checkNlRxData(real as string);
    expect(report.ok).toBe(true);
    expect(report.release).toBe(NLRX_TURK_RELEASE.name);
    expect(report.counts).toEqual({ 'all.pairs': 10_000, 'all.invalidGolds': 0 });
  });
});
