/**
 * `witness data check --suite bigcodebench`: a BigCodeBench file, or a folder with the full and
 * hard subsets (BIGCODEBENCH_FILES), checked line by line with the suite's own loader: every
 * broken line or task names file and line, counts are compared with the release (1,140 full, 148
 * hard), and the hard tasks must be among the full ones when both are there.
 */
import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { brokenLineFindings, dataReport, type DataFinding, type DataReport } from '../../../core/data-report.ts';
import { bigCodeBenchFile, loadBigCodeBench, type BigCodeBenchSubset } from './loader.ts';

/** Task counts of the release (v0.1.x). */
export const BIGCODEBENCH_RELEASE_COUNTS: Record<BigCodeBenchSubset, number> = { full: 1140, hard: 148 };
const SOURCE = {
  name: 'BigCodeBench (Hugging Face datasets bigcode/bigcodebench and bigcode/bigcodebench-hard)',
  url: 'https://huggingface.co/datasets/bigcode/bigcodebench',
};

/** Checks a BigCodeBench file or folder (see the module comment). */
export function checkBigCodeBenchData(data: string): DataReport {
  const findings: DataFinding[] = [];
  const counts: Record<string, number> = {};
  const report = () => dataReport({ suite: 'bigcodebench', data, counts, findings, source: SOURCE });
  if (!existsSync(data)) {
    findings.push({ level: 'error', path: data, message: 'does not exist' });
    return report();
  }
  const folder = statSync(data).isDirectory();
  const ids: Partial<Record<BigCodeBenchSubset, Set<string>>> = {};
  for (const subset of folder ? (['full', 'hard'] as const) : (['full'] as const)) {
    let file: string;
    try {
      file = bigCodeBenchFile(data, subset);
    } catch (error) {
      findings.push({ level: 'warning', path: data, message: (error as Error).message });
      continue;
    }
    let loaded;
    try {
      loaded = loadBigCodeBench(file);
    } catch (error) {
      findings.push({ level: 'error', path: basename(file), message: (error as Error).message });
      continue;
    }
    const name = folder ? subset : 'tasks';
    counts[name] = loaded.tasks.length;
    ids[subset] = new Set(loaded.tasks.map((t) => t.id));
    findings.push(...brokenLineFindings(basename(file), loaded.issues));
    const expected = BIGCODEBENCH_RELEASE_COUNTS[subset];
    if (folder && loaded.tasks.length !== expected)
      findings.push({
        level: 'warning',
        path: basename(file),
        message: `${loaded.tasks.length} usable tasks; the ${subset} release has ${expected.toLocaleString('en')}`,
      });
  }
  if (folder && !ids.full && !ids.hard)
    findings.push({ level: 'error', path: data, message: 'holds neither subset, so the suite cannot run on it' });
  if (ids.full && ids.hard) {
    const stray = [...ids.hard].filter((id) => !ids.full?.has(id));
    if (stray.length)
      findings.push({
        level: 'warning',
        message: `${stray.length} hard tasks are not in the full set (first: ${stray[0]})`,
      });
  }
  findings.push({
    level: 'info',
    message: 'no checksums of the BigCodeBench release are known offline, so the files were not compared with it',
  });
  return report();
}
