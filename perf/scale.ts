/**
 * Runs and reports at full size, through real vitest processes, printing figures beside the bounds:
 * (a) a 10,000-episode sim run (2,000 generated NL-RX-style regex tasks × 5 strategies, or the real
 *     NL-RX-Turk's golds × 1 when WITNESS_NLRX_DATA is set): peak RSS of the main vitest process and
 *     of each worker, wall time and the reporter's report-writing time;
 * (b) 8 shards of 20,000 synthetic episodes in all (blob reporter), merged with --merge-reports:
 *     peak RSS and time, with compact task meta (now) beside full trajectories on meta (before);
 * (c) the report page of those 20,000 episodes: size and headless-Chromium open time, beside the
 *     self-contained page with every trajectory inlined (the writer before).
 * Peak RSS is each process's VmHWM from /proc, polled over the process tree while it runs.
 * Options: `--tasks=N` generated tasks for (a) (default 2,000); `--seed-results=PATH` skips (a).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Trajectory } from '../core/types.ts';
import { browserInstalled, launchBrowser } from '../reports/__fixtures__/browser.ts';
import { renderHtml } from '../reports/html.ts';
import { buildReport } from '../reports/report-data.ts';
import { scanResultsFile } from '../reports/results-stream.ts';
import { measureTree, type TreePeaks } from './process-tree.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = (path: string) => JSON.stringify(pathToFileURL(join(root, path)).href);
const vitestCli = join(root, 'node_modules/vitest/vitest.mjs');
const dir = mkdtempSync(join(tmpdir(), 'witness-perf-scale-'));
const RSS_BOUND_MB = 500;
const REPORT_BOUND_S = 10;
const PAGE_BOUND_MB = 50;
const OPEN_BOUND_S = 3;
/** `--tasks=N`: generated tasks of (a) (default 2,000: 10,000 episodes). */
const TASKS = Number(/^--tasks=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--tasks=')) ?? '')?.[1] ?? 2_000);
const STRATEGIES = ['zero-shot', 'generic', 'error-only', 'diagnostic', 'one-example'];

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
const verdict = (value: number, bound: number) => (value <= bound ? 'within' : 'OVER');

/** A vitest project in `folder`: the given test files, our reporter, the bench project's settings. */
function writeProject(folder: string, include: string): string {
  mkdirSync(folder, { recursive: true });
  const config = join(folder, 'vitest.config.mjs');
  writeFileSync(
    config,
    `export default { test: { include: [${JSON.stringify(include)}], execArgv: ['--enable-experimental-regexp-engine-on-excessive-backtracks'], testTimeout: 600000, maxConcurrency: 16, reporters: ['default', ${JSON.stringify(join(root, 'reports/reporter.ts'))}] } };\n`,
  );
  return config;
}

async function vitest(
  folder: string,
  args: string[],
  env: Record<string, string>,
): Promise<TreePeaks & { output: string }> {
  const child = spawn(process.execPath, [vitestCli, 'run', '--root', folder, ...args], {
    cwd: folder,
    env: { ...cleanEnv(), NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const peaks = await measureTree(child);
  if (peaks.status !== 0) throw new Error(`vitest ${args.join(' ')} failed (${peaks.status}):\n${output.slice(-3000)}`);
  return { ...peaks, output };
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST') delete env[key];
  return env;
}

const writtenIn = (output: string) => Number(/Witness reports written in ([\d.]+) s/.exec(output)?.[1] ?? NaN);

// ------------------------------------------------------------------ (a) a 10,000-episode sim run
/** 2,000 distinct NL-RX-style tasks (src.txt / targ.txt) from word and shape templates. */
function synthesizeNlRx(folder: string, count: number): void {
  const words =
    'dog truck cat ring lake tree bird fish moon star rain wind fire rock leaf rose wolf bear ship road'.split(' ');
  const shapes: [string, (a: string, b: string) => string, (a: string, b: string) => string][] = [
    ['lines containing', (a) => `.*${a}.*`, (a) => `the string '${a}'`],
    ['lines starting with', (a) => `${a}.*`, (a) => `the string '${a}'`],
    ['lines ending with', (a) => `.*${a}`, (a) => `the string '${a}'`],
    ['lines containing', (a, b) => `.*(${a}|${b}).*`, (a, b) => `'${a}' or '${b}'`],
    ['lines containing', (a, b) => `.*${a}.*${b}.*`, (a, b) => `'${a}' followed by '${b}'`],
    ['lines containing', (a, b) => `.*${a}.*[0-9].*${b}.*`, (a, b) => `'${a}', a digit, then '${b}'`],
    ['lines starting with', (a, b) => `(${a}|${b}).*`, (a, b) => `'${a}' or '${b}'`],
    ['lines ending with', (a, b) => `.*(${a}|${b})`, (a, b) => `'${a}' or '${b}'`],
    ['lines containing a digit and', (a) => `.*[0-9].*${a}.*`, (a) => `then '${a}'`],
    ['lines containing a capital letter and', (a) => `.*[A-Z].*${a}.*`, (a) => `then '${a}'`],
  ];
  const src: string[] = [];
  const targ: string[] = [];
  for (const [lead, gold, text] of shapes)
    for (const a of words)
      for (const b of words) {
        if (src.length >= count) break;
        if (a === b) continue;
        const regex = gold(a, b);
        if (targ.includes(regex)) continue;
        targ.push(regex);
        src.push(`${lead} ${text(a, b)}`);
      }
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'src.txt'), `${src.join('\n')}\n`);
  writeFileSync(join(folder, 'targ.txt'), `${targ.join('\n')}\n`);
}

async function simRun(): Promise<string> {
  const project = join(dir, 'sim');
  const real = process.env.WITNESS_NLRX_DATA ?? process.env.NLRX_TURK_DIR;
  const data = real ?? join(project, 'data');
  if (!real) synthesizeNlRx(data, TASKS);
  const strategies = real ? ['zero-shot'] : STRATEGIES;
  const config = writeProject(project, '*.eval.ts');
  const parts = 4;
  for (let part = 0; part < parts; part++) {
    writeFileSync(
      join(project, `part-${part}.eval.ts`),
      `import { defineBenchmark } from ${src('core/suite.ts')};
import { loadNlRx } from ${src('oracles/regex/loader.ts')};
import { regexOracle } from ${src('oracles/regex/oracle.ts')};
import { buildStrategies } from ${src('strategies/index.ts')};
const all = loadNlRx(${JSON.stringify(data)});
const size = Math.ceil(all.tasks.length / ${parts});
defineBenchmark({
  name: 'nl-rx-scale',
  tasks: { tasks: all.tasks.slice(${part} * size, ${part + 1} * size), issues: ${part === 0 ? 'all.issues' : '[]'} },
  oracle: regexOracle(),
  prompt: ${JSON.stringify(join(root, 'prompts/nl-rx.md'))},
  strategies: buildStrategies({ examples: () => [], heroReport: '' }, ${JSON.stringify(strategies)}),
});
`,
    );
  }
  const out = join(project, 'out');
  const started = performance.now();
  const run = await vitest(project, ['--config', config], {
    WITNESS_MODEL: 'sim',
    WITNESS_OUT: out,
    WITNESS_STORE: join(project, 'store'),
    WITNESS_RUN_ID: 'scale-sim',
  });
  const seconds = (performance.now() - started) / 1000;
  const episodes = Number(/Witness reports written in [\d.]+ s \((\d+) episodes\)/.exec(run.output)?.[1] ?? NaN);
  console.log(
    `(a) sim run: ${episodes} episodes (${real ? 'NL-RX-Turk golds × 1 strategy' : `${TASKS} generated NL-RX-style tasks × 5 strategies`}), wall ${seconds.toFixed(0)} s`,
  );
  console.log(
    `    peak RSS main ${run.mainMb.toFixed(0)} MB | workers ${run.workerMb.map((m) => m.toFixed(0)).join(' / ')} MB | bound ${RSS_BOUND_MB} MB each → ${verdict(Math.max(run.mainMb, ...run.workerMb), RSS_BOUND_MB)}`,
  );
  const report = writtenIn(run.output);
  console.log(
    `    reports written in ${report.toFixed(1)} s | bound ${REPORT_BOUND_S} s → ${verdict(report, REPORT_BOUND_S)}`,
  );
  return join(out, 'results.json');
}

// ------------------------------------------------------------------ (b) 8 shards merged
async function shardsMerged(mode: 'compact' | 'full' | 'none'): Promise<{ out: string; seconds: number }> {
  const project = join(dir, `shards-${mode}`);
  const config = writeProject(project, '*.test.ts');
  const seedFile = join(dir, 'seed.json');
  const shards = 8;
  const perShard = 20_000 / shards;
  for (let shard = 0; shard < shards; shard++) {
    writeFileSync(
      join(project, `shard-${shard}.test.ts`),
      `import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { loadConfig } from ${src('core/config.ts')};
import { openRunSession } from ${src('core/session.ts')};
const seed = JSON.parse(readFileSync(${JSON.stringify(seedFile)}, 'utf8'));
const strategies = ${JSON.stringify(STRATEGIES)};
const session = openRunSession({ benchmark: 'scale', config: loadConfig().config, modelName: 'sim', settings: {}, strategies: [], taskIds: [], trials: 1 });
for (let i = ${shard * perShard}; i < ${(shard + 1) * perShard}; i++) {
  it.concurrent('episode ' + i, ({ task }) => {
    const s = seed[i % seed.length];
    const t = { ...s, benchmark: 'scale', runId: session.runId, taskId: String(Math.floor(i / strategies.length)), strategy: strategies[i % strategies.length], trial: 0 };
    ${{ full: 'task.meta.witness = t; session.store.save(t);', compact: 'session.record(task.meta, t);', none: 'void t;' }[mode]}
  });
}
`,
    );
  }
  const env = {
    WITNESS_STORE: join(project, 'store'),
    WITNESS_RUN_ID: `scale-${mode}`,
    WITNESS_OUT: join(project, 'shard-out'),
  };
  for (let shard = 1; shard <= shards; shard++)
    await vitest(
      project,
      [
        '--config',
        config,
        `--shard=${shard}/${shards}`,
        '--reporter=blob',
        `--outputFile.blob=${join(project, 'blobs', `blob-${shard}.json`)}`,
      ],
      env,
    );
  const blobMb =
    readdirSync(join(project, 'blobs')).reduce((sum, n) => sum + statSync(join(project, 'blobs', n)).size, 0) / 1e6;
  const out = join(project, 'out');
  const started = performance.now();
  const merged = await vitest(
    project,
    [
      '--config',
      config,
      `--merge-reports=${join(project, 'blobs')}`,
      '--reporter=default',
      `--reporter=${join(root, 'reports/reporter.ts')}`,
    ],
    { ...env, WITNESS_OUT: out },
  );
  const seconds = (performance.now() - started) / 1000;
  const label = {
    compact: 'compact meta (now)       ',
    full: 'full meta (before)       ',
    none: 'no meta (vitest itself) ',
  }[mode];
  console.log(
    `    ${label} | blobs ${blobMb.toFixed(0).padStart(4)} MB | merge peak RSS ${merged.mainMb.toFixed(0).padStart(5)} MB (bound ${RSS_BOUND_MB} → ${verdict(merged.mainMb, RSS_BOUND_MB)}) | merge ${seconds.toFixed(1)} s${mode === 'none' ? '' : `, reports ${writtenIn(merged.output).toFixed(1)} s`}`,
  );
  return { out, seconds };
}

// ------------------------------------------------------------------ (c) the report page
async function openTime(page: string): Promise<number> {
  const context = await launchBrowser();
  try {
    const tab = await context.newPage();
    const started = performance.now();
    await tab.goto(pathToFileURL(page).href, { timeout: 120_000 });
    await tab.waitForFunction("document.body.dataset.ready === 'true'", undefined, { timeout: 120_000 });
    return (performance.now() - started) / 1000;
  } finally {
    await context.close();
  }
}

function folderBytes(path: string): number {
  let total = 0;
  for (const name of readdirSync(path)) total += statSync(join(path, name)).size;
  return total;
}

/** `--seed-results=PATH`: skip (a) and take the seed trajectories from an earlier run's results.json. */
const given = /^--seed-results=(.+)$/.exec(process.argv.find((a) => a.startsWith('--seed-results=')) ?? '')?.[1];
const seedResults = given ?? (await simRun());
const seed: Trajectory[] = [];
await scanResultsFile(seedResults, (t) => {
  if (seed.length < 1_000) seed.push(t);
});
writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed));
console.log(
  `(b) 8 shards (--shard, blob reporter) of 20,000 synthetic episodes in all, from ${seed.length} sim trajectories, merged with --merge-reports:`,
);
const compact = await shardsMerged('compact');
await shardsMerged('full');
await shardsMerged('none');

