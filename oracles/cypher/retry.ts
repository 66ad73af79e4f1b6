/**
 * When a failed attempt at a query is tried again: a query can fail for its neighbours' sake (a heap
 * one of them filled fails whichever query allocates next; the server stops a query it takes for the
 * one filling its memory), and such a failure must not become the query's verdict until it has been
 * seen again after a wait long enough for the neighbour to be gone. Failures that are the query's
 * own (syntax, its own memory limit, a result cap) are final at once. Pure policy.
 */
import { isSharedMemoryError, isStoppedByServer } from './errors.ts';

/** Why an attempt failed, as far as retrying goes. */
export type FailureCause = 'shared-memory' | 'stopped' | 'own';

/**
 * Waits before each new attempt after a shared memory error, long enough for the launcher's reaper
 * to stop a neighbour filling the heap (it acts within about a second of the heap staying full).
 */
export const SHARED_MEMORY_RETRY_DELAYS_MS: readonly number[] = [500, 2_000];
/** Waits before each new attempt after the server stopped the query (before its timeout). */
export const STOPPED_RETRY_DELAYS_MS: readonly number[] = [1_000];

/** The cause of a thrown driver or server error. */
export function failureCause(error: unknown): FailureCause {
  if (isStoppedByServer(error)) return 'stopped';
  if (isSharedMemoryError(error)) return 'shared-memory';
  return 'own';
}

/** Retries so far, by cause. */
export type RetryCounts = Record<Exclude<FailureCause, 'own'>, number>;

export const noRetries = (): RetryCounts => ({ 'shared-memory': 0, stopped: 0 });

/** How long to wait before the next attempt after a failure of this cause, or null when the failure is final. */
export function retryDelayMs(cause: FailureCause, counts: RetryCounts): number | null {
  if (cause === 'own') return null;
  const delays = cause === 'stopped' ? STOPPED_RETRY_DELAYS_MS : SHARED_MEMORY_RETRY_DELAYS_MS;
  return delays[counts[cause]] ?? null;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
