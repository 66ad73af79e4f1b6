// The SQLite child process of the warm pool (plain JS: it must start without TypeScript tooling).
// It keeps databases open read-only and answers one request at a time over IPC. Every statement
// passes the gate first: a single statement that SQLite reports as read-only and returning rows
// (stmt.readonly && stmt.reader); nothing else is ever stepped. The parent enforces deadlines by
// SIGKILL (SQLite cannot be interrupted from JS), so nothing here needs to watch the clock.
import Database from 'better-sqlite3';
import { prepareStatement, SEVERAL_STATEMENTS, unsafeReason } from './sql-text.mjs';

const MAX_OPEN = 64;
const open = new Map();

function database(ref) {
  if (ref.bytes) {
    const bytes = ref.bytes;
    return { db: new Database(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { readonly: true }), transient: true };
  }
  let db = open.get(ref.path);
  if (db) {
    open.delete(ref.path);
  } else {
    db = new Database(ref.path, { readonly: true, fileMustExist: true });
    if (open.size >= MAX_OPEN) {
      const [oldest, handle] = open.entries().next().value;
      open.delete(oldest);
      handle.close();
    }
  }
  open.set(ref.path, db);
  return { db, transient: false };
}

function withDatabase(ref, use) {
  let handle;
  try {
    handle = database(ref);
  } catch (error) {
    return { failure: { ok: false, kind: 'runtime', message: `cannot open the database: ${error.message}`, ms: 0 } };
  }
  try {
    return { value: use(handle.db) };
  } finally {
    if (handle.transient) handle.db.close();
  }
}

// Gate + prepare. Returns { stmt } or { failure }.
function gate(db, sql) {
  let stmt;
  try {
    stmt = prepareStatement((text) => db.prepare(text), sql).statement;
  } catch (error) {
    const message = String(error && error.message);
    if (message.includes('more than one statement')) return { failure: { ok: false, kind: 'unsafe', message: SEVERAL_STATEMENTS } };
    if (message.includes('contains no statements')) return { failure: { ok: false, kind: 'syntax', message: 'the query is empty' } };
    return { failure: { ok: false, kind: 'syntax', message } };
  }
  if (!(stmt.readonly && stmt.reader)) return { failure: { ok: false, kind: 'unsafe', message: unsafeReason(sql) } };
  stmt.raw(true);
  return { stmt };
}

// Integers travel as numbers, except beyond ±2^53 where a double would round them: a result with
// such a number is read again with exact (bigint) integers, the rest of it converted back.
const LIMIT = 9007199254740991n;
function needsExactIntegers(rows) {
  for (const row of rows) {
    for (const v of row) if (typeof v === 'number' && (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER) && Number.isInteger(v)) return true;
  }
  return false;
}
function exactRows(stmt) {
  const rows = stmt.safeIntegers(true).all();
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const v = row[i];
      if (typeof v === 'bigint' && v <= LIMIT && v >= -LIMIT) row[i] = Number(v);
    }
  }
  return rows;
}

function execute(db, sql) {
  const started = performance.now();
  const { stmt, failure } = gate(db, sql);
  if (failure) return { ...failure, ms: performance.now() - started };
  try {
    let rows = stmt.all();
    const ms = performance.now() - started;
    if (needsExactIntegers(rows)) rows = exactRows(stmt);
    return { ok: true, columns: stmt.columns().map((c) => c.name), rows, ms };
  } catch (error) {
    return { ok: false, kind: 'runtime', message: String(error && error.message), ms: performance.now() - started };
  }
}

// VES timing: prepare + first step ('first-row', what Python's cursor.execute covers) or prepare +
// every row ('all-rows', R-VES's execute + fetchall), predicted then gold, interleaved.
function time(db, { pred, gold, iterations, scope }) {
  const checks = [gate(db, pred), gate(db, gold)];
  const failed = checks.find((c) => c.failure);
  if (failed) return { ok: false, kind: failed.failure.kind, message: failed.failure.message };
  const texts = [pred, gold].map((sql) => prepareStatement((text) => db.prepare(text), sql).sql);
  const run = (text) => {
    const t0 = performance.now();
    const stmt = db.prepare(text).raw(true);
    if (scope === 'all-rows') stmt.all();
    else stmt.get();
    return performance.now() - t0;
  };
  const predMs = [];
  const goldMs = [];
  try {
    for (let i = 0; i < iterations; i++) {
      predMs.push(run(texts[0]));
      goldMs.push(run(texts[1]));
    }
  } catch (error) {
    return { ok: false, kind: 'runtime', message: String(error && error.message) };
  }
  return { ok: true, predMs, goldMs };
}

function handle(message) {
  switch (message.op) {
    case 'run': {
      const { value, failure } = withDatabase(message.db, (db) => execute(db, message.sql));
      return { result: failure ?? value };
    }
    case 'pair': {
      const { value, failure } = withDatabase(message.db, (db) => message.sqls.map((sql) => execute(db, sql)));
      return { results: failure ? message.sqls.map(() => failure) : value };
    }
    case 'time': {
      const { value, failure } = withDatabase(message.db, (db) => time(db, message));
      return { timing: failure ?? value };
    }
    default:
      throw new Error(`unknown request ${JSON.stringify(message.op)}`);
  }
}

process.on('message', (message) => {
  let reply;
  try {
    reply = { id: message.id, ...handle(message) };
  } catch (error) {
    reply = { id: message.id, failure: String((error && error.stack) || error) };
  }
  process.send(reply);
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