const page = join(compact.out, 'report.html');
const pageMb = statSync(page).size / 1e6;
const dataMb = folderBytes(join(compact.out, 'report-data')) / 1e6;
console.log(
  `(c) report page at 20,000 episodes: report.html ${pageMb.toFixed(1)} MB (bound ${PAGE_BOUND_MB} → ${verdict(pageMb, PAGE_BOUND_MB)}), report-data/ ${dataMb.toFixed(0)} MB in ${readdirSync(join(compact.out, 'report-data')).length} task scripts`,
);
// The page as written before: every trajectory view inlined.
const all: Trajectory[] = [];
await scanResultsFile(join(compact.out, 'results.json'), (t) => all.push(t));
const { report, views } = buildReport(all);
const inlined = join(dir, 'inlined.html');
writeFileSync(inlined, renderHtml(report, views));
all.length = 0;
if (browserInstalled()) {
  const lazy = await openTime(page);
  const before = await openTime(inlined);
  console.log(
    `    open in headless Chromium: ${lazy.toFixed(2)} s (bound ${OPEN_BOUND_S} s → ${verdict(lazy, OPEN_BOUND_S)}) | inlined page (before): ${mb(statSync(inlined).size)} MB, ${before.toFixed(2)} s → ${(before / lazy).toFixed(1)}× slower`,
  );
} else console.log('    (Chromium is not installed: open times not measured; run .ci/setup.d/40-browser.sh)');
