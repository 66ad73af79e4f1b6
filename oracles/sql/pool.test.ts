import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { SqlPool } from './pool.ts';
import { flatRows, resultsEqual, type SqlRow } from './result-equality.mjs';
import { isRunning, stillRunning } from '../../testing/processes/running.ts';
import { peakRss, temporaryFolders } from '../../testing/sql.ts';

const folders = temporaryFolders();
afterAll(() => folders.removeAll());

const root = fileURLToPath(new URL('../..', import.meta.url));
const retail = join(root, 'fixtures/bird/dev_databases/retail_shop/retail_shop.sqlite');
const clinic = join(root, 'fixtures/bird/dev_databases/city_clinic/city_clinic.sqlite');
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** The error Python's sqlite3 gives for executing `sql` (the query travels as JSON, so NUL and lone surrogates arrive intact). */
function pythonError(sql: string): string {
  const script =
    'import json, sqlite3, sys\ntry:\n    sqlite3.connect(":memory:").execute(json.loads(sys.stdin.read()))\n    print("ok")\nexcept Exception as e:\n    print(e)';
  const run = spawnSync(PYTHON, ['-c', script], { input: JSON.stringify(sql), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return run.stdout.trim();
}
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const COUNTER = (n: number) => `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT ${n})`;
const STUCK = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c';

describe('a BIRD pair scored in the SQLite process', () => {
  const pool = new SqlPool({ size: 2 });
  afterAll(() => pool.dispose());
  const compare = { mode: 'set' as const, goldOrdered: false, keepGold: false };
  const db = { path: retail };

  it('gives the verdict of the rows compared here, with the row counts, and the gold serialized when kept', async () => {
    const pairs: [string, string][] = [
      ['SELECT customer_id FROM customers', 'SELECT customer_id FROM customers ORDER BY customer_id DESC'],
      ['SELECT customer_id FROM customers WHERE customer_id > 3', 'SELECT customer_id FROM customers'],
      ['SELECT 1.0, NULL', 'SELECT 1, NULL UNION ALL SELECT 1, NULL'],
      ["SELECT 'a'", "SELECT X'61'"],
    ];
    for (const [pred, gold] of pairs) {
      const [p, g] = [await pool.run(db, pred, 5000), await pool.run(db, gold, 5000)];
      if (!p.ok || !g.ok) throw new Error('a query of the test failed');
      const scored = await pool.score(db, pred, gold, 5000, { ...compare, keepGold: true });
      expect(scored).toMatchObject({
        pred: { ok: true, rowCount: p.rows.length },
        gold: { ok: true, rowCount: g.rows.length },
        equal: resultsEqual(p.rows, g.rows, 'set'),
      });
      const kept = deserialize(scored?.goldBlob as Uint8Array) as { width: number; chunks: SqlRow[]; rowCount: number };
      expect(flatRows(kept.width, kept.chunks, kept.rowCount)).toEqual(g.rows);
      expect((await pool.score(db, pred, gold, 5000, compare))?.goldBlob).toBeUndefined();
    }
  });

  it('runs no gold after a failed or unfinished prediction, and tells which statement the deadline stopped', async () => {
    const failed = await pool.score(db, 'SELECT nope FROM customers', 'SELECT 1', 5000, compare);
    expect(failed).toStrictEqual({
      pred: expect.objectContaining({ ok: false, kind: 'syntax' }),
      gold: null,
    });
    const stuckPred = await pool.score(db, STUCK, 'SELECT 1', 500, compare);
    expect(stuckPred).toEqual({ pred: expect.objectContaining({ ok: false, kind: 'timeout' }), gold: null });
    const stuckGold = await pool.score(db, 'SELECT 1', STUCK, 500, compare);
    expect(stuckGold).toEqual({
      pred: expect.objectContaining({ ok: true, rowCount: 1 }),
      gold: expect.objectContaining({ ok: false, kind: 'timeout' }),
    });
    const missing = await pool.score(
      { path: join(tmpdir(), 'witness-no-such.sqlite') },
      'SELECT 1',
      'SELECT 1',
      5000,
      compare,
    );
    expect(missing).toMatchObject({
      pred: { ok: false, kind: 'runtime', message: /cannot open the database/ },
      gold: null,
    });
    // A text over the cap never reaches a process: the caller runs the pair apart.
    expect(await pool.score(db, `SELECT '${'x'.repeat(2 * 1024 * 1024)}'`, 'SELECT 1', 5000, compare)).toBeNull();
  });
});

describe('the warm SQLite pool', () => {
  const pool = new SqlPool({ size: 2 });
  afterAll(() => pool.dispose());

  it('returns columns and rows with exact values: integers, reals, text, NULL, big integers, blobs', async () => {
    const result = await pool.run(
      { path: retail },
      "SELECT 1, 1.0, 2.5, 'x', NULL, 9007199254740993, X'0aff', customer_id FROM customers WHERE customer_id = 7",
      5000,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.columns).toHaveLength(8);
    const [row] = result.rows;
    expect(row?.slice(0, 6)).toEqual([1, 1, 2.5, 'x', null, 9007199254740993n]);
    expect(Buffer.from(row?.[6] as Uint8Array).toString('hex')).toBe('0aff');
    expect(row?.[7]).toBe(7);
    expect(result.ms).toBeGreaterThan(0);
  });

  it('reads double-quoted strings as Python’s sqlite3 does (legacy DQS), identifiers first', async () => {
    const single = await pool.run({ path: retail }, "SELECT COUNT(*) FROM customers WHERE city = 'Bristol'", 5000);
    const double = await pool.run({ path: retail }, 'SELECT COUNT(*) FROM customers WHERE "city" = "Bristol"', 5000);
    expect(double).toMatchObject({ ok: true, rows: (single as { rows: unknown }).rows });
    const quote = await pool.run({ path: retail }, `SELECT "O'Brien" = 'O''Brien', "a""b"`, 5000);
    expect(quote).toMatchObject({ ok: true, rows: [[1, 'a"b']] });
  });

  it('refuses everything but a single read-only query returning rows, naming the reason, and never writes a file', async () => {
    const dir = folders.make('witness-gate-');
    const before = [sha(retail), sha(clinic)];
    const refused: [string, RegExp][] = [
      [`ATTACH DATABASE '${clinic}' AS other`, /ATTACH opens another database/],
      ['DETACH DATABASE other', /DETACH/],
      ['PRAGMA user_version = 7', /PRAGMA changes a setting/],
      // Setters SQLite reports as read-only statements returning rows: they would change the warm connection for later queries.
      ['PRAGMA mmap_size = 1000000', /PRAGMA changes a setting/],
      ['PRAGMA busy_timeout = 5', /PRAGMA changes a setting/],
      ['PRAGMA main.locking_mode = EXCLUSIVE', /PRAGMA changes a setting/],
      ['PRAGMA hard_heap_limit(100)', /PRAGMA changes a setting/],
      [`VACUUM INTO '${join(dir, 'copy.sqlite')}'`, /VACUUM/],
      ['VACUUM', /VACUUM/],
      ['CREATE TEMP TABLE scratch (x)', /CREATE changes the schema/],
      ["INSERT INTO regions VALUES (99, 'Nowhere')", /INSERT modifies/],
      ['WITH x AS (SELECT 1) DELETE FROM regions WHERE region_id IN (SELECT * FROM x)', /DELETE modifies/],
      ['UPDATE customers SET city = NULL', /UPDATE modifies/],
      ['BEGIN IMMEDIATE', /transactions/],
      ['ANALYZE', /ANALYZE/],
      ['SELECT 1; DELETE FROM regions', /several statements/],
      ['SELECT 1; SELECT 2', /several statements/],
    ];
    for (const [sql, reason] of refused) {
      const result = await pool.run({ path: retail }, sql, 5000);
      expect(result, sql).toMatchObject({ ok: false, kind: 'unsafe' });
      expect((result as { message: string }).message, sql).toMatch(reason);
      expect((result as { message: string }).message, sql).toMatch(
        /^only a single read-only query that returns rows may run/,
      );
    }
    expect(await pool.run({ path: retail }, 'PRAGMA table_info(regions)', 5000)).toMatchObject({ ok: true });
    expect(await pool.run({ path: retail }, 'PRAGMA main.integrity_check(3)', 5000)).toMatchObject({
      ok: true,
      rows: [['ok']],
    });
    expect(await pool.run({ path: retail }, 'PRAGMA busy_timeout', 5000)).toMatchObject({ ok: true });
    expect(await pool.run({ path: retail }, 'SELECT COUNT(*) FROM regions;', 5000)).toMatchObject({
      ok: true,
      rows: [[5]],
    });
    expect(existsSync(join(dir, 'copy.sqlite'))).toBe(false);
    expect([sha(retail), sha(clinic)]).toEqual(before);
  });

  it('tells syntax errors, empty queries and missing databases apart', async () => {
    expect(await pool.run({ path: retail }, 'SELEC 1', 5000)).toMatchObject({
      ok: false,
      kind: 'syntax',
      message: 'near "SELEC": syntax error',
    });
    expect(await pool.run({ path: retail }, 'SELECT nope FROM customers', 5000)).toMatchObject({
      ok: false,
      kind: 'syntax',
      message: 'no such column: nope',
    });
    expect(await pool.run({ path: retail }, '  -- nothing', 5000)).toMatchObject({
      ok: false,
      kind: 'syntax',
      message: 'the query is empty',
    });
    expect(await pool.run({ path: join(tmpdir(), 'no-such.sqlite') }, 'SELECT 1', 5000)).toMatchObject({
      ok: false,
      kind: 'runtime',
      message: /cannot open the database/,
    });
  });

  it('refuses SQL text holding a NUL character or an unpaired surrogate, as Python’s sqlite3 (BIRD’s evaluator) does', async () => {
    // Text after a NUL used to be dropped silently, so this scored as the gold `… IS NULL` query.
    const nul = await pool.run(
      { path: retail },
      'SELECT COUNT(*) FROM customers WHERE email IS NULL\u0000; DELETE FROM customers',
      5000,
    );
    expect(nul).toMatchObject({ ok: false, kind: 'syntax', message: 'the query contains a null character' });
    expect(pythonError('SELECT 1 IS NULL\u0000; DELETE FROM customers')).toBe('the query contains a null character');
    const lone = await pool.run({ path: retail }, "SELECT 'x\ud800' = 'x' || char(65533)", 5000);
    expect(lone).toMatchObject({
      ok: false,
      kind: 'syntax',
      message: expect.stringMatching(
        /^the query is not valid Unicode: an unpaired surrogate \(U\+D800\) at position 9/,
      ),
    });
    expect(pythonError("SELECT 'x\ud800' = 'x' || char(65533)")).toMatch(/surrogates not allowed/);
    // A surrogate pair is a character like any other.
    expect(await pool.run({ path: retail }, "SELECT '\ud83d\ude00'", 5000)).toMatchObject({ ok: true, rows: [['😀']] });
  });

  it('kills a stuck query at its deadline, replaces the child and keeps the queued requests', async () => {
    const single = new SqlPool({ size: 1, pipeline: 3 });
    try {
      const started = performance.now();
      const [stuck, after1, after2] = await Promise.all([
        single.run({ path: retail }, STUCK, 300),
        single.run({ path: retail }, 'SELECT COUNT(*) FROM orders', 5000),
        single.sequence({ path: retail }, ['SELECT 1', 'SELECT 2'], 5000),
      ]);
      const elapsed = performance.now() - started;
      expect(stuck).toMatchObject({ ok: false, kind: 'timeout', message: 'the query did not finish within 300 ms' });
      expect(after1).toMatchObject({ ok: true, rows: [[2500]] });
      expect(after2).toMatchObject([
        { ok: true, rows: [[1]] },
        { ok: true, rows: [[2]] },
      ]);
      expect(elapsed).toBeLessThan(5000);
      expect(single.stats()).toMatchObject({ killed: 1, spawned: 2 });
    } finally {
      await single.dispose();
    }
  });

  it('gives the statements of a sequence one combined deadline (BIRD times predicted + gold together), and says which one it stopped', async () => {
    const [first, second] = await pool.sequence({ path: retail }, ['SELECT 1', STUCK], 300);
    expect(first).toMatchObject({ ok: true, rows: [[1]] });
    expect(second).toMatchObject({ ok: false, kind: 'timeout', message: 'the query did not finish within 300 ms' });
    const [stuck, never] = await pool.sequence({ path: retail }, [STUCK, 'SELECT 1'], 300);
    expect([stuck, never]).toMatchObject([
      { ok: false, kind: 'timeout' },
      { ok: false, kind: 'timeout' },
    ]);
  });

  it('stops a result bomb at the caps while SQLite steps (too-large); the child stays, and the queries queued with it get their results', async () => {
    const single = new SqlPool({ size: 1, pipeline: 3 });
    const peak = peakRss(() => single.pids());
    try {
      const started = performance.now();
      const [blobs, after, pair, capped] = await Promise.all([
        single.run({ path: retail }, `${COUNTER(3000)} SELECT zeroblob(1000000) FROM c`, 30_000),
        single.run({ path: retail }, 'SELECT COUNT(*) FROM orders', 5000),
        single.sequence({ path: retail }, [`${COUNTER(2_000_000)} SELECT x FROM c`, 'SELECT 2'], 30_000),
        single.run({ path: retail }, 'SELECT * FROM orders', 5000, { maxRows: 100 }),
      ]);
      expect(blobs).toMatchObject({
        ok: false,
        kind: 'too-large',
        message: 'the result is larger than 128 MiB (the limit; stopped at row 135)',
      });
      expect(after).toMatchObject({ ok: true, rows: [[2500]] });
      expect(pair).toMatchObject([
        { ok: false, kind: 'too-large', message: 'the result has more than 1,000,000 rows (the limit)' },
        { ok: true, rows: [[2]] },
      ]);
      expect(capped).toMatchObject({
        ok: false,
        kind: 'too-large',
        message: 'the result has more than 100 rows (the limit)',
      });
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(single.stats()).toEqual({ spawned: 1, adopted: 0, killed: 0, crashed: 0 });
      expect(peak.stop()).toBeLessThan(1024 ** 3);
    } finally {
      peak.stop();
      await single.dispose();
    }
  }, 30_000);

  it('caps single huge values too: SQLite’s own size limit, and the memory a child may take', async () => {
    const single = new SqlPool({ size: 1 });
    const peak = peakRss(() => single.pids());
    try {
      const huge = [
        ["SELECT printf('%.*c', 2000000000, 'x')", /^string or blob too big/],
        ['SELECT zeroblob(1000000000)', /^(string or blob too big|out of memory)/],
        [
          "WITH RECURSIVE c(s, n) AS (SELECT 'x', 0 UNION ALL SELECT s || s, n + 1 FROM c WHERE n < 40) SELECT length(s) FROM c",
          /^string or blob too big/,
        ],
        ['SELECT zeroblob(400000000)', /^out of memory$/],
        // SQLite can build this one, but a child cannot hold a copy of it as well: it dies, and the query was the cause.
        [
          'SELECT zeroblob(250000000)',
          /^the SQLite process ran out of memory while running the query \(it may use 384 MiB\)$/,
        ],
      ] as const;
      for (const [sql, message] of huge) {
        const started = performance.now();
        expect(await single.run({ path: retail }, sql, 30_000), sql).toMatchObject({
          ok: false,
          kind: 'too-large',
          message,
        });
        expect(performance.now() - started, sql).toBeLessThan(10_000);
      }
      expect(await single.run({ path: retail }, 'SELECT 42', 5000)).toMatchObject({ ok: true, rows: [[42]] });
      expect(peak.stop()).toBeLessThan(1024 ** 3);
    } finally {
      peak.stop();
      await single.dispose();
    }
  }, 60_000);

  it('stops a query whose sort spills more temporary data than a file may hold, instead of filling the disk', async () => {
    const small = new SqlPool({ size: 1, tempFileMb: 8 });
    try {
      const started = performance.now();
      const spill = await small.run(
        { path: retail },
        "SELECT a.order_id, b.order_id, printf('%.200c', 'x') FROM orders a, orders b ORDER BY random()",
        30_000,
      );
      expect(spill).toMatchObject({
        ok: false,
        kind: 'too-large',
        message: /: the query needed a temporary file over 8 MiB \(the limit\)$/,
      });
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(
        await small.run({ path: retail }, 'SELECT COUNT(*) FROM (SELECT order_id FROM orders ORDER BY random())', 5000),
      ).toMatchObject({ ok: true, rows: [[2500]] });
    } finally {
      await small.dispose();
    }
  }, 30_000);

  it('refuses SQL text over the cap, and statements beyond SQLite’s limits, as too complex; other mistakes stay syntax errors', async () => {
    const cases: [string, string, string | RegExp][] = [
      [
        `SELECT 1 WHERE 0 IN (${Array.from({ length: 700_000 }, (_, i) => i).join(',')})`,
        'too-complex',
        /^the query text is 5,\d{3},\d{3} bytes long; the limit is 1,048,576 \(1 MiB\)$/,
      ],
      [
        `SELECT ${Array(1500).fill('1').join(' + ')}`,
        'too-complex',
        'Expression tree is too large (maximum depth 1000)',
      ],
      [
        `SELECT ${'('.repeat(100_000)}1${')'.repeat(100_000)}`,
        'too-complex',
        /^(Recursion limit|parser stack overflow)/,
      ],
      [Array(600).fill('SELECT 1').join(' UNION ALL '), 'too-complex', 'too many terms in compound SELECT'],
      [`SELECT ${Array(2500).fill('1').join(', ')}`, 'too-complex', 'too many columns in result set'],
      [
        `SELECT 1 FROM ${Array.from({ length: 70 }, (_, i) => `regions r${i}`).join(', ')}`,
        'too-complex',
        /^at most 64 tables in a join/,
      ],
      ["SELECT 'unterminated", 'syntax', `unrecognized token: "'unterminated"`],
    ];
    for (const [sql, kind, message] of cases) {
      expect(await pool.run({ path: retail }, sql, 10_000), sql.slice(0, 60)).toMatchObject({
        ok: false,
        kind,
        message,
      });
    }
    // A long list that SQLite takes is an ordinary query.
    expect(
      await pool.run(
        { path: retail },
        `SELECT COUNT(*) FROM orders WHERE order_id IN (${Array.from({ length: 100_000 }, (_, i) => i).join(',')})`,
        10_000,
      ),
    ).toMatchObject({ ok: true, rows: [[2500]] });
    const [long, fine] = await pool.sequence(
      { path: retail },
      [`SELECT '${'x'.repeat(2 * 1024 * 1024)}'`, 'SELECT 3'],
      5000,
    );
    expect(long).toMatchObject({ ok: false, kind: 'too-complex' });
    expect(fine).toMatchObject({ ok: true, rows: [[3]] });
  }, 30_000);

  it('reports a child that runs out of memory as a too-large result of the query that did it, and goes on', async () => {
    const small = new SqlPool({ size: 1, heapMb: 48 });
    try {
      const huge = await small.run(
        { path: retail },
        `${COUNTER(900_000)} SELECT x, printf('%.40c', 'a') FROM c`,
        30_000,
      );
      expect(huge).toMatchObject({
        ok: false,
        kind: 'too-large',
        message: /^the SQLite process ran out of memory while running the query/,
      });
      expect(await small.run({ path: retail }, 'SELECT 42', 5000)).toMatchObject({ ok: true, rows: [[42]] });
      expect(small.stats()).toMatchObject({ crashed: 1 });
    } finally {
      await small.dispose();
    }
  }, 30_000);

  it('runs queries on an in-memory database image, read-only', async () => {
    const image = readFileSync(retail);
    expect(await pool.run({ bytes: new Uint8Array(image) }, 'SELECT COUNT(*) FROM regions', 5000)).toMatchObject({
      ok: true,
      rows: [[5]],
    });
    expect(await pool.run({ bytes: new Uint8Array(image) }, 'DELETE FROM regions', 5000)).toMatchObject({
      ok: false,
      kind: 'unsafe',
    });
  });

  it('times predicted and gold runs interleaved for VES', async () => {
    const timing = await pool.time(
      { path: retail },
      'SELECT * FROM orders',
      'SELECT COUNT(*) FROM orders',
      5,
      'all-rows',
      10_000,
    );
    expect(timing.ok).toBe(true);
    if (!timing.ok) return;
    expect(timing.predMs).toHaveLength(5);
    expect(timing.goldMs).toHaveLength(5);
    expect(await pool.time({ path: retail }, 'DELETE FROM orders', 'SELECT 1', 5, 'first-row', 10_000)).toMatchObject({
      ok: false,
      kind: 'unsafe',
    });
  });

  it.each(['death-signal', 'watchdog'] as const)(
    'leaves no child behind when its parent is killed with SIGKILL during a runaway query (%s)',
    async (orphanGuard) => {
      const dir = folders.make('witness-pool-orphans-');
      const script = join(dir, 'orphans.mts');
      writeFileSync(
        script,
        [
          `import { SqlPool } from ${JSON.stringify(join(root, 'oracles/sql/pool.ts'))};`,
          `const pool = new SqlPool({ size: 2, orphanGuard: ${JSON.stringify(orphanGuard)} });`,
          'pool.warm();',
          `for (let i = 0; i < 2; i++) void pool.run({ path: ${JSON.stringify(retail)} }, ${JSON.stringify(STUCK)}, 600_000);`,
          'setTimeout(() => console.log(JSON.stringify(pool.pids())), 600);',
          'setInterval(() => {}, 1000);',
        ].join('\n'),
      );
      const parent = spawn(process.execPath, ['--import', 'tsx', script], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let pids: number[] = [];
      try {
        const line = await new Promise<string>((resolve, reject) => {
          parent.stdout.setEncoding('utf8').once('data', resolve);
          parent.once('exit', () => reject(new Error('the parent script ended early')));
        });
        pids = JSON.parse(line) as number[];
        expect(pids).toHaveLength(2);
        expect(pids.every(isRunning)).toBe(true);
      } finally {
        parent.kill('SIGKILL'); // also when an expectation failed: its children must not outlive the test
      }
      expect(await stillRunning(pids, 5000), 'children still running 5 s after their parent was killed').toEqual([]);
    },
    30_000,
  );

  it('never keeps the parent alive, and kills children still stuck when the parent exits', async () => {
    const dir = folders.make('witness-pool-exit-');
    const script = join(dir, 'exit.mts');
    writeFileSync(
      script,
      [
        `import { SqlPool } from ${JSON.stringify(join(root, 'oracles/sql/pool.ts'))};`,
        'const pool = new SqlPool({ size: 2 });',
        `const done = await pool.run({ path: ${JSON.stringify(retail)} }, 'SELECT 1', 5000);`,
        `void pool.run({ path: ${JSON.stringify(retail)} }, ${JSON.stringify(STUCK)}, 60_000);`,
        'await new Promise((r) => setTimeout(r, 200));',
        'console.log(JSON.stringify({ ok: done.ok, pids: pool.pids() }));',
        'process.exit(0);',
      ].join('\n'),
    );
    const started = performance.now();
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(performance.now() - started).toBeLessThan(15_000);
    const { ok, pids } = JSON.parse(run.stdout) as { ok: boolean; pids: number[] };
    expect(ok).toBe(true);
    expect(pids.length).toBeGreaterThan(0);
    expect(await stillRunning(pids), 'children still running after their parent exited').toEqual([]);

    // Idle children alone never hold the process: no dispose, no exit call.
    writeFileSync(
      script,
      [
        `import { SqlPool } from ${JSON.stringify(join(root, 'oracles/sql/pool.ts'))};`,
        'const pool = new SqlPool({ size: 2 });',
        `console.log((await pool.run({ path: ${JSON.stringify(retail)} }, 'SELECT 7', 5000)).ok);`,
      ].join('\n'),
    );
    const idle = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(idle.status, idle.stderr).toBe(0);
    expect(idle.stdout.trim()).toBe('true');
  });
});
