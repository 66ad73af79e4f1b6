/**
 * Result bombs against `witness eval bird` (prints figures, asserts nothing): `npx tsx perf/sql-bombs.ts [questions]`
 *
 * The real CLI (`bin/witness.js eval bird`) runs as a child process twice, side by side in one run:
 * on normal predictions (gold-as-prediction) and on result bombs (each question's prediction one
 * of the bombs below: millions of rows, gigabytes of blobs or text, single values SQLite builds at
 * a gigabyte, a 2 MB query). While it runs, /proc is polled every 10 ms and the resident memory of
 * the whole process tree (the CLI and its SQLite processes) summed; the peak is printed for both
 * runs with the wall time and the statuses. Target: the bomb run peaks under 1 GB. Linux only.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIRD_FIXTURES, readBirdQuestions, resolveBirdLayout } from '../oracles/sql/loader.ts';
import { descendants, residentBytes } from '../testing/processes/memory.ts';

const COUNTER = (n: number) => `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT ${n})`;
const BOMBS: Record<string, string> = {
  '3,000 × 1 MB blobs': `${COUNTER(3000)} SELECT zeroblob(1000000) FROM c`,
  '2,000 × 1 MB texts (2 GB)': `${COUNTER(2000)} SELECT printf('%.1000000c', 'x') FROM c`,
  '3,000,000 rows': `${COUNTER(3_000_000)} SELECT x, x * 1.5 FROM c`,
  'zeroblob(1e9)': 'SELECT zeroblob(1000000000)',
  'zeroblob(4e8)': 'SELECT zeroblob(400000000)',
  'zeroblob(2.5e8)': 'SELECT zeroblob(250000000)',
  "printf('%.*c', 2e9, 'x')": "SELECT printf('%.*c', 2000000000, 'x')",
  'a text doubling to 1 GB':
    "WITH RECURSIVE c(s, n) AS (SELECT 'x', 0 UNION ALL SELECT s || s, n + 1 FROM c WHERE n < 40) SELECT s FROM c",
  'group_concat of 2 GB': `SELECT group_concat(printf('%.1000000c', 'x')) FROM (${COUNTER(2000)} SELECT x FROM c)`,
  'a 2 MB query': `SELECT 1 WHERE 0 IN (${Array.from({ length: 300_000 }, (_, i) => i + 1).join(',')})`,
};

const limit = Number(process.argv[2] ?? 18);
const root = fileURLToPath(new URL('..', import.meta.url));
const layout = resolveBirdLayout(BIRD_FIXTURES);
const questions = readBirdQuestions(layout.questions).questions.slice(0, limit);
const dir = mkdtempSync(join(tmpdir(), 'witness-perf-sql-bombs-'));
symlinkSync(layout.databases, join(dir, 'dev_databases'));
const raw = JSON.parse(readFileSync(layout.questions, 'utf8')) as unknown[];
writeFileSync(join(dir, 'dev.json'), JSON.stringify(raw.slice(0, limit)));
const bombNames = Object.keys(BOMBS);
const files = {
  normal: questions.map((q) => q.SQL),
  bombs: questions.map((_, i) => BOMBS[bombNames[i % bombNames.length] as string] as string),
};

interface Run {
  peakBytes: number;
  wallMs: number;
  status: number | null;
  statuses: Record<string, number>;
}

/** Runs the CLI on one predictions file, sampling the tree's resident memory. */
function measure(name: keyof typeof files): Promise<Run> {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      Object.fromEntries(files[name].map((sql, i) => [String(i), `${sql}\t----- bird -----\t${questions[i]?.db_id}`])),
    ),
  );
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      join(root, 'bin/witness.js'),
      'eval',
      'bird',
      '--data',
      dir,
      '--predictions',
      file,
      '--json',
      '--no-gold-cache',
      '--jobs',
      String(availableParallelism()),
    ],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  let peak = 0;
  const timer = setInterval(() => {
    const pid = child.pid as number;
    const total = [pid, ...descendants(pid)].reduce((sum, p) => sum + residentBytes(p).rss, 0);
    peak = Math.max(peak, total);
  }, 10);
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  return new Promise((resolve) => {
    child.on('exit', (status) => {
      clearInterval(timer);
      const statuses: Record<string, number> = {};
      try {
        for (const q of (JSON.parse(stdout) as { questions: { status: string }[] }).questions)
          statuses[q.status] = (statuses[q.status] ?? 0) + 1;
      } catch {
        statuses['(no JSON output)'] = 1;
      }
      resolve({ peakBytes: peak, wallMs: performance.now() - started, status, statuses });
    });
  });
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;
console.log(
  `witness eval bird on ${questions.length} fixture questions, ${availableParallelism()} SQLite processes; bombs: ${bombNames.join(', ')}`,
);
try {
  const normal = await measure('normal');
  const bombs = await measure('bombs');
  for (const [label, run] of [
    ['normal predictions', normal],
    ['result bombs', bombs],
  ] as const) {
    const statuses = Object.entries(run.statuses)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ');
    console.log(
      `${label.padEnd(20)} peak RSS of the process tree ${mb(run.peakBytes).padStart(9)} · wall ${(run.wallMs / 1000).toFixed(1)} s · exit ${run.status} · ${statuses}`,
    );
  }
  console.log(
    `bombs / normal peak RSS: ${(bombs.peakBytes / normal.peakBytes).toFixed(2)}× · target: bombs under 1 GiB: ${bombs.peakBytes < 1024 ** 3 ? 'met' : 'NOT met'}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
