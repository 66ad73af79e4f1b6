import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { birdDatabasePath } from '../oracles/sql/loader.ts';
import { Command } from 'commander';
import { evaluateBird } from '../oracles/sql/evaluate.ts';
import { GoldCache } from '../oracles/sql/gold-cache.ts';
import { SqlPool, type ExecResult } from '../oracles/sql/pool.ts';
import { registerEvalBird } from './eval-bird.ts';
import { progressLine } from './options.ts';
import { writeHostileBirdFolder } from '../oracles/sql/hostile/datasets.ts';
import { temporaryFolders } from '../testing/sql.ts';

const folders = temporaryFolders();
afterAll(() => folders.removeAll());

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/witness.js');
const fixtures = join(root, 'fixtures/bird');
const witness = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
const COUNTER = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 2000000)';
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

// Hand-checked against BIRD's rule (`cursor.execute(pred); p = fetchall(); cursor.execute(gold);
// g = fetchall(); res = set(p) == set(g)`, errors → 0) with CPython 3.11's sqlite3 (SQLite 3.40.1).
const HAND: { gold: string; pred: string; res: 0 | 1; bird?: 0 | 1; status: string; why: string }[] = [
  {
    gold: 'SELECT name FROM t',
    pred: 'SELECT DISTINCT name FROM t',
    res: 1,
    status: 'correct',
    why: 'duplicates ignored',
  },
  {
    gold: 'SELECT name FROM t ORDER BY id',
    pred: 'SELECT name FROM t ORDER BY id DESC',
    res: 1,
    status: 'correct',
    why: 'row order ignored, even with ORDER BY',
  },
  {
    gold: 'SELECT id, name FROM t WHERE id = 1',
    pred: 'SELECT name, id FROM t WHERE id = 1',
    res: 0,
    status: 'wrong',
    why: 'column order matters',
  },
  { gold: 'SELECT score FROM t WHERE id = 1', pred: 'SELECT 1', res: 1, status: 'correct', why: '1 == 1.0' },
  { gold: 'SELECT grp FROM t WHERE id = 1', pred: "SELECT '1'", res: 0, status: 'wrong', why: "'1' != 1" },
  { gold: 'SELECT score FROM t WHERE id = 3', pred: 'SELECT NULL', res: 1, status: 'correct', why: 'NULL == NULL' },
  { gold: 'SELECT grp FROM t WHERE id = 4', pred: 'SELECT 0', res: 0, status: 'wrong', why: 'NULL != 0' },
  { gold: 'SELECT 0.1 + 0.2', pred: 'SELECT 0.3', res: 0, status: 'wrong', why: 'floats compared exactly' },
  {
    gold: 'SELECT name FROM t WHERE id > 10',
    pred: 'SELECT id, name FROM t WHERE 0',
    res: 1,
    status: 'correct',
    why: 'both empty',
  },
  { gold: 'SELECT name FROM t', pred: 'SELEC name FROM t', res: 0, status: 'error', why: 'syntax error' },
  { gold: 'SELECT name FROM t', pred: 'SELECT * FROM missing_table', res: 0, status: 'error', why: 'missing table' },
  {
    gold: "SELECT id FROM t WHERE name = 'b'",
    pred: 'SELECT id FROM t WHERE name = "b"',
    res: 1,
    status: 'correct',
    why: 'double-quoted string literal (legacy SQLite, as Python)',
  },
  {
    gold: "SELECT name FROM t WHERE name = 'b'",
    pred: "SELECT DISTINCT name FROM t WHERE name = 'b'",
    res: 1,
    status: 'correct',
    why: 'duplicates ignored (multiset would differ)',
  },
  {
    gold: 'SELECT 9007199254740993',
    pred: 'SELECT 9007199254740992.0',
    res: 0,
    status: 'wrong',
    why: 'int 2**53 + 1 != float 2**53',
  },
  {
    gold: 'SELECT 9007199254740992',
    pred: 'SELECT 9007199254740992.0',
    res: 1,
    status: 'correct',
    why: 'int 2**53 == float 2**53',
  },
  {
    gold: 'SELECT name FROM t',
    pred: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c',
    res: 0,
    status: 'timeout',
    why: 'timeout',
  },
  // Deliberate difference: BIRD would execute the DELETE (writing to the database) and score 1 on two empty results.
  {
    gold: 'SELECT id FROM t WHERE 0',
    pred: 'DELETE FROM t WHERE 0',
    res: 0,
    bird: 1,
    status: 'unsafe',
    why: 'never run a statement that is not a read-only query',
  },
  // Python's sqlite3 refuses text with a NUL ("the query contains a null character"): text after it must not be dropped.
  {
    gold: 'SELECT id FROM t WHERE score IS NULL',
    pred: 'SELECT id FROM t WHERE score IS NULL\u0000; DELETE FROM t',
    res: 0,
    status: 'error',
    why: 'a NUL character in the query',
  },
  // Python cannot encode an unpaired surrogate to UTF-8 (UnicodeEncodeError): it must not become U+FFFD.
  {
    gold: 'SELECT 1',
    pred: "SELECT 1 WHERE 'x\ud800' = 'x' || char(65533)",
    res: 0,
    status: 'error',
    why: 'an unpaired surrogate in the query',
  },
];

