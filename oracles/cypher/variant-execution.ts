/**
 * Queries on a graph variant: one write transaction applies the variant, runs the queries in turn
 * (under the result caps) and is always rolled back. The transaction has the server-side timeout
 * and a client-side deadline. Failures that may be a neighbour's doing are retried as in execute.ts:
 * a memory error of a full heap or a shared pool after the same waits; a query the server stopped
 * is a `timeout` after the timeout, twice before it on a server that still answers it is the
 * query's doing (`too-large`), and on a server that no longer answers it is Neo4jUnreachableError.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { Neo4jUnreachableError } from './errors.ts';
import {
  collect,
  CONNECTION_DROPPED,
  runError,
  serverAnswers,
  withDeadline,
  type Execution,
  type ResultLimits,
} from './execute.ts';
import { applyVariant, type GraphVariant } from './perturb.ts';
import { failureCause, noRetries, retryDelayMs, sleep } from './retry.ts';

export interface VariantQuery {
  query: string;
  role: 'gold' | 'candidate';
}

const CLIENT_GRACE_MS = 5_000;
const TRANSIENT_RETRIES = 4;
const NOT_RUN: Execution = {
  ok: false,
  error: { kind: 'runtime', message: 'not run: an earlier query in the same variant failed' },
  ms: 0,
};

type Attempt = { done: Execution[] } | { lost: number; error: unknown } | { transient: unknown };

function timedOut(timeoutMs: number, ms: number): Execution {
  return {
    ok: false,
    error: { kind: 'timeout', message: `the query did not finish within ${Math.round(timeoutMs / 1000)} s` },
    ms,
  };
}

async function attemptOnVariant(
  driver: Driver,
  variant: GraphVariant,
  queries: VariantQuery[],
  options: { timeoutMs: number; limits: ResultLimits; database?: string },
): Promise<Attempt> {
  const session = driver.session({ defaultAccessMode: neo4j.session.WRITE, database: options.database });
  const out: Execution[] = [];
  let current = -1;
  let currentStarted = performance.now();
  const work = (async (): Promise<Attempt> => {
    const tx = session.beginTransaction({ timeout: options.timeoutMs, metadata: { app: 'witness-cypher-hardening' } });
    try {
      await applyVariant(tx, variant);
      for (const [i, q] of queries.entries()) {
        current = i;
        currentStarted = performance.now();
        try {
          out.push({
            ok: true,
            table: await collect(tx, q.query, options.limits),
            ms: performance.now() - currentStarted,
          });
        } catch (error) {
          const cause = failureCause(error);
          if (cause === 'own') {
            // An error ends the transaction: the remaining queries are reported as not run.
            out.push({ ok: false, error: runError(error), ms: performance.now() - currentStarted });
            break;
          }
          if (cause === 'shared-memory') return { transient: error };
          if (performance.now() - currentStarted < options.timeoutMs) return { lost: i, error };
          out.push(timedOut(options.timeoutMs, performance.now() - currentStarted));
          break;
        }
      }
      while (out.length < queries.length) out.push(NOT_RUN);
      return { done: out };
    } catch (error) {
      if (failureCause(error) === 'stopped') return { lost: current, error };
      const code = String((error as { code?: unknown }).code ?? '');
      if (code.startsWith('Neo.TransientError.')) return { transient: error };
      throw error;
    } finally {
      await tx.rollback().catch(() => {});
    }
  })();
  const outcome = await withDeadline(
    work,
    options.timeoutMs + CLIENT_GRACE_MS,
    () => void work.catch(() => {}).finally(() => session.close().catch(() => {})),
  );
  if (outcome === 'deadline') {
    const partial = out.slice(0, Math.max(0, current));
    partial.push(timedOut(options.timeoutMs, performance.now() - currentStarted));
    while (partial.length < queries.length) partial.push(NOT_RUN);
    return { done: partial };
  }
  await session.close().catch(() => {});
  return outcome;
}

/** Runs the queries on the variant; throws Neo4jUnreachableError when the server is gone, and non-transient setup errors. */
export async function executeOnVariant(
  driver: Driver,
  variant: GraphVariant,
  queries: VariantQuery[],
  options: { timeoutMs: number; limits: ResultLimits; database?: string },
): Promise<Execution[]> {
  let lost = 0;
  const retries = noRetries();
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptOnVariant(driver, variant, queries, options);
    if ('done' in outcome) return outcome.done;
    if ('transient' in outcome) {
      if (failureCause(outcome.transient) === 'shared-memory') {
        const delay = retryDelayMs('shared-memory', retries);
        if (delay === null) throw outcome.transient;
        retries['shared-memory']++;
        await sleep(delay);
        continue;
      }
      if (attempt >= TRANSIENT_RETRIES) throw outcome.transient;
    } else {
      if (!(await serverAnswers(driver))) throw new Neo4jUnreachableError('a query on a graph variant', outcome.error);
      if (++lost >= 2 && outcome.lost >= 0) {
        const out: Execution[] = queries.map((_, i) =>
          i < outcome.lost ? NOT_RUN : i === outcome.lost ? { ok: false, error: CONNECTION_DROPPED, ms: 0 } : NOT_RUN,
        );
        // The queries before the one that dropped the connection did run: run them once more without it.
        if (outcome.lost > 0)
          out.splice(
            0,
            outcome.lost,
            ...(await executeOnVariant(driver, variant, queries.slice(0, outcome.lost), options)),
          );
        return out;
      }
      if (lost >= 3) throw new Neo4jUnreachableError('a query on a graph variant', outcome.error);
    }
    await sleep(50 * attempt);
  }
}
