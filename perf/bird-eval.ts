/**
 * `witness eval bird` against BIRD's own evaluation algorithm (prints figures, asserts nothing on
 * time): `npx tsx perf/bird-eval.ts [--rounds N] [--full] [--cuts 1,10,100]`
 *
 * Two generated BIRD folders (perf/bird-workloads.ts, deterministic by seed), each scored side by
 * side in one run, alternating, N rounds (default 3, median):
 * - BIRD: perf/bird_reference_eval.py, BIRD's algorithm in Python (multiprocessing.Pool, a fresh
 *   sqlite3 connection per pair, predicted then gold with fetchall, set comparison, a per-pair
 *   timeout through func_timeout when installed, as BIRD's script), with 2 processes and with its
 *   run script's 16 capped by the cores;
 * - witness, first run: `node bin/witness.js eval bird --no-gold-cache`, start-up included, run
 *   from the package as a user installs it (bin/, dist/ and package.json copied to a folder of
 *   their own, dependencies from this checkout's node_modules): dist/ as built, without the
 *   freshness check the launcher makes in a source checkout (a stat of every source, ~7 ms), which
 *   the cuts time as well;
 * - witness, re-run: the same with `--gold-cache` filled by an earlier run.
 * Workloads: small (GeoQuery-like, one ~64 kB database, 900 cheap questions), large (BIRD-scale:
 * by default one ~25 MB database and 40 analytical questions so the script ends in a few minutes;
 * `--full` or WITNESS_PERF_BIRD_FULL=1: one ~100 MB database and 150 questions) and wide (the
 * large database of 350,000 transactions and 12 questions whose results list 10^4–10^5 rows and
 * more). Sizes can also be set one by one: --small-questions, --large-questions, --large-rows,
 * --large-databases, --wide-questions, --wide-rows.
 * Cuts: the small workload again with only a few questions (--cuts, default 1,10,100), first runs
 * only, where start-up decides.
 * Where NODE_EXTRA_CA_CERTS is set (Node 20 then parses its CA bundle as every process starts;
 * Python does not), witness's first run is timed both with the environment as it is and without
 * that variable, and the start-up of a bare Node and Python process is printed.
 * Every run's per-question verdicts must agree with BIRD's, or the script fails.
 * Also printed once: the start-up floor of any design like witness's — two Node processes, a parent
 * and a child that loads better-sqlite3 and answers one query, with nothing else.
 * Printed: wall times and the ratios BIRD / witness (targets: ≥ 1 everywhere, ≥ 3 on the large
 * first run, ≥ 10 on the large re-run), and next to them the CPU time (user + system) of each
 * evaluator's whole process tree, as /usr/bin/time reports it (children the evaluator waited for:
 * Python's pool workers, witness's SQLite processes), so that figures from a loaded machine can be
 * read: the load average is printed before and after each workload.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleness } from '../scripts/freshness.mjs';
import { generateWorkload, type Workload, type WorkloadOptions } from './bird-workloads.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const at = argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} needs a positive integer`);
  return value;
};
const full = argv.includes('--full') || process.env.WITNESS_PERF_BIRD_FULL === '1';
const cutsAt = argv.indexOf('--cuts');
const cutSizes = (cutsAt === -1 ? '1,10,100' : (argv[cutsAt + 1] ?? '')).split(',').map(Number);
if (cutSizes.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error('--cuts needs positive integers separated by commas');
const EXTRA_CA = 'NODE_EXTRA_CA_CERTS';
/** The environment without the CA bundle Node 20 would parse at start (null: the variable is not set). */
const withoutExtraCa: NodeJS.ProcessEnv | null =
  process.env[EXTRA_CA] === undefined
    ? null
    : Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== EXTRA_CA));
const rounds = flag('rounds', 3);
const cores = availableParallelism();
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** `witness` run from this source checkout (the launcher checks that dist/ is current first). */
const CHECKOUT_BIN = join(ROOT, 'bin/witness.js');
const REFERENCE = fileURLToPath(new URL('bird_reference_eval.py', import.meta.url));
const TIMEOUT_S = 30;

/**
 * The interpreter itself, not whatever `python3` on PATH is: a version manager's shim (pyenv's is a
 * bash script) would add its own start-up, tens of milliseconds, to every BIRD run.
 */
const PYTHON = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim();
if (!PYTHON) throw new Error('python3 is needed (BIRD’s algorithm runs in it)');