function handDataset(): { dir: string; db: string } {
  const dir = folders.make('witness-bird-hand-');
  mkdirSync(join(dir, 'dev_databases', 'hand'), { recursive: true });
  const db = join(dir, 'dev_databases', 'hand', 'hand.sqlite');
  const handle = new Database(db);
  handle.exec(
    "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL, grp INTEGER); INSERT INTO t VALUES (1, 'a', 1.0, 1), (2, 'b', 2.5, 1), (3, 'b', NULL, 2), (4, 'c', 0.1, NULL);",
  );
  handle.close();
  const questions = HAND.map((h, i) => ({
    question_id: i,
    db_id: 'hand',
    question: h.why,
    evidence: '',
    SQL: h.gold,
    difficulty: (['simple', 'moderate', 'challenging'] as const)[i % 3],
  }));
  questions.push({
    question_id: HAND.length,
    db_id: 'ghost',
    question: 'on a database that is not there',
    evidence: '',
    SQL: 'SELECT 1',
    difficulty: 'simple',
  });
  questions.push({
    question_id: HAND.length + 1,
    db_id: 'hand',
    question: 'without a prediction',
    evidence: '',
    SQL: 'SELECT 1',
    difficulty: 'moderate',
  });
  writeFileSync(join(dir, 'dev.json'), JSON.stringify(questions, null, 4));
  const predictions = Object.fromEntries(HAND.map((h, i) => [String(i), `${h.pred}\t----- bird -----\thand`]));
  predictions[String(HAND.length)] = 'SELECT 1\t----- bird -----\tghost';
  writeFileSync(join(dir, 'predict_dev.json'), JSON.stringify(predictions, null, 4));
  return { dir, db };
}

