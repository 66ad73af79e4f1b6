/**
 * One SQLite child of the pool (pool.ts) and the requests it holds, in the order it answers them:
 * its start-up (a child the launcher started is adopted, prestart.ts), the deadline of the request
 * it works on (from the moment it starts on it; at the deadline the child is SIGKILLed), its replies
 * and its death. The pool decides what a slot gets; the slot tells the pool when it is ready, when it
 * answered, and when it dropped its child with the requests it still held.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnChild, type ChildCommand } from './child-launch.ts';
import { nextRecentMs } from './pipeline-depth.ts';
import { formatSeconds, type Outcome, type WireResult } from './pool-results.ts';
import { adoptPrestarted } from './prestart.ts';

/** A request on its way: queued in the pool, then held by a slot until its reply (or its failure). */
export interface Pending {
  message: Record<string, unknown>;
  deadlineMs: number;
  /** The caller's estimate of the request's time (pipeline-depth.ts), if it has one. */
  expectedMs: number | undefined;
  settle: (outcome: Outcome) => void;
  /** Results of a sequence's statements that are done, by position. */
  parts: WireResult[];
}

/** What a slot tells its pool. */
export interface SlotEvents {
  /** The child said it is ready, `startupMs` after it was started. */
  ready(startupMs: number): void;
  /** A request was answered (its settle() has run). */
  answered(): void;
  /** The child is gone; `rest` are the requests it held behind the one that got the outcome. */
  retired(rest: Pending[]): void;
  /** The child was killed at a deadline, or died on its own. */
  lost(how: 'killed' | 'crashed'): void;
}

const STARTUP_MS = 30_000;

export class ChildSlot {
  child: ChildProcess | null = null;
  /** The child has started (its start-up does not count against a deadline). */
  ready = false;
  readonly inflight: Pending[] = [];
  /** The child's recent time per request (pipeline-depth.ts); null until one is done. */
  recentMs: number | null = null;
  /** Requests the child has answered. */
  answered = 0;
  /** When the child was started (performance.now()), to measure its start-up. */
  private spawnedAt = 0;
  private startupTimer: NodeJS.Timeout | null = null;
  private deadlineTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly events: SlotEvents,
    /** Data memory of a child in MiB, named when one runs out of it. */
    private readonly memoryMb: number,
  ) {}

  /**
   * Gives the slot a child started with `launch` (the launcher's, when it started one with exactly
   * that command line); `startupMs` when that child had already said it was ready.
   */
  start(launch: ChildCommand): { child: ChildProcess; adopted: boolean; startupMs: number | undefined } {
    const adopted = adoptPrestarted(launch);
    const child = adopted?.child ?? spawnChild(launch);
    this.child = child;
    this.ready = adopted?.startupMs !== undefined;
    this.recentMs = null;
    this.answered = 0;
    this.spawnedAt = adopted?.spawnedAt ?? performance.now();
    // Start-up has its own deadline (it also keeps the parent alive while requests wait for it).
    if (!this.ready)
      this.startupTimer = setTimeout(() => {
        this.startupTimer = null;
        this.retire({ crash: `the SQLite process did not start within ${formatSeconds(STARTUP_MS)}`, kind: 'runtime' });
        child.kill('SIGKILL');
      }, STARTUP_MS);
    child.on('message', (reply: Record<string, unknown>) => {
      if (this.child === child) this.onReply(reply);
    });
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      this.events.lost('crashed');
      // V8 and Node abort when an allocation fails: the query's result did not fit in the child's memory.
      const aborted = signal === 'SIGABRT' || code === 134;
      this.retire(
        aborted
          ? {
              crash: `the SQLite process ran out of memory while running the query (it may use ${this.memoryMb} MiB)`,
              kind: 'too-large',
            }
          : { crash: `the SQLite process died (${signal ?? `exit code ${code}`})`, kind: 'runtime' },
      );
    });
    child.on('error', () => {
      // A failed send to a dying child: 'exit' follows and is handled there. A child that could not start at all:
      if (this.child === child && child.pid === undefined)
        this.retire({ crash: `cannot start the SQLite process (${launch.command})`, kind: 'runtime' });
    });
    child.unref();
    child.channel?.unref();
    return { child, adopted: adopted !== null, startupMs: adopted?.startupMs };
  }

  /** The head request's deadline runs from the moment the child starts on it. */
  arm(): void {
    this.disarm();
    const head = this.inflight[0];
    if (head && this.ready) this.deadlineTimer = setTimeout(() => this.expire(), head.deadlineMs);
  }

  /** Kills the child at once; the requests it held stay in `inflight` for the caller. */
  kill(): void {
    this.stopTimers();
    this.child?.kill('SIGKILL');
    this.child = null;
  }

  private onReply(reply: Record<string, unknown>): void {
    if (reply.ready === true) {
      if (this.startupTimer) clearTimeout(this.startupTimer);
      this.startupTimer = null;
      this.ready = true;
      this.arm();
      this.events.ready(performance.now() - this.spawnedAt);
      return;
    }
    if (typeof reply.part === 'number') {
      // One statement of a sequence is done; the sequence's deadline keeps running.
      const head = this.inflight[0];
      if (head) head.parts[reply.part] = reply.result as WireResult;
      if (reply.done !== true) return; // the last statement's result ends the request
    }
    const head = this.inflight.shift();
    if (typeof reply.busyMs === 'number') this.recentMs = nextRecentMs(this.recentMs, reply.busyMs);
    this.answered++;
    this.arm();
    if (head) {
      if (typeof reply.failure === 'string')
        head.settle({ crash: `the SQLite process failed: ${reply.failure}`, kind: 'runtime' });
      else head.settle({ reply });
    }
    this.events.answered();
  }

  private disarm(): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
  }

  /** The head request passed its deadline: the child is killed, the requests behind it go back to the pool. */
  private expire(): void {
    this.deadlineTimer = null;
    const child = this.child;
    this.events.lost('killed');
    this.retire({ timeout: true });
    child?.kill('SIGKILL');
  }

  private stopTimers(): void {
    if (this.startupTimer) clearTimeout(this.startupTimer);
    this.startupTimer = null;
    this.disarm();
  }

  /** Drops the child: its head request gets `outcome`, the rest go back to the pool. */
  private retire(outcome: Outcome): void {
    this.stopTimers();
    this.child = null;
    const [head, ...rest] = this.inflight.splice(0);
    head?.settle(outcome);
    this.events.retired(rest);
  }
}

/** Resolves once `child` has exited and been reaped (or after a second, should it not). */
export function reaped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 1000); // referenced: the process waits for the reaping
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
