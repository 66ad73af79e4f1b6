/**
 * When a pool with a live SQLite child starts another. A child's start-up costs tens of
 * milliseconds of a core, more than a short burst of cheap requests takes on the child already
 * there; and where the parent and the live children keep the cores busy, another child only takes
 * time from them (on cheap requests the parent spends about as long on a reply as the child on the
 * query, so on two cores one child is as fast as two). Another child starts when, over a window in
 * which requests waited for room on a ready child for as long as a child takes to start,
 * - the parent's event loop was busy less than PARENT_BUSY of the time (it can take the replies of
 *   one more child), and
 * - a core is left for it: the cores less the live children and the parent's share, FREE_CORE or more.
 * Waiting as long as a start-up before paying for one is the ski-rental rule: whatever the backlog
 * turns out to be, the choice costs at most twice what the best one in hindsight would. A request
 * expected to take at least a start-up's time starts the children at once (the pool's caller knows
 * it from the time its gold took).
 */
import { performance } from 'node:perf_hooks';

/** A child's start-up assumed until the pool has seen one (ms). */
export const DEFAULT_STARTUP_MS = 50;
/** The parent's event-loop utilization from which it could not take more replies. */
export const PARENT_BUSY = 0.9;
/** The share of a core a new child needs to pay for its start-up. */
export const FREE_CORE = 0.5;

export interface GrowthWindow {
  /** How long requests have waited for room on a ready child (ms). */
  waitedMs: number;
  /** How long a child takes to start here (ms). */
  startupMs: number;
  /** The parent's event-loop utilization over the wait, 0–1. */
  parentBusy: number;
  liveChildren: number;
  cores: number;
}

/** Whether another child pays for its start-up after requests waited as `w` says. */
export function mayGrow(w: GrowthWindow): boolean {
  if (w.waitedMs < w.startupMs) return false;
  if (w.parentBusy >= PARENT_BUSY) return false;
  return w.cores - w.liveChildren - w.parentBusy >= FREE_CORE;
}

/** Whether a request expected to take `expectedMs` starts the children at once. */
export const startsChildrenAtOnce = (expectedMs: number | undefined, startupMs: number): boolean =>
  (expectedMs ?? 0) >= startupMs;

/**
 * Watches the time requests wait for room: `onWindow` runs once they have waited `startupMs()`
 * without a break, with the parent's event-loop utilization over that time; `stop()` ends a wait.
 */
export class WaitWatch {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly startupMs: () => number,
    private readonly onWindow: (waitedMs: number, parentBusy: number) => void,
  ) {}

  /** Requests are waiting: starts a window unless one runs. */
  waiting(): void {
    if (this.timer) return;
    const since = performance.now();
    const loop = performance.eventLoopUtilization();
    const planned = this.startupMs();
    this.timer = setTimeout(() => {
      this.timer = null;
      const busy = performance.eventLoopUtilization(loop).utilization;
      // A timer runs on the event loop's clock, read when the loop last woke: it can fire a little
      // before `planned` has passed on performance.now()'s. The wait lasted the window either way.
      this.onWindow(Math.max(planned, performance.now() - since), busy);
    }, planned);
    this.timer.unref(); // the waiting requests' children keep the process alive
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
