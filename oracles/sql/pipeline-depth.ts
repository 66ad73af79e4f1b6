/**
 * How many requests a SQLite child is fed at once. Two keep it busy while a reply travels back,
 * as long as a request takes longer than the IPC round trip; cheap lookups (a fraction of a
 * millisecond each) take far less than a round trip on a loaded machine, where every wake-up waits
 * for a core, so a child whose recent requests were cheap gets a deeper queue — while the backlog
 * is long (at least `base` requests waiting per child), so that a short burst is spread over the
 * children as before, whatever it holds. A slow request makes the queue shallow again at once (so
 * the other children take the next ones), and it deepens only as cheap requests follow. Deadlines
 * are unaffected: each request's deadline runs from the moment its child starts on it.
 */

/** A request cheaper than this (ms of the child's time) counts as cheap. */
export const CHEAP_REQUEST_MS = 1;

/** The child's recent cost per request after one that took `ms`: up at once, down by a quarter of the gap. */
export function nextRecentMs(recent: number | null, ms: number): number {
  if (recent === null || ms >= recent) return ms;
  return recent + (ms - recent) / 4;
}

/** Requests in flight for a child whose recent cost is `recent` (null: nothing measured yet), `waiting` requests queued for `children`. */
export function pipelineDepth(
  recent: number | null,
  { base, cheap, waiting, children }: { base: number; cheap: number; waiting: number; children: number },
): number {
  const deep = recent !== null && recent < CHEAP_REQUEST_MS && waiting >= base * children;
  return deep ? Math.max(base, cheap) : base;
}