const TIME = '/usr/bin/time';
const withTime = existsSync(TIME);
const CPU_MARK = 'witness-perf-cpu';

interface Timed {
  wallMs: number;
  /** User + system CPU of the process and the children it waited for; null without /usr/bin/time. */
  cpuMs: number | null;
  res: number[];
}

/** User + system seconds from the last line /usr/bin/time wrote to stderr (`<mark> %U %S`), in ms. */
function cpuFrom(stderr: string): number | null {
  const line = stderr
    .split('\n')
    .reverse()
    .find((l) => l.startsWith(CPU_MARK));
  const [user, system] = (line ?? '').split(' ').slice(1).map(Number);
  return user === undefined || system === undefined || Number.isNaN(user + system) ? null : (user + system) * 1000;
}

function timed(
  command: string,
  args: string[],
  read: (stdout: string) => number[],
  env: NodeJS.ProcessEnv = process.env,
): Timed {
  const [program, argv] = withTime ? [TIME, ['-f', `${CPU_MARK} %U %S`, command, ...args]] : [command, args];
  const started = performance.now();
  const run = spawnSync(program, argv, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, env });
  const wallMs = performance.now() - started;
  if (run.status !== 0 && run.status !== 1)
    throw new Error(`${command} ${args.join(' ')} failed (${run.status ?? run.signal}): ${run.stderr}`);
  return { wallMs, cpuMs: withTime ? cpuFrom(run.stderr) : null, res: read(run.stdout) };
}

function bird(w: Workload, processes: number, out: string): Timed {
  return timed(
    PYTHON,
    [
      REFERENCE,
      join(w.dir, 'dev.json'),
      w.predictions,
      join(w.dir, 'dev_databases'),
      String(processes),
      String(TIMEOUT_S),
      out,
    ],
    () => (JSON.parse(readFileSync(out, 'utf8')) as { res: number[] }).res,
  );
}

/**
 * The package as installed, in a temporary folder: what `npm install` puts in node_modules/witness
 * (bin/witness.js, dist/, package.json), its dependencies this checkout's. dist/ must be current.
 */
function installedPackage(): string {
  const stale = staleness(ROOT);
  if (stale) throw new Error(`${stale}: run \`npm run build\` first, so that the installed command is this code`);
  const dir = mkdtempSync(join(tmpdir(), 'witness-perf-installed-'));
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  mkdirSync(join(dir, 'bin'));
  copyFileSync(CHECKOUT_BIN, join(dir, 'bin/witness.js'));
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}
const INSTALLED = installedPackage();
process.on('exit', () => rmSync(INSTALLED, { recursive: true, force: true }));
/** `witness` as a user who installed the package runs it. */
const BIN = join(INSTALLED, 'bin/witness.js');

/**
 * The start-up floor of any evaluator built like witness (a Node command and a SQLite child process
 * it talks to over IPC): a parent that starts a child with an empty environment, sends it one query,
 * prints the rows and kills it; the child loads better-sqlite3, opens the database read-only and runs
 * the query. No CLI, no checks, no limits. `node -e FLOOR_PARENT <database> <sql>`.
 */
const FLOOR_PARENT = `
const { spawn } = require('node:child_process');
const [db, sql] = process.argv.slice(1);
const child = spawn(process.execPath, ['-e', ${JSON.stringify(
  `process.on('message', ({ db, sql, driver }) => { const Database = require(driver); process.send(new Database(db, { readonly: true }).prepare(sql).raw().all()); });`,
)}], { env: {}, stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced' });
child.send({ db, sql, driver: ${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))} });
child.on('message', (rows) => { process.stdout.write(JSON.stringify(rows) + '\\n'); child.kill('SIGKILL'); });
`;

