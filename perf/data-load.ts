/**
 * Loading real-size data: a generated BIRD-dev-sized folder (1,534 questions over 11 databases of
 * 40 tables each) loaded lazily (no database opened) side by side with the same load followed by
 * reading every database's schema (what loading cost when schemas were read eagerly); the BIRD
 * and NL-RX-Turk checkers; loading 10,000 NL-RX-Turk pairs (the real files when configured,
 * `suites["nl-rx"].data` / NLRX_TURK_DIR, else 10,000 generated pairs). Prints figures, no pass/fail.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { checkNlRxData } from '../oracles/regex/data-check.ts';
import { loadConfig } from '../core/config.ts';
import { findNlRxTurk, loadNlRx } from '../oracles/regex/loader.ts';
import { NLRX_PAIRS, writeNlRxRaw } from '../testing/layouts/regex.ts';
import { checkBirdData } from '../oracles/sql/data-check.ts';
import { loadBird } from '../oracles/sql/loader.ts';

const DATABASES = 11;
const TABLES = 40;
const QUESTIONS = 1534;
const ROUNDS = 5;

function writeDatabase(path: string, seed: number): void {
  const db = new Database(path);
  db.exec('BEGIN');
  for (let t = 0; t < TABLES; t++) {
    const fk = t > 0 ? `, parent_id INTEGER REFERENCES t${t - 1} (id)` : '';
    db.exec(
      `CREATE TABLE t${t} (id INTEGER PRIMARY KEY, name TEXT NOT NULL, amount REAL, created DATE, code TEXT, flag INTEGER${fk})`,
    );
    const insert = db.prepare(`INSERT INTO t${t} (id, name, amount, created, code, flag) VALUES (?, ?, ?, ?, ?, ?)`);
    for (let r = 0; r < 200; r++) insert.run(r, `n${seed}-${r}`, r * 1.5, '2024-01-01', `c${r % 17}`, r % 2);
  }
  db.exec('COMMIT');
  db.close();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function time(run: () => void): number {
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

const dir = mkdtempSync(join(tmpdir(), 'witness-perf-data-'));
try {
  const databases = join(dir, 'bird', 'dev_databases');
  for (let d = 0; d < DATABASES; d++) {
    mkdirSync(join(databases, `db_${d}`), { recursive: true });
    writeDatabase(join(databases, `db_${d}`, `db_${d}.sqlite`), d);
  }
  const questions = Array.from({ length: QUESTIONS }, (_, i) => ({
    question_id: i,
    db_id: `db_${i % DATABASES}`,
    question: `How many rows of table ${i % TABLES} have an amount over ${i % 100}?`,
    evidence: '',
    SQL: `SELECT COUNT(*) FROM t${i % TABLES} WHERE amount > ${i % 100}`,
    difficulty: ['simple', 'moderate', 'challenging'][i % 3],
  }));
  writeFileSync(join(dir, 'bird', 'dev.json'), JSON.stringify(questions, null, 2));
  const bird = join(dir, 'bird');

  const lazy = time(() => loadBird(bird));
  const eager = time(() => {
    for (const task of loadBird(bird).tasks) void task.context?.schema;
  });
  const checked = time(() => checkBirdData(bird));
  const loaded = loadBird(bird);
  console.log(
    `BIRD dev size (${loaded.tasks.length} questions over ${DATABASES} databases of ${TABLES} tables), median of ${ROUNDS}:`,
  );
  console.log(`  load (no database opened)            ${lazy.toFixed(1)} ms`);
  console.log(
    `  load + every schema read (eager)     ${eager.toFixed(1)} ms   (${(eager / lazy).toFixed(1)}× the lazy load)`,
  );
  console.log(`  witness data check (${QUESTIONS} golds prepared)  ${checked.toFixed(1)} ms`);

  const real = findNlRxTurk(loadConfig().config.suites['nl-rx'].data);
  let turk = real;
  if (!turk) {
    turk = join(dir, 'turk');
    writeNlRxRaw(
      turk,
      Array.from({ length: 10_000 }, (_, i) => NLRX_PAIRS[i % NLRX_PAIRS.length]!),
    );
  }
  const nlrxLoad = time(() => loadNlRx(turk));
  const nlrxCheck = time(() => checkNlRxData(turk));
  console.log(`NL-RX-Turk (${real ? 'the real files' : '10,000 generated pairs'}), median of ${ROUNDS}:`);
  console.log(`  load 10,000 pairs                    ${nlrxLoad.toFixed(1)} ms`);
  console.log(`  witness data check (every gold parsed, SHA-256)  ${nlrxCheck.toFixed(1)} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
