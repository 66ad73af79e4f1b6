/**
 * `witness data check --suite dscodebench`: the DSCodeBench file (`DSCodeBench.json`, JSON Lines
 * despite the name; a folder is searched for it) checked line by line with the suite's own loader,
 * every broken line naming file and line, problems counted per library and compared with the
 * release's 1,000.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { brokenLineFindings, dataReport, type DataFinding, type DataReport } from '../../../core/data-report.ts';
import { loadDsCodeBench } from './loader.ts';

/** Problems in the release. */
export const DSCODEBENCH_RELEASE_COUNT = 1000;
/** The file names a folder is searched for, in order (the repository's `benchmark/` has DSCodeBench.json). */
export const DSCODEBENCH_FILES = ['DSCodeBench.json', 'DS_bench.json', 'DSCodeBench.jsonl'];
const SOURCE = {
  name: 'DSCodeBench (GitHub ShuyinOuyang/DSCodeBench, benchmark/DSCodeBench.json)',
  url: 'https://github.com/ShuyinOuyang/DSCodeBench',
};

/** Checks a DSCodeBench file or a folder holding it (see the module comment). */
export function checkDsCodeBenchData(data: string): DataReport {
  const findings: DataFinding[] = [];
  const counts: Record<string, number> = {};
  const report = () => dataReport({ suite: 'dscodebench', data, counts, findings, source: SOURCE });
  if (!existsSync(data)) {
    findings.push({ level: 'error', path: data, message: 'does not exist' });
    return report();
  }
  let file = data;
  if (statSync(data).isDirectory()) {
    const names = readdirSync(data);
    const found = DSCODEBENCH_FILES.find((n) => names.includes(n));
    const nested = DSCODEBENCH_FILES.find((n) => existsSync(join(data, 'benchmark', n)));
    if (found) file = join(data, found);
    else if (nested) file = join(data, 'benchmark', nested);
    else {
      findings.push({
        level: 'error',
        path: data,
        message: `holds no ${DSCODEBENCH_FILES.join(' / ')} (nor benchmark/ with one)`,
      });
      return report();
    }
  }
  let loaded;
  try {
    loaded = loadDsCodeBench(file);
  } catch (error) {
    findings.push({ level: 'error', path: basename(file), message: (error as Error).message });
    return report();
  }
  counts.problems = loaded.tasks.length;
  for (const task of loaded.tasks) {
    const key = `library.${String(task.context?.library ?? 'unknown')}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  findings.push(...brokenLineFindings(basename(file), loaded.issues));
  if (loaded.tasks.length !== DSCODEBENCH_RELEASE_COUNT)
    findings.push({
      level: 'warning',
      path: basename(file),
      message: `${loaded.tasks.length} usable problems; the release has ${DSCODEBENCH_RELEASE_COUNT.toLocaleString('en')}`,
    });
  findings.push({
    level: 'info',
    message: 'no checksums of the DSCodeBench release are known offline, so the file was not compared with it',
  });
  return report();
}
