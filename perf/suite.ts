/**
 * Wall time of the whole nl-rx suite with the sim model (37 tasks × every strategy), through the real
 * `vitest run --project bench`, against the 15 s target; run several times, reported with the median.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../core/config.ts';
import { withoutSuiteData } from '../testing/child-env.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const TARGET_S = 15;
const runs = loadConfig().config.perf.suiteRuns;
const times: number[] = [];
let shape = '';
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'witness-perf-'));
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'bench', 'suites/nl-rx.eval.ts'],
    {
      cwd: root,
      env: {
        ...withoutSuiteData(),
        WITNESS_OUT: join(dir, 'out'),
        WITNESS_STORE: join(dir, 'store'),
        WITNESS_MODEL: 'sim',
      },
      encoding: 'utf8',
    },
  );
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) {
    console.error(run.stdout.slice(-2000), run.stderr.slice(-2000));
    throw new Error(`the bench run failed with status ${run.status}`);
  }
  times.push(seconds);
  const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as {
    trajectories: { taskId: string; strategy: string }[];
  };
  shape = `${new Set(results.trajectories.map((t) => t.taskId)).size} tasks × ${new Set(results.trajectories.map((t) => t.strategy)).size} strategies`;
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] as number;
console.log(
  `nl-rx suite, sim, ${shape}: wall ${times.map((t) => t.toFixed(2)).join(' / ')} s (median ${median.toFixed(2)} s)`,
);
console.log(
  `  target ${TARGET_S} s → median is ${(median / TARGET_S).toFixed(2)}× the target (${median <= TARGET_S ? 'within' : 'OVER'})`,
);