describe('BIRD evaluation', () => {
  it('reproduces BIRD’s EX on hand-checked cases, and names every broken input', async () => {
    const { dir, db } = handDataset();
    const before = sha(db);
    const started = performance.now();
    const result = await evaluateBird({ data: dir, predictions: join(dir, 'predict_dev.json'), timeoutMs: 1000 });
    expect(performance.now() - started).toBeLessThan(20_000);
    HAND.forEach((h, i) => {
      expect({ i, why: h.why, res: result.questions[i]?.res, status: result.questions[i]?.status }).toEqual({
        i,
        why: h.why,
        res: h.res,
        status: h.status,
      });
    });
    const ghost = result.questions[HAND.length];
    expect(ghost).toMatchObject({
      res: 0,
      status: 'no-database',
      message: expect.stringMatching(/database not found: .*ghost\/ghost\.sqlite/),
    });
    expect(result.questions[HAND.length + 1]).toMatchObject({ res: 0, status: 'no-prediction' });
    expect(result.issues.map((i) => i.item)).toEqual([
      `question ${HAND.length} (position ${HAND.length}, db_id "ghost")`,
      `question ${HAND.length + 1} (position ${HAND.length + 1}, db_id "hand")`,
    ]);
    const correct = HAND.filter((h) => h.res === 1).length;
    expect(result.counts.total).toBe(HAND.length + 2);
    expect(result.accuracy.total).toBeCloseTo((100 * correct) / (HAND.length + 2), 10);
    expect(sha(db)).toBe(before);
  }, 30_000);

  it('scores a question whose db_id leads outside the database folder 0 as having no database, never running it there', async () => {
    const bird = writeHostileBirdFolder(folders.make('witness-eval-bird-hostile-'));
    const predictions = join(bird.dir, 'predict_dev.json');
    // Each prediction is its gold: run on the database outside, it would be scored correct.
    const items = JSON.parse(readFileSync(bird.questions, 'utf8')) as {
      question_id: number;
      db_id: string;
      SQL: string;
    }[];
    writeFileSync(
      predictions,
      JSON.stringify(Object.fromEntries(items.map((q, i) => [String(i), `${q.SQL}\t----- bird -----\t${q.db_id}`]))),
    );
    const result = await evaluateBird({ data: bird.dir, predictions, timeoutMs: 5000 });
    for (const { questionId, dbId } of bird.escapes) {
      const scored = result.questions.find((q) => q.question_id === questionId);
      expect({ dbId, res: scored?.res, status: scored?.status }).toEqual({ dbId, res: 0, status: 'no-database' });
      expect(scored?.message, dbId).toMatch(
        /path separator|leads outside the folder "dev_databases" through a symbolic link/,
      );
      expect(result.issues.map((i) => i.item)).toContain(
        `question ${questionId} (position ${items.findIndex((q) => q.question_id === questionId)}, db_id ${JSON.stringify(dbId)})`,
      );
    }
    expect(result.questions.slice(0, 6).map((q) => q.status)).toEqual(Array(6).fill('correct'));
  }, 60_000);

  it('agrees with BIRD’s rule run by CPython’s sqlite3 on every hand case (but the deliberate differences)', () => {
    const { dir, db } = handDataset();
    const copy = join(dir, 'python-copy.sqlite');
    copyFileSync(db, copy);
    const runnable = HAND.filter((h) => h.status !== 'timeout');
    // evaluation.py's execute_sql: predicted then gold on one connection, fetchall, set equality, any exception → 0.
    const script = [
      'import json, sqlite3, sys',
      'cases = json.loads(sys.stdin.read())',
      'out = []',
      'for c in cases:',
      '    conn = sqlite3.connect(sys.argv[1])',
      '    cur = conn.cursor()',
      '    try:',
      '        cur.execute(c["pred"]); p = cur.fetchall(); cur.execute(c["gold"]); g = cur.fetchall()',
      '        out.append(1 if set(p) == set(g) else 0)',
      '    except Exception:',
      '        out.append(0)',
      '    conn.close()',
      'print(json.dumps(out))',
    ].join('\n');
    const run = spawnSync(existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3', ['-c', script, copy], {
      input: JSON.stringify(runnable),
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(runnable.map((h) => h.bird ?? h.res));
  });

  it('counts duplicates in multiset mode and order in ordered mode', async () => {
    const { dir } = handDataset();
    const multiset = await evaluateBird({
      data: dir,
      predictions: join(dir, 'predict_dev.json'),
      timeoutMs: 1000,
      mode: 'multiset',
    });
    expect([0, 1, 12].map((i) => multiset.questions[i]?.res)).toEqual([0, 1, 0]);
    const ordered = await evaluateBird({
      data: dir,
      predictions: join(dir, 'predict_dev.json'),
      timeoutMs: 1000,
      mode: 'ordered',
    });
    expect([0, 1, 3].map((i) => ordered.questions[i]?.res)).toEqual([0, 0, 1]);
  }, 30_000);

  it('keeps the file’s positions when an item of the questions file is invalid, and scores that item 0 in the total', async () => {
    const { dir } = handDataset();
    const items = [
      {
        question_id: 0,
        db_id: 'hand',
        question: 'first',
        evidence: '',
        SQL: 'SELECT id FROM t WHERE id = 1',
        difficulty: 'simple',
      },
      { question_id: 1, db_id: 'hand', question: 'no SQL', evidence: '', difficulty: 'moderate' },
      {
        question_id: 2,
        db_id: 'hand',
        question: 'third',
        evidence: '',
        SQL: 'SELECT id FROM t WHERE id = 2',
        difficulty: 'simple',
      },
      {
        question_id: 3,
        db_id: 'hand',
        question: 'last',
        evidence: '',
        SQL: 'SELECT id FROM t WHERE id = 3',
        difficulty: 'challenging',
      },
    ];
    writeFileSync(join(dir, 'dev.json'), JSON.stringify(items));
    const predictions = { '0': 'SELECT 1', '1': 'SELECT 1', '2': 'SELECT 2', '3': 'SELECT 3' };
    writeFileSync(
      join(dir, 'positional.json'),
      JSON.stringify(
        Object.fromEntries(Object.entries(predictions).map(([k, v]) => [k, `${v}\t----- bird -----\thand`])),
      ),
    );
    const result = await evaluateBird({ data: dir, predictions: join(dir, 'positional.json'), timeoutMs: 1000 });
    expect(result.questions.map((q) => [q.index, q.question_id, q.predicted, q.res, q.status])).toEqual([
      [0, 0, 'SELECT 1', 1, 'correct'],
      [1, 1, null, 0, 'invalid-question'],
      [2, 2, 'SELECT 2', 1, 'correct'],
      [3, 3, 'SELECT 3', 1, 'correct'],
    ]);
    expect(result.counts).toEqual({ simple: 2, moderate: 1, challenging: 1, total: 4 });
    expect(result.accuracy.total).toBe(75);
    expect(result.issues.map((i) => i.item)).toEqual([expect.stringMatching(/dev\.json item 1 \(question 1\)$/)]);
    // Keyed by question_id, the same file shape gives the same scores.
    writeFileSync(
      join(dir, 'by-id.jsonl'),
      Object.entries(predictions)
        .map(([k, v]) => JSON.stringify({ question_id: Number(k), SQL: v }))
        .join('\n'),
    );
    const byId = await evaluateBird({ data: dir, predictions: join(dir, 'by-id.jsonl'), timeoutMs: 1000 });
    expect(byId.questions.map((q) => q.res)).toEqual([1, 0, 1, 1]);
  }, 30_000);

  it('reads JSON Lines predictions keyed by question_id', async () => {
    const { dir } = handDataset();
    const lines = HAND.map((h, i) => JSON.stringify({ question_id: i, SQL: h.pred })).join('\n');
    writeFileSync(join(dir, 'predictions.jsonl'), `${lines}\n{"question_id": 99, "SQL": "SELECT 1"}\nnot json\n`);
    const result = await evaluateBird({ data: dir, predictions: join(dir, 'predictions.jsonl'), timeoutMs: 1000 });
    expect(result.predictionsFormat).toBe('jsonl');
    expect(result.questions.slice(0, HAND.length).map((q) => q.res)).toEqual(HAND.map((h) => h.res));
    expect(result.issues.map((i) => i.message)).toEqual(
      expect.arrayContaining(['question_id 99 matches no question', expect.stringMatching(/^not valid JSON/)]),
    );
  }, 30_000);
});

describe('gold errors and BIRD’s combined deadline', () => {
  /** A BIRD folder over the hand database with these (gold, prediction) pairs. */
  function dataset(pairs: [string, string][]): string {
    const { dir } = handDataset();
    writeFileSync(
      join(dir, 'dev.json'),
      JSON.stringify(
        pairs.map(([gold], i) => ({
          question_id: i,
          db_id: 'hand',
          question: `q${i}`,
          evidence: '',
          SQL: gold,
          difficulty: 'simple',
        })),
      ),
    );
    writeFileSync(
      join(dir, 'pred.json'),
      JSON.stringify(Object.fromEntries(pairs.map(([, pred], i) => [String(i), `${pred}\t----- bird -----\thand`]))),
    );
    return dir;
  }
  const STUCK = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c';

  it('names a gold that fails, never ends or passes the caps as the dataset’s problem, never as the prediction’s timeout', async () => {
    const dir = dataset([
      ['SELECT nope FROM t', 'SELECT 1'],
      [STUCK, 'SELECT 1'],
      [STUCK, STUCK],
      ['SELECT id FROM t', 'SELECT id FROM t'],
      ['SELECT id FROM t WHERE id < 3', STUCK],
      ['SELECT id FROM t WHERE id < 3', 'SELECT id FROM t'],
    ]);
    const result = await evaluateBird({
      data: dir,
      predictions: join(dir, 'pred.json'),
      timeoutMs: 1000,
      limits: { maxRows: 3 },
    });
    expect(result.questions.map((q) => [q.status, q.res])).toEqual([
      ['gold-error', 0],
      ['gold-error', 0],
      ['gold-error', 0],
      ['gold-error', 0],
      ['timeout', 0],
      ['too-large', 0],
    ]);
    expect(result.questions.map((q) => q.message)).toEqual([
      'the gold query failed (syntax): no such column: nope',
      'the gold query failed (timeout): the query did not finish within 1 s on its own (a dataset problem, or raise --timeout)',
      'the gold query failed (timeout): the query did not finish within 1 s on its own (a dataset problem, or raise --timeout)',
      'the gold query failed (too-large): the result has more than 3 rows (the limit) (caps: 3 rows, 128 MiB; raise --max-rows / --max-result-mb)',
      'the query did not finish within 1 s',
      'the result has more than 3 rows (the limit)',
    ]);
    expect(result.issues.map((i) => i.item)).toEqual(
      [0, 1, 2, 3].map((i) => `question ${i} (position ${i}, db_id "hand")`),
    );
    expect(result.limits).toEqual({ maxRows: 3, maxResultBytes: 128 * 1024 * 1024, maxSqlBytes: 1024 * 1024 });
  }, 30_000);

  it('does not run the gold after a failed prediction, as BIRD, but still names a gold SQLite rejects', async () => {
    const dir = dataset([
      [STUCK, 'SELECT nope FROM t'],
      [STUCK, 'DELETE FROM t'],
      ['SELECT nope FROM t', 'SELECT nope FROM t WHERE'],
      ['SELECT id FROM t', 'SELECT id FROM t WHERE'],
    ]);
    const started = performance.now();
    const result = await evaluateBird({ data: dir, predictions: join(dir, 'pred.json'), timeoutMs: 20_000 });
    // Running either never-ending gold would have taken the whole deadline, twice.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.questions.map((q) => [q.status, q.res, q.message])).toEqual([
      ['error', 0, 'no such column: nope'],
      ['unsafe', 0, 'only a single read-only query that returns rows may run: DELETE modifies the database'],
      ['gold-error', 0, 'the gold query failed (syntax): no such column: nope'],
      ['error', 0, 'incomplete input'],
    ]);
    expect(result.issues.map((i) => i.item)).toEqual(['question 2 (position 2, db_id "hand")']);
  }, 30_000);

  it('scores a pair whose SQLite process runs out of memory holding both results by running the two apart', async () => {
    // Each result fits in a process's 36 MiB heap (with room: 28 MiB do); both, with the rows compared, need over 56 MiB.
    const listing = (x: string) =>
      `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 150000) SELECT ${x}, printf('%.80c', 'a') || x FROM c`;
    const dir = dataset([
      [listing('x'), listing('x + 0')],
      [listing('x'), listing('x + 1')],
    ]);
    const pool = new SqlPool({ size: 1, heapMb: 36, memoryMb: 400 });
    try {
      const result = await evaluateBird({ data: dir, predictions: join(dir, 'pred.json'), timeoutMs: 20_000, pool });
      expect(result.questions.map((q) => [q.status, q.rows])).toEqual([
        ['correct', { predicted: 150_000, gold: 150_000 }],
        ['wrong', { predicted: 150_000, gold: 150_000 }],
      ]);
      expect(pool.stats().crashed).toBeGreaterThanOrEqual(2);
    } finally {
      await pool.dispose();
    }
  }, 60_000);

  it('names a gold that fails while running on the questions whose prediction ran, whatever the order and the gold cache', async () => {
    const OVERFLOW = 'SELECT abs(-9223372036854775808)'; // prepares, then fails while running: integer overflow
    const dir = dataset([
      [OVERFLOW, 'SELECT nope FROM t'],
      [OVERFLOW, 'SELECT 1'],
      [OVERFLOW, 'SELECT nope FROM t'],
    ]);
    const goldCache = join(dir, 'gold.sqlite');
    const runs = [];
    for (const cache of [undefined, goldCache, goldCache]) {
      const result = await evaluateBird({
        data: dir,
        predictions: join(dir, 'pred.json'),
        timeoutMs: 10_000,
        ...(cache ? { goldCache: cache } : {}),
      });
      runs.push(result.questions.map((q) => [q.status, q.message]));
    }
    const expected = [
      ['error', 'no such column: nope'],
      ['gold-error', 'the gold query failed (runtime): integer overflow'],
      ['error', 'no such column: nope'],
    ];
    expect(runs).toEqual([expected, expected, expected]);
  }, 30_000);

  it('scores 0 when prediction and gold together pass the deadline, as BIRD does, though each alone would finish', async () => {
    const dir = dataset([['SELECT id FROM t', 'SELECT id FROM t ORDER BY id']]);
    const goldCache = join(dir, 'gold.sqlite');
    const first = await evaluateBird({ data: dir, predictions: join(dir, 'pred.json'), timeoutMs: 1000, goldCache });
    expect(first.questions[0]).toMatchObject({ status: 'correct', res: 1 });
    // The same gold result, recorded as having taken 999.5 ms: the prediction is left half a millisecond.
    const cache = new GoldCache(goldCache);
    const key = cache.key(birdDatabasePath(join(dir, 'dev_databases'), 'hand'), 'SELECT id FROM t');
    cache.put(key, { ...(cache.get(key) as ExecResult), ms: 999.5 });
    cache.close();
    writeFileSync(
      join(dir, 'pred.json'),
      JSON.stringify({ '0': `${COUNTER} SELECT id FROM t WHERE id IN (SELECT x FROM c)\t----- bird -----\thand` }),
    );
    const second = await evaluateBird({ data: dir, predictions: join(dir, 'pred.json'), timeoutMs: 1000, goldCache });
    expect(second.questions[0]).toMatchObject({
      status: 'timeout',
      res: 0,
      message:
        /^the predicted query did not finish within the 1 ms the gold left, and with the gold \(1 s\) the pair passes BIRD's combined deadline of 1 s$/,
    });
    expect(second.issues).toEqual([]);
    // A gold that took longer than the whole deadline is the dataset's problem.
    const slow = new GoldCache(goldCache);
    slow.put(key, { ...(slow.get(key) as ExecResult), ms: 1500 });
    slow.close();
    const third = await evaluateBird({ data: dir, predictions: join(dir, 'pred.json'), timeoutMs: 1000, goldCache });
    expect(third.questions[0]).toMatchObject({
      status: 'gold-error',
      res: 0,
      message: /^the gold query failed \(timeout\)/,
    });
  }, 30_000);

  it('says in --help that a broken gold makes the run exit 1, and a result cap above 1 GiB is a usage error', () => {
    const program = new Command().exitOverride();
    const evaluate = program.command('eval').exitOverride();
    registerEvalBird({ program, check: program.command('check'), evaluate });
    const bird = evaluate.commands.find((c) => c.name() === 'bird') as Command;
    bird.exitOverride();
    let help = '';
    bird.configureOutput({ writeOut: (text) => (help += text), writeErr: () => {} });
    expect(() => bird.parse(['--help'], { from: 'user' })).toThrow();
    expect(help).toMatch(
      /1 when some input was broken \(an invalid question, a missing database or prediction, a gold query that fails, never ends or passes the caps/,
    );
    expect(() =>
      bird.parse(['--data', tmpdir(), '--predictions', tmpdir(), '--max-result-mb', '2048'], { from: 'user' }),
    ).toThrow(/expected an integer from 1 to 1024/);
  });
});

