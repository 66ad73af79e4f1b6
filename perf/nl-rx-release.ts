/**
 * The whole NL-RX-Turk release through `witness bench` (prints figures, asserts nothing):
 * `WITNESS_NLRX_DATA=<folder> npx tsx perf/nl-rx-release.ts [--strategies=zero-shot] [--hardening=off]`
 *
 * One command — `witness bench --suite nl-rx --strategies <one>` with the sim model and hardening
 * on — over all 10,000 tasks, in a temporary output folder and run store. Prints the wall time,
 * the peak RSS of every process of the tree (VmHWM from /proc: the `witness` command, vitest's main
 * process and each bench part's worker), how many worker processes wrote trajectories (the parts
 * at work), and whether every task ended in the results exactly once (golds that denote the empty
 * language are recorded as failed episodes too), beside the bounds: 5 minutes, 500 MB a process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../core/config.ts';
import { findNlRxTurk, loadNlRx } from '../oracles/regex/loader.ts';
import { readResultsFile } from '../reports/results-file.ts';
import { measureTree } from './process-tree.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const option = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? undefined;
const strategy = option('strategies') ?? 'zero-shot';
const hardening = option('hardening') !== 'off';
const WALL_BOUND_S = 300;
const RSS_BOUND_MB = 500;

const data = findNlRxTurk(loadConfig().config.suites['nl-rx'].data);
if (!data) {
  console.error('set WITNESS_NLRX_DATA to the NL-RX-Turk folder (src.txt and targ.txt)');
  process.exit(1);
}
const tasks = loadNlRx(data);
const dir = mkdtempSync(join(tmpdir(), 'witness-perf-nlrx-'));
const env = {
  ...process.env,
  WITNESS_NLRX_DATA: data,
  WITNESS_MODEL: 'sim',
  WITNESS_OUT: join(dir, 'out'),
  WITNESS_STORE: join(dir, 'store'),
  WITNESS_RUN_ID: 'release',
  WITNESS_HARDENING: hardening ? '1' : '0',
  NO_COLOR: '1',
};
const started = performance.now();
const child = spawn(
  process.execPath,
  [join(root, 'bin/witness.js'), 'bench', '--suite', 'nl-rx', '--strategies', strategy],
  {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let output = '';
child.stdout.on('data', (d: Buffer) => (output += d.toString()));
child.stderr.on('data', (d: Buffer) => (output += d.toString()));
const peaks = await measureTree(child);
const seconds = (performance.now() - started) / 1000;

const results = await readResultsFile(join(dir, 'out', 'results.json'));
const planned = tasks.tasks.length + tasks.issues.length;
const ids = results.trajectories.map((t) => t.taskId);
const once = new Set(ids).size === ids.length && ids.length === planned;
const statuses = new Map<string, number>();
for (const t of results.trajectories) statuses.set(t.outcome.status, (statuses.get(t.outcome.status) ?? 0) + 1);
const writers = readdirSync(join(dir, 'store', 'release', 'trajectories')).length;
const largest = Math.max(peaks.mainMb, ...peaks.workerMb);
const within = (value: number, bound: number) => (value <= bound ? 'within' : 'OVER');

console.log(
  `NL-RX-Turk release × ${strategy}, sim, hardening ${hardening ? 'on' : 'off'}: ${ids.length} episodes of ${planned} planned, each once: ${once ? 'yes' : 'NO'} (exit status ${peaks.status})`,
);
console.log(`  outcomes: ${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')}`);
console.log(
  `  wall ${seconds.toFixed(0)} s (${(ids.length / seconds).toFixed(1)} episodes/s) | bound ${WALL_BOUND_S} s → ${within(seconds, WALL_BOUND_S)}`,
);
console.log(
  `  peak RSS: witness ${peaks.mainMb.toFixed(0)} MB | ${peaks.workers.map((w) => `${w.script} ${w.mb.toFixed(0)} MB`).join(' | ')} | bound ${RSS_BOUND_MB} MB each → ${within(largest, RSS_BOUND_MB)}`,
);
console.log(`  worker processes that recorded episodes: ${writers}`);
const written = /Witness reports written in [\d.]+ s/.exec(output)?.[0];
if (written) console.log(`  ${written}`);
rmSync(dir, { recursive: true, force: true });
