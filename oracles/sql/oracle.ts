/**
 * The SQL oracle (BIRD on SQLite). A task's cases are its database plus hidden perturbed copies of
 * it (one case each, for fix/break counting); the verdict passes when the candidate's result equals
 * the gold's on the original database under the comparison mode (`set` = BIRD's EX) — and, after
 * hardening, on the probe databases it was extended with. Gold results are computed once per task
 * and database. Candidates run in the warm child-process pool behind the read-only gate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BoundedCache } from '../../core/bounded-cache.ts';
import type { SimulatedOracle } from '../../core/oracle.ts';
import { goldFailure, TaskInputError } from '../../core/oracle.ts';
import type { Candidate, JsonObject, Task, Verdict, Witness } from '../../core/types.ts';
import { diffResults, hasTopLevelOrderBy, resultsEqual } from './compare.ts';
import { DatabaseContext } from './database.ts';
import type { SqlCase, SqlOracleOptions, SqlPrepared, SqlRuntime } from './prepared.ts';
import { extractSql } from './extract.ts';
import { sqlHardener, type ProbeRegistry } from './hardener.ts';
import { sqlMutants } from './mutate.ts';
import { sqlObserver } from './observer.ts';
import { formatBytes } from './engine-limits.mjs';
import { resolveLimits, type QueryLimits } from './limits.ts';
import { SqlPool, type DbRef, type ExecFailure, type ExecResult } from './pool.ts';
import { cacheKey, ResultCache } from './result-cache.ts';
import { sqlRenderer } from './render.ts';
import { sqlSimulator } from './simulator.ts';
import { sqliteVersionOnce } from './sqlite-version.ts';
import { DEFAULT_VES_ITERATIONS, timeRatio, vesTerm } from './ves.ts';
import type { ResultSet } from './values.ts';
import { witnessesFromDiff } from './witnesses.ts';

export type { SqlOracleOptions, SqlPrepared } from './prepared.ts';

/** Results and timings remembered (the same SQL recurs across strategies and turns), and the bytes of results kept. */
const MAX_CACHED = 8192;
const MAX_CACHED_BYTES = 256 * 1024 * 1024;

const shape = (r: ResultSet) => ({ rows: r.rows.length, columns: r.columns.length });

/** What to change when the gold itself hits a limit: it is the dataset or the configuration, never the model. */
function goldHint(kind: ExecFailure['kind'], limits: QueryLimits): string {
  if (kind === 'timeout') return ' (raise timeoutMs if the gold needs longer)';
  if (kind === 'too-large')
    return ` (the caps are ${limits.maxRows.toLocaleString('en-US')} rows and ${formatBytes(limits.maxResultBytes)}: raise maxRows / maxResultBytes)`;
  if (kind === 'too-complex') return ` (the SQL text cap is ${formatBytes(limits.maxSqlBytes)}: raise maxSqlBytes)`;
  return '';
}