describe('gold results kept across runs', () => {
  it('are reused on the next run with the same results, and the prediction gets what the gold left of the deadline', async () => {
    const { dir, db } = handDataset();
    const goldCache = join(dir, 'gold.sqlite');
    const first = await evaluateBird({
      data: dir,
      predictions: join(dir, 'predict_dev.json'),
      timeoutMs: 1000,
      goldCache,
    });
    expect(first.goldCache).toEqual({ file: goldCache, reused: 0 });
    const second = await evaluateBird({
      data: dir,
      predictions: join(dir, 'predict_dev.json'),
      timeoutMs: 1000,
      goldCache,
    });
    // Every question whose gold ran in the first run, or shares its gold with one that did: not those whose
    // prediction failed (BIRD does not run their golds), unless another question ran the same gold.
    const ran = new Set(
      HAND.filter((h, i) => /^(correct|wrong)$/.test(first.questions[i]?.status ?? '')).map((h) => h.gold),
    );
    const kept = HAND.filter((h) => ran.has(h.gold)).length;
    expect(kept).toBeLessThan(HAND.length);
    expect(second.goldCache?.reused).toBe(kept);
    expect(second.questions.map((q) => [q.res, q.status])).toEqual(first.questions.map((q) => [q.res, q.status]));
    // A changed database is a new database: nothing is reused.
    const handle = new Database(db);
    handle.exec("INSERT INTO t VALUES (5, 'd', 4.0, 3)");
    handle.close();
    const third = await evaluateBird({
      data: dir,
      predictions: join(dir, 'predict_dev.json'),
      timeoutMs: 1000,
      goldCache,
    });
    expect(third.goldCache?.reused).toBe(0);
    expect(third.questions[0]?.res).toBe(1);
  }, 30_000);
});