function witness(w: Workload, goldCache: string | null, env?: NodeJS.ProcessEnv, bin = BIN): Timed {
  const cache = goldCache ? ['--gold-cache', goldCache] : ['--no-gold-cache'];
  return timed(
    process.execPath,
    [
      bin,
      'eval',
      'bird',
      '--data',
      w.dir,
      '--predictions',
      w.predictions,
      '--json',
      '--timeout',
      String(TIMEOUT_S),
      ...cache,
    ],
    (stdout) => (JSON.parse(stdout) as { questions: { res: number }[] }).questions.map((q) => q.res),
    env,
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

function agree(name: string, reference: number[], other: Timed): void {
  const differing = reference.flatMap((r, i) => (other.res[i] === r ? [] : [i]));
  if (differing.length > 0 || other.res.length !== reference.length)
    throw new Error(
      `${name} disagrees with BIRD's algorithm on ${differing.length} questions (positions ${differing.slice(0, 10).join(', ')})`,
    );
}

/**
 * Runs each variant once a round, alternating, for `n` rounds; every run's verdicts must agree
 * with the first run's. Wall and CPU times by variant name.
 */
function alternate(
  variants: [string, () => Timed][],
  n: number,
): { walls: Map<string, number[]>; cpu: Map<string, number[]>; reference: number[] } {
  const walls = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  const cpu = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  let reference: number[] | null = null;
  for (let round = 0; round < n; round++) {
    for (const [name, run] of variants) {
      const result = run();
      reference ??= result.res;
      agree(name, reference, result);
      walls.get(name)?.push(result.wallMs);
      if (result.cpuMs !== null) cpu.get(name)?.push(result.cpuMs);
    }
  }
  return { walls, cpu, reference: reference ?? [] };
}

function compare(label: string, options: WorkloadOptions): void {
  const dir = mkdtempSync(join(tmpdir(), 'witness-perf-bird-'));
  try {
    const t0 = performance.now();
    const w = generateWorkload(dir, options);
    const mix = Object.entries(w.mix)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    console.log(
      `\n${label}: ${w.questions} questions on ${(w.databaseBytes / 1024 / 1024).toFixed(1)} MB of SQLite (${mix}; generated in ${seconds(performance.now() - t0)})`,
    );
    const goldCache = join(dir, 'gold-cache.sqlite');
    witness(w, goldCache); // fills the gold cache: the re-runs are "the next evaluation of this dev set"
    const sixteen = Math.min(16, cores);
    const variants: [string, () => Timed][] = [
      ['BIRD algorithm, 2 processes', () => bird(w, 2, join(dir, 'bird-2.json'))],
      ...(sixteen !== 2
        ? [
            [`BIRD algorithm, ${sixteen} processes`, () => bird(w, sixteen, join(dir, 'bird-16.json'))] as [
              string,
              () => Timed,
            ],
          ]
        : []),
      ['witness eval bird, first run (no gold cache)', () => witness(w, null)],
      ['witness eval bird, re-run (gold cache warm)', () => witness(w, goldCache)],
      ...(withoutExtraCa
        ? [
            [`witness eval bird, first run, no ${EXTRA_CA}`, () => witness(w, null, withoutExtraCa)] as [
              string,
              () => Timed,
            ],
          ]
        : []),
    ];
    const loadBefore = load();
    const { walls, cpu, reference } = alternate(variants, rounds);
    const correct = reference.filter((r) => r === 1).length;
    console.log(
      `  ${correct}/${w.questions} correct by every evaluator; median of ${rounds} rounds (load average ${loadBefore} before, ${load()} after):`,
    );
    const base = 'BIRD algorithm, 2 processes';
    const baseline = median(walls.get(base) ?? []);
    const baseCpu = withTime ? median(cpu.get(base) ?? []) : NaN;
    console.log(`  ${''.padEnd(52)} ${'wall'.padStart(9)}${withTime ? `  ${'CPU'.padStart(9)}` : ''}`);
    for (const [name] of variants) {
      const wall = median(walls.get(name) ?? []);
      const cpuMs = withTime ? median(cpu.get(name) ?? []) : NaN;
      const cpuCell = withTime ? `  ${seconds(cpuMs).padStart(9)}` : '';
      const ratio = name.startsWith('BIRD')
        ? ''
        : `  → ${(baseline / wall).toFixed(2)}× faster than BIRD (2 processes)${withTime ? `; BIRD's CPU / witness's ${(baseCpu / cpuMs).toFixed(2)}×` : ''}`;
      console.log(`  ${name.padEnd(52)} ${seconds(wall).padStart(9)}${cpuCell}${ratio}`);
    }
    if (!withTime) console.log(`  (no ${TIME}: CPU times not measured)`);
    if (sixteen === 2)
      console.log(`  (BIRD's run script asks for 16 processes; capped by the ${cores} cores it is the 2-process run)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** First runs on the small workload cut to a few questions: start-up against BIRD's. */
function cuts(sizes: number[]): void {
  const cutRounds = Math.max(rounds, 7);
  console.log(`\nfew questions (small workload, first runs; median of ${cutRounds} rounds, load average ${load()}):`);
  for (const questions of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'witness-perf-bird-cut-'));
    try {
      const w = generateWorkload(dir, { kind: 'small', questions });
      const runs: [string, () => Timed][] = [
        ['BIRD', () => bird(w, 2, join(dir, 'bird.json'))],
        ['witness', () => witness(w, null)],
        ['witness from this checkout', () => witness(w, null, undefined, CHECKOUT_BIN)],
        ...(withoutExtraCa
          ? [[`witness, no ${EXTRA_CA}`, () => witness(w, null, withoutExtraCa)] as [string, () => Timed]]
          : []),
      ];
      const { walls } = alternate(runs, cutRounds);
      const [baseline, ...others] = runs.map(([name]) => median(walls.get(name) ?? [])) as [number, ...number[]];
      const ms = (wall: number) => `${wall.toFixed(0)} ms`; // start-up differences are a few ms
      const cells = others.map((wall, i) => `${runs[i + 1]?.[0]} ${ms(wall)} (${(baseline / wall).toFixed(2)}×)`);
      console.log(`  ${String(questions).padStart(4)} questions: BIRD ${ms(baseline)}; ${cells.join('; ')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** Median wall time of a command that does nothing but start, in ms. */
function startup(command: string, args: string[], env?: NodeJS.ProcessEnv): number {
  return median(Array.from({ length: 11 }, () => timed(command, args, () => [], env).wallMs));
}

console.log(
  `${cores} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, witness installed from this checkout's dist/, ${PYTHON}; per-pair timeout ${TIMEOUT_S} s`,
);
const bare = [
  `node -e 0 ${startup(process.execPath, ['-e', '0']).toFixed(0)} ms`,
  ...(withoutExtraCa
    ? [`without ${EXTRA_CA} ${startup(process.execPath, ['-e', '0'], withoutExtraCa).toFixed(0)} ms`]
    : []),
  `python3 -c 0 ${startup(PYTHON, ['-c', '0']).toFixed(0)} ms`,
];
const funcTimeout = spawnSync(PYTHON, ['-c', 'import func_timeout; print(func_timeout.__version__)'], {
  encoding: 'utf8',
}).stdout.trim();
console.log(
  funcTimeout
    ? `BIRD's per-pair timeout through func_timeout ${funcTimeout}, as its script does`
    : "BIRD's per-pair timeout through func_timeout's mechanism (a thread and join): func_timeout is not installed for this python3 (pip install func_timeout==4.3.5 times BIRD's script exactly: it imports the library, a few ms of start-up)",
);
console.log(`start-up of a bare process: ${bare.join('; ')}`);
const floorDir = mkdtempSync(join(tmpdir(), 'witness-perf-bird-floor-'));
try {
  const w = generateWorkload(floorDir, { kind: 'small', questions: 1 });
  const [question] = JSON.parse(readFileSync(join(w.dir, 'dev.json'), 'utf8')) as { SQL: string; db_id: string }[];
  if (!question) throw new Error('the one-question workload has no question');
  const args = [join(w.dir, 'dev_databases', question.db_id, `${question.db_id}.sqlite`), question.SQL];
  const floors = [
    `${startup(process.execPath, ['-e', FLOOR_PARENT, ...args]).toFixed(0)} ms`,
    ...(withoutExtraCa
      ? [
          `without ${EXTRA_CA} ${startup(process.execPath, ['-e', FLOOR_PARENT, ...args], withoutExtraCa).toFixed(0)} ms`,
        ]
      : []),
  ];
  console.log(
    `the least two Node processes can take to answer one question (a parent starts a child, which loads better-sqlite3 and runs the gold): ${floors.join('; ')}`,
  );
} finally {
  rmSync(floorDir, { recursive: true, force: true });
}
if (cutSizes.length > 0) cuts(cutSizes);
compare('small (GeoQuery-like)', { kind: 'small', questions: flag('small-questions', 900) });
compare('large (BIRD-scale)', {
  kind: 'large',
  questions: flag('large-questions', full ? 150 : 40),
  rows: flag('large-rows', full ? 1_400_000 : 350_000),
  databases: flag('large-databases', 1),
});
compare('wide results (listings)', {
  kind: 'wide',
  questions: flag('wide-questions', 12),
  rows: flag('wide-rows', 350_000),
});
