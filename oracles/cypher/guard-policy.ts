/** The read-only guard's checks that need no server (pure; guard.ts asks Neo4j's EXPLAIN for the rest). */
import type { VerdictError } from '../../core/types.ts';

/**
 * What the guard refuses before asking Neo4j to plan a query (so `witness data check` applies it
 * without a server): a query that is itself EXPLAIN or PROFILE. Pure.
 */
export function unplannedRefusal(query: string): VerdictError | null {
  return /^\s*(EXPLAIN|PROFILE)\b/i.test(query)
    ? { kind: 'syntax', message: 'give the query itself, without EXPLAIN or PROFILE' }
    : null;
}