describe('the progress line', () => {
  it('appears only on a terminal, only after a second, at most every 200 ms, and ends the line', () => {
    expect(progressLine('questions', { isTTY: false, write: () => true })).toBeUndefined();
    const written: string[] = [];
    let now = 0;
    const progress = progressLine('questions', { isTTY: true, write: (t: string) => written.push(t) }, () => now)!;
    progress(1, 10);
    now = 1200;
    progress(5, 10);
    now = 1300;
    progress(6, 10);
    now = 1500;
    progress(7, 10);
    progress(10, 10);
    expect(written).toEqual([
      '\r\x1b[2Kevaluated 5/10 questions (1.2 s)',
      '\r\x1b[2Kevaluated 7/10 questions (1.5 s)',
      '\r\x1b[2Kevaluated 10/10 questions (1.5 s)\n',
    ]);
    const quick: string[] = [];
    const short = progressLine('questions', { isTTY: true, write: (t: string) => quick.push(t) }, () => 0)!;
    short(10, 10);
    expect(quick).toEqual([]);
  });
});

describe('witness eval bird', () => {
  it('scores gold-as-prediction on the fixtures at 100 %, prints BIRD’s table, computes VES, and never touches the databases', () => {
    const dir = folders.make('witness-eval-bird-');
    const questions = JSON.parse(readFileSync(join(fixtures, 'dev.json'), 'utf8')) as { SQL: string; db_id: string }[];
    writeFileSync(
      join(dir, 'pred.json'),
      JSON.stringify(
        Object.fromEntries(questions.map((q, i) => [String(i), `${q.SQL}\t----- bird -----\t${q.db_id}`])),
      ),
    );
    const sums = readFileSync(join(fixtures, 'SHA256SUMS'), 'utf8');
    const text = witness(
      'eval',
      'bird',
      '--data',
      fixtures,
      '--predictions',
      join(dir, 'pred.json'),
      '--ves',
      '--iterations',
      '3',
      '--no-gold-cache',
    );
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^ +simple +moderate +challenging +total\ncount +18 +17 +11 +46\n=+ +ACCURACY +=+\naccuracy +100\.00 +100\.00 +100\.00 +100\.00\n=+ +VES +=+\nves +\d+\.\d\d/,
    );
    expect(text.stdout).toMatch(/mode set \(BIRD's EX\)/);
    const json = witness(
      'eval',
      'bird',
      '--data',
      fixtures,
      '--predictions',
      join(dir, 'pred.json'),
      '--json',
      '--mode',
      'multiset',
      '--no-gold-cache',
    );
    const parsed = JSON.parse(json.stdout);
    expect(parsed.mode).toBe('multiset');
    expect(parsed.questions).toHaveLength(46);
    expect(parsed.questions[0]).toMatchObject({
      question_id: 0,
      db_id: 'retail_shop',
      difficulty: 'simple',
      res: 1,
      status: 'correct',
      rows: { predicted: 1, gold: 1 },
    });
    for (const line of sums.trim().split('\n')) {
      const [digest, file] = line.split(/\s+/);
      expect(sha(join(fixtures, 'dev_databases', file as string)), file).toBe(digest);
    }
  }, 120_000);

  it('scores result bombs, huge SQL and malformed text 0 with a named status, and every other question as usual', () => {
    const dir = folders.make('witness-eval-bird-bombs-');
    const questions = JSON.parse(readFileSync(join(fixtures, 'dev.json'), 'utf8')) as { SQL: string; db_id: string }[];
    const hostile: Record<number, string> = {
      3: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 3000) SELECT zeroblob(1000000) FROM c',
      7: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 2000) SELECT printf('%.1000000c', 'x') FROM c",
      11: `SELECT 1 WHERE 0 IN (${Array.from({ length: 700_000 }, (_, i) => i).join(',')})`,
      15: 'SELECT zeroblob(1000000000)',
      20: `${questions[20]?.SQL}\u0000; DELETE FROM customers`,
    };
    const predictions = Object.fromEntries(
      questions.map((q, i) => [String(i), `${hostile[i] ?? q.SQL}\t----- bird -----\t${q.db_id}`]),
    );
    writeFileSync(join(dir, 'pred.json'), JSON.stringify(predictions));
    const run = witness(
      'eval',
      'bird',
      '--data',
      fixtures,
      '--predictions',
      join(dir, 'pred.json'),
      '--json',
      '--no-gold-cache',
    );
    expect(run.status, run.stderr).toBe(0);
    const parsed = JSON.parse(run.stdout) as { questions: { status: string; res: number; message?: string }[] };
    expect([3, 7, 11, 15, 20].map((i) => parsed.questions[i]?.status)).toEqual([
      'too-large',
      'too-large',
      'too-complex',
      'too-large',
      'error',
    ]);
    expect(parsed.questions[20]?.message).toBe('the query contains a null character');
    expect(parsed.questions.filter((_, i) => !(i in hostile)).every((q) => q.status === 'correct')).toBe(true);
    for (const line of readFileSync(join(fixtures, 'SHA256SUMS'), 'utf8').trim().split('\n')) {
      const [digest, file] = line.split(/\s+/);
      expect(sha(join(fixtures, 'dev_databases', file as string)), file).toBe(digest);
    }
  }, 120_000);

  it('exits 1 naming the question whose database is missing or whose gold fails, and 2 on usage errors', () => {
    const { dir } = handDataset();
    const questions = JSON.parse(readFileSync(join(dir, 'dev.json'), 'utf8')) as { question_id: number }[];
    const broken = questions.length;
    writeFileSync(
      join(dir, 'dev.json'),
      JSON.stringify([
        ...questions,
        {
          question_id: broken,
          db_id: 'hand',
          question: 'a broken gold',
          evidence: '',
          SQL: 'SELECT nope FROM t',
          difficulty: 'simple',
        },
      ]),
    );
    const predictions = JSON.parse(readFileSync(join(dir, 'predict_dev.json'), 'utf8')) as Record<string, string>;
    writeFileSync(
      join(dir, 'predict_dev.json'),
      JSON.stringify({ ...predictions, [String(broken)]: 'SELECT 1\t----- bird -----\thand' }),
    );
    const run = witness(
      'eval',
      'bird',
      '--data',
      dir,
      '--predictions',
      join(dir, 'predict_dev.json'),
      '--timeout',
      '1',
      '--no-gold-cache',
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(`question ${HAND.length} \\(position ${HAND.length}, db_id "ghost"\\): database not found`),
    );
    expect(run.stderr).toMatch(
      new RegExp(
        `question ${broken} \\(position ${broken}, db_id "hand"\\): the gold query failed \\(syntax\\): no such column: nope`,
      ),
    );
    expect(run.stdout).toMatch(/timeout 1 s/);
    expect(witness('eval', 'bird', '--data', dir).status).toBe(2);
    expect(witness('eval', 'bird', '--data', dir, '--predictions', 'x', '--mode', 'fuzzy').status).toBe(2);
  }, 60_000);
});
