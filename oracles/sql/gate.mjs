// The read-only gate every statement passes before it is stepped, shared by the SQLite child
// process and `witness data check` (plain JS: the child loads it without TypeScript tooling; types:
// gate.d.mts). A statement passes when it is a single statement that SQLite reports as read-only
// and returning rows (stmt.readonly && stmt.reader), sets no PRAGMA, and calls no load_extension.
import { prepareFailureKind } from './engine-limits.mjs';
import { loadsExtension, prepareStatement, SEVERAL_STATEMENTS, settingPragma, unsafeReason } from './sql-text.mjs';

/** Gate + prepare on `db`: `{ stmt }` (raw mode) or `{ failure }`, the verdict's kind and message. */
export function gate(db, sql) {
  let stmt;
  try {
    stmt = prepareStatement((text) => db.prepare(text), sql).statement;
  } catch (error) {
    const message = String(error && error.message);
    if (message.includes('more than one statement'))
      return { failure: { ok: false, kind: 'unsafe', message: SEVERAL_STATEMENTS } };
    if (message.includes('contains no statements'))
      return { failure: { ok: false, kind: 'syntax', message: 'the query is empty' } };
    return { failure: { ok: false, kind: prepareFailureKind(error), message } };
  }
  if (!(stmt.readonly && stmt.reader) || settingPragma(sql) || loadsExtension(sql))
    return { failure: { ok: false, kind: 'unsafe', message: unsafeReason(sql) } };
  stmt.raw(true);
  return { stmt };
}

/** The gate alone: null when the statement would run (it is never stepped), else the failure, timed. */
export function refusal(db, sql) {
  const started = performance.now();
  const refused = gate(db, sql).failure;
  return refused ? { ...refused, ms: performance.now() - started } : null;
}
