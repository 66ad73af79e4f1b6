/**
 * Running Cypher: candidate queries in read-access transactions with a server-side timeout (the
 * driver's transaction timeout, as CypherBench's `Query(cypher, timeout=…)`), a row cap, and a
 * client-side deadline a little after the server's in case the server does not stop the query
 * (Neo4j checks the timeout when a query touches the store; a pure computation such as a huge
 * `UNWIND range(…)` is not interrupted). Errors are classified into verdict error kinds.
 */
import neo4j, { type Driver, type ManagedTransaction, type Transaction } from 'neo4j-driver';
import type { VerdictError } from '../../core/types.ts';
import { fromNeo4j, type ResultTable } from './values.ts';

export interface ExecuteOptions {
  /** Server-side transaction timeout (CypherBench: 120 s). */
  timeoutMs: number;
  /** Results longer than this are an error (default 100,000 rows). */
  maxRows?: number;
  database?: string;
}

export type Execution = { ok: true; table: ResultTable; ms: number } | { ok: false; error: VerdictError; ms: number };

export const DEFAULT_MAX_ROWS = 100_000;
/** Extra time the client waits beyond the server-side timeout before giving up on its own. */
const CLIENT_GRACE_MS = 5_000;
const MAX_MESSAGE = 1_200;

function trim(message: string): string {
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
}

/** A driver or server error as a verdict error (syntax, timeout, unsafe or runtime). */
export function classifyError(error: unknown): VerdictError {
  const code = String((error as { code?: unknown })?.code ?? '');
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'Neo.ClientError.Statement.SyntaxError') return { kind: 'syntax', message: trim(message) };
  if (code.includes('TransactionTimedOut') || /has been terminated|timed out/i.test(code)) {
    return { kind: 'timeout', message: trim(`${message} (${code})`) };
  }
  if (code === 'Neo.ClientError.Statement.AccessMode' || code.startsWith('Neo.ClientError.Security.')) return { kind: 'unsafe', message: trim(message) };
  return { kind: 'runtime', message: trim(code ? `${code}: ${message}` : message) };
}

/** Streams a query's result inside an open transaction into a table, failing past `maxRows`. */
export async function collect(tx: Transaction | ManagedTransaction, query: string, maxRows: number, parameters: Record<string, unknown> = {}): Promise<ResultTable> {
  const result = tx.run(query, parameters);
  const columns = [...(await result.keys())];
  const rows: ResultTable['rows'] = [];
  for await (const record of result) {
    if (rows.length >= maxRows) throw new TooManyRowsError(maxRows);
    rows.push(columns.map((c) => fromNeo4j(record.get(c))));
  }
  return { columns, rows };
}

export class TooManyRowsError extends Error {
  constructor(readonly maxRows: number) {
    super(`the query returned more than ${maxRows.toLocaleString('en-US')} rows`);
    this.name = 'TooManyRowsError';
  }
}

async function withDeadline<T>(work: Promise<T>, ms: number, onExpiry: () => void): Promise<T | 'deadline'> {
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

/** Runs a query in a read-access transaction with the server-side timeout; never throws for query errors. */
export async function runReadQuery(driver: Driver, query: string, options: ExecuteOptions): Promise<Execution> {
  const started = performance.now();
  const session = driver.session({ defaultAccessMode: neo4j.session.READ, database: options.database });
  const work = (async (): Promise<Execution> => {
    const tx = session.beginTransaction({ timeout: options.timeoutMs, metadata: { app: 'witness-cypher-oracle' } });
    try {
      const table = await collect(tx, query, options.maxRows ?? DEFAULT_MAX_ROWS);
      return { ok: true, table, ms: performance.now() - started };
    } catch (error) {
      const verdictError = error instanceof TooManyRowsError ? { kind: 'runtime' as const, message: error.message } : classifyError(error);
      return { ok: false, error: verdictError, ms: performance.now() - started };
    } finally {
      await tx.rollback().catch(() => {});
    }
  })();
  const outcome = await withDeadline(work, options.timeoutMs + CLIENT_GRACE_MS, () => {
    // The server did not stop the query: give up on it and let the session close in the background.
    void work.finally(() => session.close());
  });
  if (outcome === 'deadline') {
    return {
      ok: false,
      error: { kind: 'timeout', message: `the query did not finish within ${Math.round(options.timeoutMs / 1000)} s` },
      ms: performance.now() - started,
    };
  }
  await session.close();
  return outcome;
}
