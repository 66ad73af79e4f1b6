/**
 * How many requests a SQLite child is fed at once. Two keep it busy while a reply travels back,
 * as long as a request takes longer than the IPC round trip; cheap lookups (a fraction of a
 * millisecond each) take far less than a round trip on a loaded machine, where every wake-up waits
 * for a core, so a child whose recent requests were cheap gets a deeper queue — while the backlog
 * is long (at least `base` requests waiting per child), so that a short burst is spread over the
 * children as before, whatever it holds. A slow request makes the queue shallow again at once (so
 * the other children take the next ones), and it deepens only as cheap requests follow. A request
 * the caller expects to be slow (`expectedMs`, e.g. the time its gold took) goes only to a child
 * with nothing in flight: queued behind another request it would wait while another child idles
 * (a deep queue of cheap requests would otherwise take in a run of slow ones), and beside it the
 * round trip is nothing. While the pool holds off starting another child (`spare`: a burst of cheap
 * requests is over before a child would be up), a child takes one request at a time unless it is
 * fed deep, so that no request waits behind a slow one for a child that could start.
 * Deadlines are unaffected: each request's deadline runs from the moment its child starts on it.
 */

/**
 * Answers after which a child's recent cost counts (before, it is fed as if nothing were measured):
 * the first few answers may all be cheap failures at the head of a run of slow queries, and a deep
 * queue sent on their word would hold those slow queries on one child while another starts idle.
 */
export const KNOWN_AFTER = 4;

/** A request cheaper than this (ms of the child's time) counts as cheap. */
export const CHEAP_REQUEST_MS = 1;

/** A request expected to take at least this long (ms) goes only to a child with nothing in flight. */
export const EXCLUSIVE_REQUEST_MS = 20;

/** The child's recent cost per request after one that took `ms`: up at once, down by a quarter of the gap. */
export function nextRecentMs(recent: number | null, ms: number): number {
  if (recent === null || ms >= recent) return ms;
  return recent + (ms - recent) / 4;
}

export interface DepthContext {
  /** Requests per child normally, and while its requests are cheap and the backlog long. */
  base: number;
  cheap: number;
  /** Requests queued, for `children` (live or not). */
  waiting: number;
  children: number;
  /** Another child could start but the pool holds it off for now. */
  spare?: boolean;
}

/**
 * Requests in flight for a child whose recent cost is `recent` (null: nothing measured yet), when
 * the next request is expected to take `expectedMs` (if known).
 */
export function pipelineDepth(
  recent: number | null,
  { base, cheap, waiting, children, spare = false }: DepthContext,
  expectedMs?: number,
): number {
  if (expectedMs !== undefined && expectedMs >= EXCLUSIVE_REQUEST_MS) return 1;
  const deep = recent !== null && recent < CHEAP_REQUEST_MS && waiting >= base * children;
  if (deep) return Math.max(base, cheap);
  return spare ? 1 : base;
}
