/**
 * Report writing on large runs: the nl-rx suite's trajectories (one sim run) replicated to 1k, 5k
 * and 20k episodes, written as results.json, summary.md, report.json and report.html. Prints wall
 * time and file sizes side by side (no pass/fail on time).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Trajectory } from '../core/types.ts';
import { readResultsFile } from '../reports/results-file.ts';
import { writeReports } from '../reports/write-reports.ts';
import { withoutSuiteData } from '../testing/child-env.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'witness-perf-report-'));
const run = spawnSync(
  process.execPath,
  [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'bench', 'suites/nl-rx.eval.ts'],
  {
    cwd: root,
    env: {
      ...withoutSuiteData(),
      WITNESS_OUT: join(dir, 'seed'),
      WITNESS_STORE: join(dir, 'store'),
      WITNESS_MODEL: 'sim',
    },
    encoding: 'utf8',
  },
);
if (run.status !== 0) throw new Error(`the seed run failed with status ${run.status}: ${run.stderr.slice(-2000)}`);
const seed = (await readResultsFile(join(dir, 'seed', 'results.json'))).trajectories;

const mb = (path: string) => (statSync(path).size / 1e6).toFixed(1);
console.log(`seed: ${seed.length} nl-rx trajectories (sim)`);
console.log('episodes | write all four (s) | results.json MB | report.html MB | report.json MB | html/results size');
for (const n of [1_000, 5_000, 20_000]) {
  // Copies become further trials of the same tasks, so grouping and pass@k see a realistic run.
  const trajectories: Trajectory[] = Array.from({ length: n }, (_, i) => {
    const t = seed[i % seed.length] as Trajectory;
    return { ...t, trial: Math.floor(i / seed.length) };
  });
  const out = join(dir, `n${n}`);
  const started = performance.now();
  const written = await writeReports(out, trajectories);
  const seconds = (performance.now() - started) / 1000;
  const ratio = statSync(written.html).size / statSync(written.results).size;
  console.log(
    `${String(n).padStart(8)} | ${seconds.toFixed(2).padStart(18)} | ${mb(written.results).padStart(15)} | ${mb(written.html).padStart(14)} | ${mb(written.reportJson).padStart(14)} | ${ratio.toFixed(2)}×`,
  );
}
