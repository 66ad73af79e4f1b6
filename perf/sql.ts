/**
 * BIRD evaluator benchmark (prints figures, asserts nothing): `npx tsx perf/sql.ts [repeat]`
 *
 * The fixture questions, repeated `repeat` times (default 20), scored two ways side by side in one
 * run, alternating, median of 3 rounds each:
 * - naive: one process, one connection opened per question, predicted then gold run sequentially
 *   (what BIRD's script does per question, minus its process pool), same comparison code;
 * - witness: `evaluateBird` (the code behind `witness eval bird`), pool start-up included.
 * Predictions: gold-as-prediction, and mutated predictions (one result-changing mutation each).
 * - witness, next runs: the same with gold results kept from an earlier run (`--gold-cache`), what
 *   every evaluation after the first one on a dev set gets.
 * Printed: wall times, the speedups (target ≥ 3× on 2 cores), and wall time over the time SQLite
 * itself spent executing the queries (target ≤ 1.5×); then the warm pool's per-query overhead.
 * The machine's other load shows in the figures: run it on a quiet machine for clean numbers.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Rng } from '../core/random.ts';
import {
  BIRD_FIXTURES,
  birdDatabasePath,
  readBirdQuestions,
  resolveBirdLayout,
  type BirdQuestion,
} from '../oracles/sql/loader.ts';
import { resultsEqual } from '../oracles/sql/compare.ts';
import { evaluateBird } from '../oracles/sql/evaluate.ts';
import { sqlMutants } from '../oracles/sql/mutate.ts';
import { SqlPool } from '../oracles/sql/pool.ts';
import { readSchema } from '../oracles/sql/schema.ts';
import { prepareStatement } from '../oracles/sql/sql-text.mjs';

const repeat = Number(process.argv[2] ?? 20);
const layout = resolveBirdLayout(BIRD_FIXTURES);
const base = readBirdQuestions(layout.questions).questions;

// A BIRD folder with the questions repeated (fresh ids), sharing the fixture databases.
const dir = mkdtempSync(join(tmpdir(), 'witness-perf-sql-'));
symlinkSync(layout.databases, join(dir, 'dev_databases'));
const questions: BirdQuestion[] = Array.from({ length: repeat }, (_, r) =>
  base.map((q, i) => ({ ...q, index: r * base.length + i, question_id: r * base.length + i })),
).flat();
writeFileSync(join(dir, 'dev.json'), JSON.stringify(questions.map(({ index: _index, ...q }) => q)));

function mutated(q: BirdQuestion, rng: Rng): string {
  const db = new Database(birdDatabasePath(layout.databases, q.db_id), { readonly: true });
  try {
    const gold = JSON.stringify(db.prepare(q.SQL).raw().all());
    for (const m of rng.shuffle(sqlMutants(q.SQL, readSchema(db)))) {
      try {
        if (JSON.stringify(db.prepare(m.sql).raw().all()) !== gold) return m.sql;
      } catch {
        // a mutant SQLite rejects is no use here
      }
    }
    return q.SQL;
  } finally {
    db.close();
  }
}

const rng = new Rng(1);
const baseMutants = base.map((q) => mutated(q, rng));
const predictionFiles = {
  'gold-as-prediction': questions.map((q) => q.SQL),
  'mutated predictions': questions.map((_, i) => baseMutants[i % base.length] as string),
};

/** One connection per question, predicted then gold, in this process: the baseline. */
function naive(predictions: string[]): { wallMs: number; sqliteMs: number; correct: number } {
  const started = performance.now();
  let sqliteMs = 0;
  let correct = 0;
  questions.forEach((q, i) => {
    const db = new Database(birdDatabasePath(layout.databases, q.db_id), { readonly: true, fileMustExist: true });
    const run = (sql: string) => {
      const t0 = performance.now();
      try {
        const { statement } = prepareStatement((text) => db.prepare(text), sql);
        return statement.raw(true).all() as never[][];
      } catch {
        return null;
      } finally {
        sqliteMs += performance.now() - t0;
      }
    };
    const pred = run(predictions[i] as string);
    const gold = run(q.SQL);
    if (pred && gold && resultsEqual(pred, gold, 'set')) correct++;
    db.close();
  });
  return { wallMs: performance.now() - started, sqliteMs, correct };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const ms = (x: number) => `${x.toFixed(0)} ms`;

console.log(
  `${questions.length} questions (${base.length} fixture questions × ${repeat}), ${availableParallelism()} cores`,
);
for (const [name, predictions] of Object.entries(predictionFiles)) {
  const file = join(dir, `${name.replace(/ /g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      Object.fromEntries(predictions.map((sql, i) => [String(i), `${sql}\t----- bird -----\t${questions[i]?.db_id}`])),
    ),
  );
  const naiveRuns: ReturnType<typeof naive>[] = [];
  const witnessRuns: { wallMs: number; sqliteMs: number; correct: number }[] = [];
  const cachedRuns: { wallMs: number; sqliteMs: number; correct: number }[] = [];
  const goldCache = join(dir, `${name.replace(/ /g, '-')}-gold.sqlite`);
  await evaluateBird({ data: dir, predictions: file, goldCache }); // fills the gold cache: later runs are "the next evaluation"
  const summarize = (e: Awaited<ReturnType<typeof evaluateBird>>) => ({
    wallMs: e.wallMs,
    sqliteMs: e.sqliteMs,
    correct: e.questions.filter((q) => q.res === 1).length,
  });
  for (let round = 0; round < 3; round++) {
    naiveRuns.push(naive(predictions));
    witnessRuns.push(summarize(await evaluateBird({ data: dir, predictions: file })));
    cachedRuns.push(summarize(await evaluateBird({ data: dir, predictions: file, goldCache })));
  }
  const agreed = new Set([...naiveRuns, ...witnessRuns, ...cachedRuns].map((r) => r.correct));
  if (agreed.size !== 1)
    throw new Error(`the evaluators disagree on the number of correct answers: ${[...agreed].join(' vs ')}`);
  const n = median(naiveRuns.map((r) => r.wallMs));
  const w = median(witnessRuns.map((r) => r.wallMs));
  const s = median(witnessRuns.map((r) => r.sqliteMs));
  const c = median(cachedRuns.map((r) => r.wallMs));
  console.log(`\n${name}: ${witnessRuns[0]?.correct}/${questions.length} correct (all evaluators agree)`);
  console.log(
    `  naive (1 process, connection per question):  wall ${ms(n)}  (SQLite executing ${ms(median(naiveRuns.map((r) => r.sqliteMs)))})`,
  );
  console.log(
    `  witness eval bird, first run (no gold cache): wall ${ms(w)}  (SQLite executing ${ms(s)}, summed over processes)`,
  );
  console.log(`    speedup ${(n / w).toFixed(2)}× · wall / SQLite time ${(w / s).toFixed(2)}× (target ≤ 1.5×)`);
  console.log(
    `  witness eval bird, next runs (gold cached):   wall ${ms(c)}  (SQLite executing ${ms(median(cachedRuns.map((r) => r.sqliteMs)))})`,
  );
  console.log(`    speedup ${(n / c).toFixed(2)}× (target ≥ 3×)`);
}

// Per-query overhead of the warm pool beyond SQLite's own time: one query at a time, then pipelined.
const pool = new SqlPool({ size: 1 });
const path = birdDatabasePath(layout.databases, 'retail_shop');
const probe = 'SELECT COUNT(*) FROM regions';
for (let i = 0; i < 200; i++) await pool.run({ path }, probe, 5000);
const N = 2000;
let inside = 0;
let started = performance.now();
for (let i = 0; i < N; i++) inside += (await pool.run({ path }, probe, 5000)).ms;
const sequential = (performance.now() - started) / N;
started = performance.now();
const batch = await Promise.all(Array.from({ length: N }, () => pool.run({ path }, probe, 5000)));
const pipelined = (performance.now() - started) / N;
await pool.dispose();
const own = inside / N;
console.log(`\nwarm pool, one child, a trivial query (SQLite ${own.toFixed(3)} ms each):`);
console.log(
  `  one at a time: ${sequential.toFixed(3)} ms per query → overhead ${(sequential - own).toFixed(3)} ms beyond SQLite`,
);
console.log(
  `  pipelined:     ${pipelined.toFixed(3)} ms per query → overhead ${(pipelined - batch.reduce((a, r) => a + r.ms, 0) / N).toFixed(3)} ms beyond SQLite`,
);
rmSync(dir, { recursive: true, force: true });