/** The SQL oracle over SQLite databases (BIRD). */
export function sqlOracle(options: SqlOracleOptions = {}): SimulatedOracle<SqlPrepared> {
  const mode = options.mode ?? 'set';
  const timeoutMs = options.timeoutMs ?? 30_000;
  const perturbedCopies = options.perturbedCopies ?? 3;
  const seed = options.seed ?? 0;
  const vesIterations = options.ves === false ? 0 : (options.ves?.iterations ?? DEFAULT_VES_ITERATIONS);
  const probeDatabases = options.probeDatabases ?? 24;
  const maxImageBytes = options.maxImageBytes ?? 64 * 1024 * 1024;
  const checkGoldMutants = options.checkGoldMutants ?? true;
  const limits: QueryLimits = resolveLimits(
    { maxRows: options.maxRows, maxResultBytes: options.maxResultBytes, maxSqlBytes: options.maxSqlBytes },
    'sqlOracle',
  );
  let pool = options.pool;
  const getPool = () => (pool ??= new SqlPool({ limits }));
  const render = sqlRenderer();

  let scratch: string | undefined;
  const removeScratch = () => scratch && rmSync(scratch, { recursive: true, force: true });
  const scratchDir = () => {
    if (!scratch) {
      scratch = mkdtempSync(join(tmpdir(), 'witness-sql-'));
      process.on('exit', removeScratch);
    }
    return scratch;
  };
  const databases = new Map<string, DatabaseContext>();
  const database = (path: string) => {
    let context = databases.get(path);
    if (!context) {
      context = new DatabaseContext(path, { maxImageBytes, perturbedCopies, seed, scratchDir });
      databases.set(path, context);
    }
    return context;
  };

  const results = new ResultCache(MAX_CACHED, MAX_CACHED_BYTES);
  /** Runs a query on a case's database, remembering the result (the same SQL on the same database recurs often). */
  function execute(db: DbRef, key: string, sql: string, deadlineMs = timeoutMs): Promise<ExecResult> {
    return results.get(cacheKey(key, String(deadlineMs), sql), () => getPool().run(db, sql, deadlineMs, limits));
  }

  const timings = new BoundedCache<string, Promise<number | null>>({ maxEntries: MAX_CACHED });
  /** BIRD's VES time ratio for a correct candidate on the original database (null when timing failed). */
  function efficiency(prepared: SqlPrepared, sql: string): Promise<number | null> {
    const key = cacheKey(prepared.database.path, prepared.task.gold, sql);
    return timings.remember(key, () =>
      getPool()
        .time(
          { path: prepared.database.path },
          sql,
          prepared.task.gold,
          vesIterations,
          'first-row',
          timeoutMs * vesIterations,
        )
        .then((t) => (t.ok ? timeRatio(t.goldMs, t.predMs) : null)),
    );
  }

  const registry: ProbeRegistry = new Map();
  const findCase = (prepared: SqlPrepared, id: string | undefined) =>
    prepared.cases.find((c) => c.id === id) ?? (id ? hardener.probeCase(id) : undefined);

  async function check(prepared: SqlPrepared, candidate: Candidate): Promise<Verdict> {
    const started = performance.now();
    const sql = candidate.source;
    // The other cases run only when the original database gave a result: a failing query (a
    // timeout, a result bomb) fails on every case, and should hold the pool once, not once per case.
    const [first, ...others] = prepared.cases;
    const original = await execute((first as SqlCase).db, (first as SqlCase).key, sql);
    const outcomes = [
      original,
      ...(original.ok ? await Promise.all(others.map((c) => execute(c.db, c.key, sql))) : []),
    ];
    const sqliteMs = outcomes.reduce((n, o) => n + o.ms, 0);
    // A wrong answer's VES is 0 (when VES is measured at all).
    const base = {
      mode,
      ...(mode === 'ordered' ? { goldOrdered: prepared.goldOrdered } : {}),
      ...(vesIterations > 0 ? { ves: 0 } : {}),
    };
    if (!original.ok) {
      return {
        pass: false,
        cases: prepared.cases.map((c) => ({ id: c.id, pass: false })),
        witnesses: [],
        error: { kind: original.kind, message: original.message },
        timings: { totalMs: performance.now() - started, sqliteMs },
        detail: base,
      };
    }
    const cases = prepared.cases.map((c, i) => {
      const o = outcomes[i] as ExecResult;
      return { id: c.id, pass: o.ok && resultsEqual(o.rows, c.gold.rows, mode, prepared.goldOrdered) };
    });
    const failedRequired = prepared.cases.findIndex((c, i) => c.required && !cases[i]?.pass);
    const witnesses: Witness[] = [];
    let error: Verdict['error'];
    prepared.cases.forEach((c, i) => {
      const o = outcomes[i] as ExecResult;
      if (!c.required || cases[i]?.pass) return;
      if (!o.ok) error ??= { kind: o.kind, message: o.message };
      const actual = o.ok ? o : { columns: c.gold.columns, rows: [] };
      witnesses.push(...witnessesFromDiff(diffResults(actual, c.gold, mode, prepared.goldOrdered), c.id, c.change));
    });
    const pass = failedRequired === -1;
    const failing = prepared.cases[failedRequired];
    const failingOutcome = outcomes[failedRequired];
    const detail: JsonObject = {
      ...base,
      result: failingOutcome?.ok ? shape(failingOutcome) : shape(original),
      expected: shape((failing ?? (prepared.cases[0] as SqlCase)).gold),
      ...(failing ? { failedOn: failing.id } : {}),
    };
    if (pass && vesIterations > 0) {
      const ratio = await efficiency(prepared, sql);
      if (ratio !== null) Object.assign(detail, { timeRatio: ratio, ves: 100 * vesTerm(ratio), vesIterations });
    }
    return {
      pass,
      cases,
      witnesses,
      ...(error ? { error } : {}),
      timings: { totalMs: performance.now() - started, sqliteMs },
      detail,
    };
  }

  const hardener = sqlHardener({
    mode,
    probeDatabases,
    registry,
    sequence: (db, sqls) => getPool().sequence(db, sqls, Math.min(timeoutMs, 10_000), limits),
  });

  const runtime: SqlRuntime = { mode, execute, findCase };
  const observer = sqlObserver(runtime);

  return {
    name: 'sql',
    language: 'sql',
    render,
    hardener,
    observer,
    settings: () => ({
      engine: 'sqlite',
      sqlite: sqliteVersionOnce(),
      mode,
      timeoutMs,
      perturbedCopies,
      seed,
      ves:
        vesIterations > 0
          ? { iterations: vesIterations, timed: 'prepare + first row, predicted then gold, interleaved' }
          : false,
      probeDatabases,
      doubleQuotedStrings: 'legacy (as Python sqlite3)',
      limits: { maxRows: limits.maxRows, maxResultBytes: limits.maxResultBytes, maxSqlBytes: limits.maxSqlBytes },
    }),
    promptVariables: (task) => {
      const context = task.context ?? {};
      return {
        schema: typeof context.schema === 'string' ? context.schema : '',
        evidence: typeof context.evidence === 'string' ? context.evidence : '',
        db_id: typeof context.db_id === 'string' ? context.db_id : '',
        dialect: 'SQLite',
      };
    },
    async prepare(task: Task): Promise<SqlPrepared> {
      const item = `task ${task.id}`;
      const dbPath = task.context?.db_path;
      if (typeof dbPath !== 'string' || dbPath === '')
        throw new TaskInputError(item, 'context.db_path must name the SQLite database file');
      let context: DatabaseContext;
      try {
        context = database(resolve(dbPath));
      } catch (error) {
        throw new TaskInputError(item, `cannot open the database ${dbPath}: ${(error as Error).message}`);
      }
      const refs = [
        { id: 'original', db: { path: context.path }, key: context.path },
        ...context.hidden.map((h) => ({ id: h.id, db: { path: h.path }, key: h.path })),
      ];
      const golds = await Promise.all(refs.map((r) => execute(r.db, r.key, task.gold)));
      const goldOriginal = golds[0] as ExecResult;
      // A gold that fails on its own database is invalid data; one a limit stopped is the run's to fix.
      if (!goldOriginal.ok)
        throw goldFailure(
          item,
          goldOriginal.kind,
          `the gold SQL fails on ${dbPath} (${goldOriginal.kind}): ${goldOriginal.message}${goldHint(goldOriginal.kind, limits)}`,
        );
      // A copy on which the gold itself fails cannot judge anything: it is left out of this task's cases.
      const cases: SqlCase[] = refs.flatMap((r, i) => {
        const g = golds[i] as ExecResult;
        return g.ok ? [{ ...r, gold: { columns: g.columns, rows: g.rows }, required: i === 0 }] : [];
      });
      const goldOrdered = hasTopLevelOrderBy(task.gold);
      const mutants = checkGoldMutants
        ? sqlMutants(task.gold, context.schema).filter((m) => context.canPrepare(m.sql))
        : [];
      const probed = await Promise.all(
        mutants.map((m) => execute(refs[0]!.db, refs[0]!.key, m.sql, Math.min(timeoutMs, 2000))),
      );
      const goldMutants = mutants.filter((_, i) => {
        const r = probed[i] as ExecResult;
        return r.ok && !resultsEqual(r.rows, goldOriginal.rows, mode, goldOrdered);
      });
      return {
        task,
        caseIds: cases.map((c) => c.id),
        database: context,
        cases,
        goldOrdered,
        goldMutants: goldMutants.map((m) => m.sql),
      };
    },
    extract: extractSql,
    check,
    simulator: sqlSimulator(runtime),
    async dispose() {
      if (!options.pool) await pool?.dispose();
      pool = undefined;
      for (const context of databases.values()) context.close();
      databases.clear();
      results.clear();
      timings.clear();
      registry.clear();
      removeScratch();
      process.off('exit', removeScratch);
      scratch = undefined;
    },
  };
}
