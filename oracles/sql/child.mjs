// The SQLite child process of the warm pool (plain JS: it must start without TypeScript tooling).
// It keeps databases open read-only and answers one request at a time over IPC. Every statement
// passes the gate first (gate.mjs: a single read-only statement returning rows, no PRAGMA setter,
// no load_extension); nothing else is ever stepped.
// Results are collected row by row under the request's caps (rows, estimated bytes) and never
// materialised beyond them. The parent enforces deadlines by SIGKILL (SQLite cannot be interrupted
// from JS), so nothing here needs to watch the clock.
import { createRequire } from 'node:module';
import { serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { stepFailureKind, tooManyBytes, tooManyRows, valueBytes } from './engine-limits.mjs';
import { gate, refusal } from './gate.mjs';
import { flatRows, resultsEqual } from './result-equality.mjs';
import { prepareStatement } from './sql-text.mjs';

// argv: the parent's pid, and 'watchdog' when no parent-death signal was set for this process.
const parentPid = Number(process.argv[2]);
if (parentPid && process.ppid !== parentPid) process.exit(0); // the parent died before we started
if (process.argv[3] === 'watchdog') {
  // The main thread may be stuck inside SQLite for minutes; this thread is not.
  const watch = `const { workerData } = require('node:worker_threads');
    setInterval(() => { if (process.ppid !== workerData) process.kill(process.pid, 'SIGKILL'); }, 250);`;
  new Worker(watch, { eval: true, workerData: parentPid }).unref();
}

// Required, not imported: an ESM import of this CommonJS package parses its exports first (start-up
// time). Loaded after "ready" (see the end), so the parent's own start-up overlaps it.
let Database = null;
const loadDatabase = () => (Database ??= createRequire(import.meta.url)('better-sqlite3'));

const MAX_OPEN = 64;
const open = new Map();

// Read-only twice over (the connection and query_only), and the file memory-mapped: queries read
// pages in place instead of copying each one out of the kernel (a warm child's connection is
// reused, so its mapped pages stay). better-sqlite3 takes no URI filenames, so no `immutable=1`.
const MMAP_BYTES = 2 ** 31 - 65536;
function tune(db) {
  db.pragma('query_only = ON');
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
}

function database(ref) {
  if (ref.bytes) {
    const bytes = ref.bytes;
    return {
      db: new (loadDatabase())(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { readonly: true }),
      transient: true,
    };
  }
  let db = open.get(ref.path);
  if (db) {
    open.delete(ref.path);
  } else {
    db = new (loadDatabase())(ref.path, { readonly: true, fileMustExist: true });
    tune(db);
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

// Values travel flat, in chunks of whole rows (a row array costs ~200 bytes in V8; a flat slot 8).
const CHUNK = 65536;
const LIMIT = 9007199254740991n;

/**
 * Steps the statement, keeping at most `maxRows` rows and `maxResultBytes` estimated bytes; returns
 * { chunks, rows, bytes } or { over } (the too-large message) as soon as a cap is passed.
 * `exact` reads integers as bigints, turning those a double holds exactly back into numbers.
 */
function collect(stmt, { maxRows, maxResultBytes }, exact) {
  stmt.safeIntegers(exact);
  const chunks = [];
  let chunk = [];
  let rows = 0;
  let bytes = 0;
  let unsafe = false;
  for (const row of stmt.iterate()) {
    if (++rows > maxRows) return { over: tooManyRows(maxRows) };
    for (let i = 0; i < row.length; i++) {
      let v = row[i];
      if (exact && typeof v === 'bigint' && v <= LIMIT && v >= -LIMIT) v = Number(v);
      else if (
        typeof v === 'number' &&
        Number.isInteger(v) &&
        (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER)
      )
        unsafe = true;
      bytes += valueBytes(v);
      chunk.push(v);
    }
    if (bytes > maxResultBytes) return { over: tooManyBytes(maxResultBytes, rows) };
    if (chunk.length >= CHUNK) {
      chunks.push(chunk);
      chunk = [];
    }
  }
  if (chunk.length > 0) chunks.push(chunk);
  return { chunks, rows, bytes, unsafe };
}

function execute(db, sql, limits) {
  const started = performance.now();
  const { stmt, failure } = gate(db, sql);
  if (failure) return { ...failure, ms: performance.now() - started };
  try {
    let result = collect(stmt, limits, false);
    const ms = performance.now() - started;
    // Integers beyond ±2^53 would arrive rounded: such a result is read again with exact integers.
    if (result.unsafe) result = collect(stmt, limits, true);
    if (result.over) return { ok: false, kind: 'too-large', message: result.over, ms };
    const columns = stmt.columns().map((c) => c.name);
    return {
      ok: true,
      columns,
      width: columns.length,
      chunks: result.chunks,
      rowCount: result.rows,
      bytes: result.bytes,
      ms,
    };
  } catch (error) {
    return {
      ok: false,
      kind: stepFailureKind(error),
      message: String(error && error.message),
      ms: performance.now() - started,
    };
  }
}

// A result without its rows (their count stays): what the parent needs of a result compared here.
function counted(result) {
  if (!result.ok) return result;
  const { chunks: _rows, ...rest } = result;
  return rest;
}

// BIRD's pair scored where it is read: the prediction, then, if it ran, the gold, on one database;
// then the comparison (BIRD's timeout covers it too). Only the verdict and the row counts go back,
// and the gold's result, serialized, when the parent keeps it (the gold cache). The prediction's
// counts go to the parent as soon as they are ready, so it knows which statement a deadline or a
// crash interrupted.
function score(db, message) {
  const pred = execute(db, message.pred, message.limits);
  if (!pred.ok) return { part: 0, result: pred, done: true };
  process.send({ id: message.id, part: 0, result: counted(pred) });
  const gold = execute(db, message.gold, message.limits);
  if (!gold.ok) return { part: 1, result: gold, done: true };
  const rowsOf = ({ width, chunks, rowCount }) => flatRows(width, chunks, rowCount);
  const equal = resultsEqual(rowsOf(pred), rowsOf(gold), message.mode, message.goldOrdered);
  // Kept, the gold travels serialized here, and the parent stores the bytes without reading them.
  const kept = message.keepGold ? { goldBlob: serialize(gold) } : {};
  return { part: 1, result: counted(gold), equal, ...kept, done: true };
}

// VES timing: prepare + first step ('first-row', what Python's cursor.execute covers) or prepare +
// every row ('all-rows', R-VES's execute + fetchall), predicted then gold, interleaved. Rows are
// stepped but not kept; both queries already ran within the caps.
function time(db, { pred, gold, iterations, scope }) {
  const checks = [gate(db, pred), gate(db, gold)];
  const failed = checks.find((c) => c.failure);
  if (failed) return { ok: false, kind: failed.failure.kind, message: failed.failure.message };
  const texts = [pred, gold].map((sql) => prepareStatement((text) => db.prepare(text), sql).sql);
  const run = (text) => {
    const t0 = performance.now();
    const stmt = db.prepare(text).raw(true);
    if (scope === 'all-rows') for (const _row of stmt.iterate());
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
    return { ok: false, kind: stepFailureKind(error), message: String(error && error.message) };
  }
  return { ok: true, predMs, goldMs };
}

function handle(message) {
  switch (message.op) {
    case 'run': {
      const { value, failure } = withDatabase(message.db, (db) => execute(db, message.sql, message.limits));
      return { result: failure ?? value };
    }
    case 'prepare': {
      const { value, failure } = withDatabase(message.db, (db) => refusal(db, message.sql));
      return { result: failure ?? value };
    }
    case 'pair': {
      // Each statement's result goes to the parent as soon as it is ready (and is then dropped here),
      // so the parent knows which statement a deadline or a crash interrupted; the last one comes
      // with the reply that ends the request (one message fewer per pair).
      const last = message.sqls.length - 1;
      const { value, failure } = withDatabase(message.db, (db) => {
        message.sqls.forEach((sql, part) => {
          if (part < last) process.send({ id: message.id, part, result: execute(db, sql, message.limits) });
        });
        return { part: last, result: execute(db, message.sqls[last], message.limits), done: true };
      });
      return failure ? { results: message.sqls.map(() => failure) } : value;
    }
    case 'score': {
      const { value, failure } = withDatabase(message.db, (db) => score(db, message));
      return failure ? { part: 0, result: failure, done: true } : value;
    }
    case 'time': {
      const { value, failure } = withDatabase(message.db, (db) => time(db, message));
      return { timing: failure ?? value };
    }
    default:
      throw new Error(`unknown request ${JSON.stringify(message.op)}`);
  }
}

// busyMs: the time the request took here, from which the parent sets how many to queue (pipeline-depth.ts).
function answer(message) {
  const started = performance.now();
  let reply;
  try {
    reply = { id: message.id, ...handle(message) };
  } catch (error) {
    reply = { id: message.id, failure: String((error && error.stack) || error) };
  }
  reply.busyMs = performance.now() - started;
  process.send(reply);
}

// A batch holds requests the parent queued at once; each is answered as soon as it is done.
process.on('message', (message) => {
  if (message.op === 'batch') for (const request of message.requests) answer(request);
  else answer(message);
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
// The native addon loads with the first connection: load it now, while the parent is still starting.
setImmediate(() => new (loadDatabase())(':memory:').close());
