// What SQLite's limits and the result caps mean for a verdict, shared by the TypeScript side and the
// plain-JS SQLite child process (which runs without TypeScript tooling). Types: engine-limits.d.mts.

/** The memory a result takes, estimated per value so it is the same on every run (see docs/sql.md). */
export const VALUE_OVERHEAD = 16;
/** A blob is a separate buffer in JavaScript: its bookkeeping costs about this much beyond its bytes. */
export const BLOB_OVERHEAD = 256;

/** Estimated bytes of one value: 16 for each, plus the UTF-8 length of text, plus a blob's bytes and 256. */
export function valueBytes(value) {
  if (typeof value === 'string') return VALUE_OVERHEAD + Buffer.byteLength(value, 'utf8');
  if (value !== null && typeof value === 'object') return VALUE_OVERHEAD + BLOB_OVERHEAD + value.byteLength;
  return VALUE_OVERHEAD;
}

const count = (n) => n.toLocaleString('en-US');

/** `1073741824` → `1 GiB`, `134217728` → `128 MiB`, `1500` → `1,500 bytes`. */
export function formatBytes(bytes) {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ]) {
    if (bytes >= size && bytes % (size / 4) === 0) return `${count(bytes / size)} ${unit}`;
  }
  return `${count(bytes)} bytes`;
}

/** The too-large message when a result passes the row cap. */
export const tooManyRows = (maxRows) => `the result has more than ${count(maxRows)} rows (the limit)`;
/** The too-large message when a result passes the byte cap after `rows` rows. */
export const tooManyBytes = (maxBytes, rows) =>
  `the result is larger than ${formatBytes(maxBytes)} (the limit; stopped at row ${count(rows)})`;
/** The too-complex message for SQL text over the cap. */
export const tooLongText = (bytes, maxBytes) =>
  `the query text is ${count(bytes)} bytes long; the limit is ${count(maxBytes)} (${formatBytes(maxBytes)})`;

// SQLite refusing a statement because of its size or depth limits (SQLITE_LIMIT_*, the parser's
// stack, the expression depth), not because it is wrong: no engine configured like this one can run it.
const ENGINE_LIMITS = [
  /^Recursion limit/,
  /^parser stack overflow/,
  /^Expression tree is too large/,
  /^too many (terms|columns|arguments|SQL variables|FROM clause terms|references)\b/,
  /^at most \d+ tables in a join/,
  /^LIKE or GLOB pattern too complex/,
  /^string or blob too big/,
  /^statement too long/,
  /^out of memory/,
];

const isEngineLimit = (message) => ENGINE_LIMITS.some((pattern) => pattern.test(message));

/** Why a statement did not prepare: `too-complex` when an engine limit refused it, else `syntax`. */
export function prepareFailureKind(error) {
  const message = String(error && error.message);
  return error && (error.code === 'SQLITE_TOOBIG' || error.code === 'SQLITE_NOMEM')
    ? 'too-complex'
    : isEngineLimit(message)
      ? 'too-complex'
      : 'syntax';
}

/**
 * Why a prepared statement failed while stepping. A value over SQLite's size limit, memory the
 * process may not take, or temporary files over their size limit make the result `too-large`; a
 * pattern over the engine's limits is `too-complex`; anything else is `runtime`.
 */
export function stepFailureKind(error) {
  const code = error && error.code;
  const message = String(error && error.message);
  if (code === 'SQLITE_TOOBIG' || code === 'SQLITE_NOMEM' || code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_WRITE')
    return 'too-large';
  if (/^(string or blob too big|out of memory)/.test(message)) return 'too-large';
  return isEngineLimit(message) ? 'too-complex' : 'runtime';
}
