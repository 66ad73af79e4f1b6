/**
 * Running Cypher: queries in read-access transactions with a server-side timeout (the driver's
 * transaction timeout, as CypherBench's `Query(cypher, timeout=…)`), row and byte caps on the
 * result, and a client-side deadline a little after the server's in case the server does not stop
 * the query. Failures that may be a neighbour's doing are tried again (retry.ts): memory errors of
 * a full heap or a shared pool, twice, after 0.5 and 2 s; a query the server stopped (its
 * connection closed or its transaction terminated: the launcher's reaper ends a query filling the
 * heap that way) is a `timeout` after the timeout, before it is tried once more, and stopped again
 * on a server that still answers it is what fills the server's memory (`too-large`). A server that
 * no longer answers (asked on a connection of its own, not behind the pool's slow queries) is not the
 * query's fault: Neo4jUnreachableError.
 */
import neo4j, { type Driver, type ManagedTransaction, type Transaction } from 'neo4j-driver';
import type { VerdictError } from '../../core/types.ts';
import { serverAnswersWithin } from './driver.ts';
import { classifyError, Neo4jUnreachableError } from './errors.ts';
import { failureCause, noRetries, retryDelayMs, sleep } from './retry.ts';
import { cellBytes, fromNeo4j, type ResultTable } from './values.ts';

export interface ExecuteOptions {
  /** Server-side transaction timeout (CypherBench: 120 s). */
  timeoutMs: number;
  /** Results longer than this are too large (default 100,000 rows). */
  maxRows?: number;
  /** Results bigger than this are too large (default 16 MiB; 8 bytes per value plus string bytes). */
  maxResultBytes?: number;
  database?: string;
}

export type Execution = { ok: true; table: ResultTable; ms: number } | { ok: false; error: VerdictError; ms: number };

export const DEFAULT_MAX_ROWS = 100_000;
export const DEFAULT_MAX_RESULT_BYTES = 16 * 1024 * 1024;
/** Deepest nesting of lists and maps inside a result value (deeper ones are too large). */
export const MAX_VALUE_NESTING = 64;
/** A row costs its record and list envelope (2 values) besides its cells. */
const ROW_BYTES = 16;
/** Extra time the client waits beyond the server-side timeout before giving up on its own. */
const CLIENT_GRACE_MS = 5_000;
const HEALTH_CHECK_MS = 15_000;

/** The verdict error of a query the server stopped twice (closed its connection or terminated it) while it still answers others. */
export const CONNECTION_DROPPED: VerdictError = {
  kind: 'too-large',
  message:
    'Neo4j stopped the query twice while it ran (it closed the connection or terminated the transaction), and answers other queries: the server stops queries that fill its memory',
};

/** True when the server still accepts connections and answers (on a connection of its own, not the driver's pool). */
export async function serverAnswers(driver: Driver): Promise<boolean> {
  return (await withDeadline(serverAnswersWithin(driver, HEALTH_CHECK_MS), HEALTH_CHECK_MS + 1_000, () => {})) === true;
}

export interface ResultLimits {
  maxRows: number;
  maxBytes: number;
}

/** A result over the row or byte cap, found while its records streamed in. */
class ResultTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResultTooLargeError';
  }
}

/** The verdict error for anything a query run threw. */
export function runError(error: unknown): VerdictError {
  return error instanceof ResultTooLargeError ? { kind: 'too-large', message: error.message } : classifyError(error);
}

/** Streams a query's result inside an open transaction into a table, stopping at the row and byte caps. */
export async function collect(
  tx: Transaction | ManagedTransaction,
  query: string,
  limits: ResultLimits,
  parameters: Record<string, unknown> = {},
): Promise<ResultTable> {
  const result = tx.run(query, parameters);
  const columns = [...(await result.keys())];
  const rows: ResultTable['rows'] = [];
  let bytes = 0;
  for await (const record of result) {
    if (rows.length >= limits.maxRows)
      throw new ResultTooLargeError(`the query returned more than ${limits.maxRows.toLocaleString('en-US')} rows`);
    const row = columns.map((c) => fromNeo4j(record.get(c)));
    bytes += row.reduce<number>((n, cell) => n + cellBytes(cell), ROW_BYTES);
    if (bytes > limits.maxBytes)
      throw new ResultTooLargeError(
        `the result is larger than ${limits.maxBytes.toLocaleString('en-US')} bytes (counting 8 bytes per value plus the bytes of strings)`,
      );
    rows.push(row);
  }
  return { columns, rows, bytes };
}

/** Resolves with `work`, or with 'deadline' (calling `onExpiry`) if it takes longer than `ms`. */
export async function withDeadline<T>(work: Promise<T>, ms: number, onExpiry: () => void): Promise<T | 'deadline'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), ms)));
  try {
    const outcome = await Promise.race([work, deadline]);
    if (outcome === 'deadline') onExpiry();
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}

type Attempt = { ok: true; table: ResultTable } | { ok: false; thrown: unknown } | 'deadline';

async function attemptRead(driver: Driver, query: string, options: ExecuteOptions): Promise<Attempt> {
  const session = driver.session({ defaultAccessMode: neo4j.session.READ, database: options.database });
  const limits = {
    maxRows: options.maxRows ?? DEFAULT_MAX_ROWS,
    maxBytes: options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
  };
  const work = (async (): Promise<Attempt> => {
    try {
      const tx = session.beginTransaction({ timeout: options.timeoutMs, metadata: { app: 'witness-cypher-oracle' } });
      try {
        return { ok: true, table: await collect(tx, query, limits) };
      } finally {
        await tx.rollback().catch(() => {});
      }
    } catch (thrown) {
      return { ok: false, thrown };
    }
  })();
  const outcome = await withDeadline(work, options.timeoutMs + CLIENT_GRACE_MS, () => {
    // The server did not stop the query: give up on it and let the session close in the background.
    void work.finally(() => session.close().catch(() => {}));
  });
  if (outcome !== 'deadline') await session.close().catch(() => {});
  return outcome;
}

/** Runs a query in a read-access transaction with the server-side timeout; throws only when Neo4j is unreachable. */
export async function runReadQuery(driver: Driver, query: string, options: ExecuteOptions): Promise<Execution> {
  const started = performance.now();
  const timedOut = (): Execution => ({
    ok: false,
    error: { kind: 'timeout', message: `the query did not finish within ${Math.round(options.timeoutMs / 1000)} s` },
    ms: performance.now() - started,
  });
  const retries = noRetries();
  for (;;) {
    const attemptStarted = performance.now();
    const outcome = await attemptRead(driver, query, options);
    if (outcome === 'deadline') return timedOut();
    if (outcome.ok) return { ok: true, table: outcome.table, ms: performance.now() - started };
    const { thrown } = outcome;
    const cause = failureCause(thrown);
    if (cause === 'stopped') {
      // After the timeout, stopping the query is how the server ends a runaway one.
      if (performance.now() - attemptStarted >= options.timeoutMs) return timedOut();
      if (!(await serverAnswers(driver))) throw new Neo4jUnreachableError('a query', thrown);
    }
    const delay = retryDelayMs(cause, retries);
    if (delay !== null && cause !== 'own') {
      retries[cause]++;
      await sleep(delay);
      continue;
    }
    return {
      ok: false,
      error: cause === 'stopped' ? CONNECTION_DROPPED : runError(thrown),
      ms: performance.now() - started,
    };
  }
}
