/** `witness data check` on BigCodeBench and DSCodeBench copies of the official files. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBigCodeBenchData } from './bigcodebench/data-check.ts';
import { checkDsCodeBenchData } from './dscodebench/data-check.ts';
import { writeBigCodeBenchFolder, writeDsCodeBenchFile } from '../../testing/layouts/python.ts';

const temp = () => mkdtempSync(join(tmpdir(), 'witness-py-check-'));

describe('checkBigCodeBenchData', () => {
  it('a folder with both subsets (gzipped): counts, the release counts they differ from, no checksum known', () => {
    const dir = temp();
    writeBigCodeBenchFolder(dir, { gzip: true });
    const report = checkBigCodeBenchData(dir);
    expect(report.ok).toBe(true);
    expect(report.counts).toEqual({ full: 27, hard: 3 });
    expect(report.findings.filter((f) => f.level === 'warning').map((f) => f.message)).toEqual([
      '27 usable tasks; the full release has 1,140',
      '3 usable tasks; the hard release has 148',
    ]);
    expect(report.findings.at(-1)?.message).toMatch(/no checksums of the BigCodeBench release are known offline/);
  });

  it('a broken line is an error naming file and line; a missing subset is a warning; no subset at all an error', () => {
    const dir = temp();
    const { hard } = writeBigCodeBenchFolder(dir, { badLine: true });
    const report = checkBigCodeBenchData(dir);
    expect(report.ok).toBe(false);
    expect(report.findings).toContainEqual({
      level: 'error',
      path: 'BigCodeBench.jsonl',
      item: 'BigCodeBench.jsonl:2',
      message: expect.stringMatching(/^invalid JSON/),
    });
    rmSync(hard);
    expect(checkBigCodeBenchData(dir).findings).toContainEqual({
      level: 'warning',
      path: dir,
      message: `bigcodebench data ${dir} has no hard subset (looked for BigCodeBench-Hard.jsonl or BigCodeBench-Hard.jsonl.gz)`,
    });
    const noHard = checkBigCodeBenchData(temp());
    expect(noHard.ok).toBe(false);
    expect(noHard.findings.map((f) => f.message)).toContain('holds neither subset, so the suite cannot run on it');
    const single = checkBigCodeBenchData(writeBigCodeBenchFolder(temp()).full);
    expect(single).toMatchObject({ ok: true, counts: { tasks: 27 } });
  });
});

describe('checkDsCodeBenchData', () => {
  it('DSCodeBench.json in a folder: problems per library, a broken line named, the release count', () => {
    const dir = temp();
    writeDsCodeBenchFile(dir, { only: /^witness_(std_00[12]|np_001)$/, badLine: true });
    const report = checkDsCodeBenchData(dir);
    expect(report.ok).toBe(false);
    expect(report.counts).toEqual({ problems: 3, 'library.Python': 2, 'library.NumPy': 1 });
    expect(report.findings).toContainEqual({
      level: 'error',
      path: 'DSCodeBench.json',
      item: 'DSCodeBench.json:4',
      message: 'missing or non-string field(s): code_problem, ground_truth_code, test_script',
    });
    expect(report.findings.map((f) => f.message)).toContain('3 usable problems; the release has 1,000');
    expect(report.source.url).toBe('https://github.com/ShuyinOuyang/DSCodeBench');
    expect(checkDsCodeBenchData(writeDsCodeBenchFile(temp()).file).ok).toBe(true);
    expect(checkDsCodeBenchData(temp()).findings[0]?.message).toMatch(/holds no DSCodeBench\.json/);
  });
});
