/**
 * The caps on what one query may be and return. A result over a cap is stopped while SQLite steps
 * (never built whole) and is a `too-large` verdict; SQL text over its cap is `too-complex` and never
 * reaches SQLite. The byte cap counts an estimate of the memory a result takes (engine-limits.mjs:
 * 16 bytes per value, plus text and blob lengths, plus 256 per blob), so it bounds memory however
 * the result is shaped. See docs/sql.md for why these defaults.
 */
import { formatBytes } from './engine-limits.mjs';

export interface QueryLimits {
  /** Rows a result may have (default 1,000,000). */
  maxRows: number;
  /** Estimated bytes a result may take (default 128 MiB; at most 1 GiB). */
  maxResultBytes: number;
  /** UTF-8 bytes of SQL text (default 1 MiB). */
  maxSqlBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_QUERY_LIMITS: QueryLimits = { maxRows: 1_000_000, maxResultBytes: 128 * MiB, maxSqlBytes: MiB };

/** Results travel between processes in one message each; beyond this, messages get unsafe to pass. */
export const MAX_RESULT_BYTES = 1024 * MiB;

/** The defaults with `given` applied; an invalid value is an error naming the setting and `source`. */
export function resolveLimits(given: Partial<QueryLimits> = {}, source = 'sqlOracle'): QueryLimits {
  const limits = {
    ...DEFAULT_QUERY_LIMITS,
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
  } as QueryLimits;
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new Error(`${source}: ${name} must be a positive integer, got ${String(value)}`);
  }
  if (limits.maxResultBytes > MAX_RESULT_BYTES)
    throw new Error(
      `${source}: maxResultBytes must be at most ${formatBytes(MAX_RESULT_BYTES)}, got ${limits.maxResultBytes}`,
    );
  return limits;
}

/**
 * Data memory for a SQLite process serving these limits: room for a result at the byte cap, the
 * message carrying it and SQLite itself — 3 × the cap, at least 384 MiB. Kept that low on purpose:
 * a single value SQLite builds before the caps can see it (zeroblob(4e8)) can take no more.
 */
export function childMemoryMb(limits: QueryLimits): number {
  return Math.max(384, Math.ceil((3 * limits.maxResultBytes) / MiB));
}
