import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskInputError } from '../../core/oracle.ts';
import { Rng } from '../../core/random.ts';
import type { Candidate, Task } from '../../core/types.ts';
import { diagnostic } from '../../strategies/diagnostic.ts';
import { errorOnly } from '../../strategies/error-only.ts';
import { BIRD_FIXTURES, loadBird } from './loader.ts';
import { sqlOracle, type SqlPrepared } from './oracle.ts';

const sql = (source: string): Candidate => ({ source, extraction: 'code-block' });
const { tasks } = loadBird(BIRD_FIXTURES);
const task = (id: string) => tasks.find((t) => t.id === id) as Task;
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('the SQL oracle', () => {
  const oracle = sqlOracle({ ves: { iterations: 3 }, perturbedCopies: 2 });
  const prepared = new Map<string, SqlPrepared>();
  const prep = async (id: string) => prepared.get(id) ?? prepared.set(id, await oracle.prepare(task(id))).get(id)!;
  const context = (p: SqlPrepared) => ({ task: p.task, render: oracle.render, turn: 1, phase: 'solve' as const });
  afterAll(() => oracle.dispose?.());

  it('prepares stable cases: the original database and perturbed copies, with gold results computed once', async () => {
    const p = await prep('14');
    expect(p.caseIds).toEqual(['original', 'perturbed-1', 'perturbed-2']);
    expect(p.cases.map((c) => c.required)).toEqual([true, false, false]);
    expect(p.cases[0]?.gold.rows).toHaveLength(106);
    expect(p.cases[1]?.gold.rows).not.toEqual(p.cases[0]?.gold.rows);
    expect(p.goldMutants.length).toBeGreaterThan(0);
    expect(oracle.settings()).toMatchObject({
      engine: 'sqlite',
      mode: 'set',
      timeoutMs: 30_000,
      ves: { iterations: 3 },
    });
  });

  it('passes the gold, and puts VES per task in the verdict', async () => {
    const p = await prep('18');
    const v = await oracle.check(p, sql(p.task.gold));
    expect(v.pass).toBe(true);
    expect(v.cases.every((c) => c.pass)).toBe(true);
    expect(v.witnesses).toEqual([]);
    expect(v.detail).toMatchObject({
      mode: 'set',
      ves: expect.any(Number),
      timeRatio: expect.any(Number),
      vesIterations: 3,
    });
  });

  it('shows missing and unexpected rows, shortest first, and row counts for error-only', async () => {
    const p = await prep('14');
    const v = await oracle.check(
      p,
      sql(p.task.gold.replace("T3.city = 'Cardiff'", "T3.city = 'Cardiff' OR T3.city = 'Exeter'")),
    );
    expect(v.pass).toBe(false);
    expect(v.error).toBeUndefined();
    expect(v.witnesses.filter((w) => w.kind === 'missing-row')).toEqual([]);
    expect(v.witnesses.some((w) => w.kind === 'extra-row' && w.caseId === 'original')).toBe(true);
    expect(oracle.render.failureSummary(v)).toMatch(
      /^Your query ran, but the result is wrong: it returned \d+ rows; the expected result has 106 rows\.$/,
    );
    const shown = diagnostic.feedback(v, context(p))!;
    expect(shown.disclosed.witnesses).toHaveLength(2);
    expect(shown.text).toMatch(/unexpected row \('\w+', '[\w']+'\): your result has it, the expected result does not/);
    const terse = errorOnly.feedback(v, context(p))!;
    expect(terse.text).not.toMatch(/row \(/);
    expect(terse.text).toMatch(/the expected result has 106 rows/);
  });

  it('makes a wrong column count or column type visible in diagnostic feedback', async () => {
    const p = await prep('1');
    const wide = await oracle.check(p, sql('SELECT name, city FROM stores WHERE manager IS NULL'));
    expect(diagnostic.feedback(wide, context(p))!.text).toMatch(
      /your result has 2 columns per row; the expected result has 1 column/,
    );
    const q = await prep('0');
    const typed = await oracle.check(
      q,
      sql('SELECT CAST(COUNT(customer_id) AS TEXT) FROM customers WHERE email IS NULL'),
    );
    expect(diagnostic.feedback(typed, context(q))!.text).toMatch(
      /column 1 of your result holds text where the expected result holds numbers/,
    );
  });

  it('cuts long text in rows', async () => {
    const p = await prep('1');
    const v = await oracle.check(p, sql("SELECT name || '" + 'x'.repeat(80) + "' FROM stores WHERE manager IS NULL"));
    expect(v.witnesses.map((w) => oracle.render.witness(w)).join('\n')).toMatch(/x{10}…'\)/);
  });

  it('gives the database’s error text, unsafe reasons and timeouts', async () => {
    const p = await prep('0');
    const bad = await oracle.check(p, sql('SELECT nope FROM customers'));
    expect(bad.error).toEqual({ kind: 'syntax', message: 'no such column: nope' });
    expect(bad.cases.every((c) => !c.pass)).toBe(true);
    expect(errorOnly.feedback(bad, context(p))!.text).toMatch(/^Your query failed: no such column: nope/);
    // Text after a NUL is not dropped: the gold with a stacked DELETE behind a NUL fails, as in BIRD.
    const nul = await oracle.check(p, sql(`${p.task.gold}\u0000; DELETE FROM customers`));
    expect(nul).toMatchObject({
      pass: false,
      error: { kind: 'syntax', message: 'the query contains a null character' },
    });
    const before = sha(p.database.path);
    for (const attack of [
      `ATTACH DATABASE '${p.database.path}' AS x`,
      'PRAGMA user_version = 1',
      "VACUUM INTO '/tmp/witness-copy.sqlite'",
      'CREATE TEMP TABLE z (a)',
      'DELETE FROM customers',
    ]) {
      const v = await oracle.check(p, sql(attack));
      expect(v.error?.kind, attack).toBe('unsafe');
      expect(oracle.render.error(v.error!)).toMatch(
        /^Your query was not run: only a single read-only query that returns rows may run: /,
      );
    }
    expect(sha(p.database.path)).toBe(before);
    const quick = sqlOracle({ timeoutMs: 300, ves: false, perturbedCopies: 0, checkGoldMutants: false });
    try {
      const q = await quick.prepare(task('0'));
      expect(q.goldMutants).toEqual([]);
      const v = await quick.check(
        q,
        sql('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c'),
      );
      expect(v.error).toEqual({ kind: 'timeout', message: 'the query did not finish within 300 ms' });
      expect(quick.render.error(v.error!)).toBe('Your query was stopped: the query did not finish within 300 ms.');
      // Without VES timing, no verdict claims a VES (reports then show none rather than 0).
      expect(v.detail).not.toHaveProperty('ves');
      expect((await quick.check(q, sql(q.task.gold))).detail).not.toHaveProperty('ves');
    } finally {
      await quick.dispose?.();
    }
  });

  it('lets the sim check witnesses: the gold agrees with all of them, the wrong candidate not', async () => {
    const p = await prep('14');
    const wrong = sql(p.task.gold.replace('DISTINCT ', '').replace("'Cardiff'", "'Exeter'"));
    const v = await oracle.check(p, wrong);
    expect(v.witnesses.length).toBeGreaterThan(0);
    for (const w of v.witnesses) expect(await oracle.simulator.agrees(p, sql(p.task.gold), w)).toBe(true);
    const agreements = await Promise.all(v.witnesses.map((w) => oracle.simulator.agrees(p, wrong, w)));
    expect(agreements.every(Boolean)).toBe(false);
  });

  it('mutates the gold into result-changing mistakes and answers in a sql block', async () => {
    const p = await prep('12');
    const rng = new Rng(3);
    for (let i = 0; i < 5; i++) expect(p.goldMutants).toContain(oracle.simulator.mutate(p, p.task.gold, rng));
    const further = oracle.simulator.mutate(p, p.goldMutants[0] as string, rng);
    expect(typeof further).toBe('string');
    expect(oracle.extract(oracle.simulator.answer(p, 'SELECT 1'))).toEqual(sql('SELECT 1'));
  });

  it('hardens: finds a perturbed copy that tells an almost-right query from the gold, with the smallest change', async () => {
    const p = await prep('8');
    const almost = sql(p.task.gold.replace(">= '2022-01-01'", "> '2022-01-01'"));
    expect((await oracle.check(p, almost)).pass).toBe(true);
    const report = await oracle.hardener!.probe(p, almost, { rng: new Rng(1), maxProbes: 320, round: 1 });
    expect(report.probed).toBeGreaterThan(0);
    expect(report.disagreements.length).toBeGreaterThan(0);
    const first = report.disagreements[0]!;
    expect(first.caseId).toMatch(/^probe-[0-9a-f]{8}$/);
    expect((first.input as { change: string[] }).change).toHaveLength(1);
    expect(oracle.render.witness(first)).toMatch(
      /on a modified copy of the database, where I set products\.launch_date to '2022-01-01'/,
    );
    const extended = oracle.hardener!.extend(p, report.disagreements);
    expect(extended.caseIds).toEqual([...p.caseIds, first.caseId]);
    const v = await oracle.check(extended, almost);
    expect(v.pass).toBe(false);
    expect(v.detail?.failedOn).toBe(first.caseId);
    expect(oracle.render.failureSummary(v)).toMatch(
      /^Your query returns the right result on the database, but a wrong one on a modified copy of it/,
    );
    expect((await oracle.check(extended, sql(p.task.gold))).pass).toBe(true);
    expect(await oracle.simulator.agrees(p, sql(p.task.gold), first)).toBe(true);
    expect(await oracle.simulator.agrees(p, almost, first)).toBe(false);
    expect(await oracle.hardener!.exact!(p, sql(`${p.task.gold.toLowerCase().replace(/ +/g, '  ')} ;`))).toBe(true);
    expect(await oracle.hardener!.exact!(p, almost)).toBeNull();
    expect(await oracle.hardener!.probe(p, sql(p.task.gold), { rng: new Rng(1), maxProbes: 320, round: 0 })).toEqual({
      probed: 0,
      disagreements: [],
    });
  });

  it('observes a candidate without judging it, and describes the database', async () => {
    const p = await prep('1');
    const seen = await oracle.observer!.observe(p, sql('SELECT name, city FROM stores ORDER BY store_id'));
    expect(seen).toMatchObject({ ok: true, shape: { rows: 20, columns: 2 } });
    expect(seen.output).toMatch(/^columns: name, city\n\('\w+ (Store|Outlet) 1', '\w+'\)/);
    expect(seen.output).toMatch(/… 10 more rows\n\(20 rows\)$/);
    expect(await oracle.observer!.observe(p, sql('SELECT x FROM stores'))).toMatchObject({
      ok: false,
      error: { kind: 'syntax' },
    });
    const description = await oracle.observer!.describe(p);
    expect(description).toMatch(/CREATE TABLE stores/);
    expect(description).toMatch(/-- regions: region_id, name\n-- {3}\(1, 'North'\)/);
  });

  it('rejects broken task input with an error naming the task', async () => {
    await expect(oracle.prepare({ ...task('0'), context: {} })).rejects.toThrow(TaskInputError);
    await expect(oracle.prepare({ ...task('0'), id: 'x', gold: 'SELECT nope FROM customers' })).rejects.toThrow(
      /^task x: the gold SQL fails on .*retail_shop\.sqlite \(syntax\): no such column: nope/,
    );
  });

  it("tells a gold that fails on its own database (invalid data) from one a limit of the run stopped (Witness's side)", async () => {
    const broken = await oracle.prepare({ ...task('0'), id: 'x', gold: 'SELECT nope FROM customers' }).catch((e) => e);
    expect(broken).toBeInstanceOf(TaskInputError);
    const bomb =
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 3000) SELECT zeroblob(1000000) FROM c';
    const stopped = await oracle.prepare({ ...task('0'), id: 'big', gold: bomb }).catch((e) => e);
    expect(stopped).toBeInstanceOf(Error);
    expect(stopped).not.toBeInstanceOf(TaskInputError);
    expect((stopped as Error).message).toMatch(/^task big: the gold SQL fails on .* \(too-large\): .*raise maxRows/);
  });
});

describe('answers that no engine can run, and result bombs', () => {
  const oracle = sqlOracle({ ves: false, perturbedCopies: 1, checkGoldMutants: false, timeoutMs: 10_000 });
  afterAll(() => oracle.dispose?.());
  const BOMB =
    'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 3000) SELECT zeroblob(1000000) FROM c';

  it('are failed verdicts with a named kind and a clear feedback line, while the checks in flight beside them get their right verdicts', async () => {
    const [p, q] = await Promise.all([oracle.prepare(task('0')), oracle.prepare(task('18'))]);
    const huge = `SELECT COUNT(customer_id) FROM customers WHERE customer_id NOT IN (${Array.from({ length: 300_000 }, (_, i) => i + 100_000).join(', ')}) AND email IS NULL`;
    const [bomb, gold, text, deep, right] = await Promise.all([
      oracle.check(p, sql(BOMB)),
      oracle.check(q, sql(q.task.gold)),
      oracle.check(p, sql(huge)),
      oracle.check(p, sql(`SELECT ${Array(1200).fill('1').join(' + ')}`)),
      oracle.check(p, sql(p.task.gold)),
    ]);
    expect(bomb).toMatchObject({
      pass: false,
      error: { kind: 'too-large', message: /^the result is larger than 128 MiB \(the limit; stopped at row \d+\)$/ },
    });
    expect(bomb.cases.every((c) => !c.pass)).toBe(true);
    expect(oracle.render.error(bomb.error!)).toMatch(
      /^Your query was stopped: the result is larger than 128 MiB .*\. Return only the rows and columns the question asks for\.$/,
    );
    expect(text).toMatchObject({
      pass: false,
      error: {
        kind: 'too-complex',
        message: /^the query text is 2,\d{3},\d{3} bytes long; the limit is 1,048,576 \(1 MiB\)$/,
      },
    });
    expect(oracle.render.error(text.error!)).toMatch(
      /^Your query could not be run: the query text is .*\. Write a shorter, simpler query\.$/,
    );
    expect(deep).toMatchObject({
      pass: false,
      error: { kind: 'too-complex', message: 'Expression tree is too large (maximum depth 1000)' },
    });
    expect([gold.pass, right.pass]).toEqual([true, true]);
  }, 60_000);

  it('follow the caps the oracle is given, which every trajectory records; a gold over them is a task error naming the setting', async () => {
    const tight = sqlOracle({
      ves: false,
      perturbedCopies: 0,
      checkGoldMutants: false,
      maxRows: 50,
      maxSqlBytes: 2000,
    });
    try {
      expect(tight.settings()).toMatchObject({
        limits: { maxRows: 50, maxResultBytes: 128 * 1024 * 1024, maxSqlBytes: 2000 },
      });
      const p = await tight.prepare(task('0'));
      expect(await tight.check(p, sql('SELECT * FROM customers'))).toMatchObject({
        pass: false,
        error: { kind: 'too-large', message: 'the result has more than 50 rows (the limit)' },
      });
      expect(await tight.check(p, sql(`SELECT '${'x'.repeat(3000)}'`))).toMatchObject({
        pass: false,
        error: { kind: 'too-complex' },
      });
      await expect(tight.prepare({ ...task('0'), id: 'wide', gold: 'SELECT * FROM orders' })).rejects.toThrow(
        /^task wide: the gold SQL fails on .*retail_shop\.sqlite \(too-large\): the result has more than 50 rows \(the limit\) \(the caps are 50 rows and 128 MiB: raise maxRows \/ maxResultBytes\)$/,
      );
      expect(() => sqlOracle({ maxResultBytes: 2 ** 31 })).toThrow(/^sqlOracle: maxResultBytes must be at most 1 GiB/);
      expect(() => sqlOracle({ maxRows: 0 })).toThrow(/^sqlOracle: maxRows must be a positive integer, got 0/);
    } finally {
      await tight.dispose?.();
    }
  });
});

describe('ordered mode', () => {
  const oracle = sqlOracle({ mode: 'ordered', ves: false, perturbedCopies: 0 });
  let p: SqlPrepared;
  beforeAll(async () => {
    p = await oracle.prepare(task('18'));
  });
  afterAll(() => oracle.dispose?.());

  it('names the first misplaced row when the gold sorts and the candidate does not', async () => {
    expect(oracle.settings()).toMatchObject({ mode: 'ordered' });
    const v = await oracle.check(p, sql(p.task.gold.replace(/DESC$/, 'ASC')));
    expect(v.pass).toBe(false);
    expect(v.witnesses.map((w) => w.kind)).toEqual(['misordered-row']);
    expect(oracle.render.witness(v.witnesses[0]!)).toMatch(
      /^row 1 of your result is \('\w+', \d+\) but should be \('Central', 54\) \(right rows, wrong order\)$/,
    );
    expect(await oracle.simulator.agrees(p, sql(p.task.gold), v.witnesses[0]!)).toBe(true);
  });
});
