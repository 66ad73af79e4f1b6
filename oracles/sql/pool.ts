/**
 * A pool of warm SQLite child processes (child.mjs; one ChildSlot each, pool-slot.ts). better-sqlite3
 * cannot be interrupted (no progress handler; a worker thread stuck in SQLite cannot be terminated),
 * so every request has a deadline at which its child is SIGKILLed and later replaced; requests queued
 * behind it on that child go back to the queue. Children run with an empty environment, keep
 * databases open read-only, stop results at the caps while stepping, and live under memory and
 * temporary-file limits and a parent-death guard (child-launch.ts); they never keep the parent
 * alive: they are unreferenced, and killed on dispose and at exit. Each child is fed up to
 * `pipeline` requests at a time so it never idles on the IPC round trip, and up to `cheapPipeline`
 * while its recent requests were cheap (pipeline-depth.ts). Children start as requests need them,
 * but while one is live the next only when it pays for its start-up (pool-growth.ts), or by warm().
 * Requests wait in the order they came.
 */
import type { ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { childCommand, type OrphanGuard } from './child-launch.ts';
import { childMemoryMb, resolveLimits, type QueryLimits } from './limits.ts';
import { KNOWN_AFTER, pipelineDepth } from './pipeline-depth.ts';
import { DEFAULT_STARTUP_MS, mayGrow, startsChildrenAtOnce, WaitWatch } from './pool-growth.ts';
import type { CompareMode } from './result-equality.mjs';
import {
  decode,
  decodeCounted,
  failure,
  textRefusal,
  type ExecFailure,
  type ExecFailureKind,
  type CountedResult,
  type ExecResult,
  type Outcome,
  type WireResult,
} from './pool-results.ts';
import { ChildSlot, reaped, type Pending, type SlotEvents } from './pool-slot.ts';
import { CHILD_SCRIPT, DEFAULT_TEMP_FILE_MB, releasePrestarted } from './prestart.ts';

/** A database file (kept open by the child) or an in-memory image (opened read-only for one request). */
export type DbRef = { path: string } | { bytes: Uint8Array };

export type { CountedResult, ExecFailure, ExecFailureKind, ExecResult } from './pool-results.ts';

/** A pair scored by SqlPool.score(). */
export interface ScoredPair {
  pred: CountedResult;
  gold: CountedResult | null;
  equal?: boolean;
  /** The gold's result as the child sent it, serialized (v8), when both ran and it was asked to keep it. */
  goldBlob?: Uint8Array;
}
export { formatSeconds } from './pool-results.ts';

export type TimingScope = 'first-row' | 'all-rows';

export type TimingResult =
  { ok: true; predMs: number[]; goldMs: number[] } | { ok: false; kind: ExecFailureKind; message: string };

export interface SqlPoolOptions {
  /** Child processes (default: the number of cores). */
  size?: number;
  /** Requests in flight per child (default 2). */
  pipeline?: number;
  /** Requests in flight per child while its recent requests took under a millisecond (default 32). */
  cheapPipeline?: number;
  /** Caps of every request that names none (default DEFAULT_QUERY_LIMITS). */
  limits?: Partial<QueryLimits>;
  /** Data memory of a child in MiB (default: 384, or 3 × the byte cap when larger); needs prlimit. */
  memoryMb?: number;
  /** V8 heap limit of a child in MiB (default: memoryMb). */
  heapMb?: number;
  /** Largest temporary file of a child in MiB (default 1024); needs prlimit. */
  tempFileMb?: number;
  /** How children die with their parent (default: the kernel's parent-death signal where setpriv exists, else a watchdog thread). */
  orphanGuard?: OrphanGuard;
  /** Cores the pool may keep busy, its own process included (default: the machine's); see pool-growth.ts. */
  cores?: number;
}

/** What the caller knows of a request. */
export interface RequestHints {
  /** Its estimated time in ms (e.g. the time its gold took): keeps a slow request off a busy child (pipeline-depth.ts). */
  expectedMs?: number;
}

export interface PoolStats {
  spawned: number;
  /** Children taken over from those the launcher started (prestart.ts), not counted in `spawned`. */
  adopted: number;
  killed: number;
  crashed: number;
}

let nextId = 1;

export class SqlPool {
  readonly size: number;
  /** Caps of requests that name none. */
  readonly limits: QueryLimits;
  readonly memoryMb: number;
  /** The most requests the children hold at once (each child's deepest queue): a caller with more to ask keeps no more in flight. */
  readonly capacity: number;
  private readonly pipeline: number;
  private readonly cheapPipeline: number;
  private readonly heapMb: number;
  private readonly tempFileMb: number;
  private readonly guard: OrphanGuard | undefined;
  private readonly cores: number;
  private readonly slots: ChildSlot[];
  private readonly queue: Pending[] = [];
  private readonly statistics: PoolStats = { spawned: 0, adopted: 0, killed: 0, crashed: 0 };
  private disposed = false;
  private peak = 0;
  private pumpScheduled = false;
  /** A request expected to be slow came: children start as requests need them. */
  private startFreely = false;
  /** Children that may start beyond the live ones (pool-growth.ts). */
  private grants = 0;
  /** The last start-up measured (ms), null before one. */
  private startupMs: number | null = null;
  private readonly waits = new WaitWatch(
    () => this.startupEstimate(),
    (waitedMs, parentBusy) => this.onWait(waitedMs, parentBusy),
  );
  private readonly onExit = () => this.killAll();

  constructor(options: SqlPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.pipeline = Math.max(1, options.pipeline ?? 2);
    this.cheapPipeline = Math.max(this.pipeline, options.cheapPipeline ?? 32);
    this.capacity = this.size * this.cheapPipeline;
    this.limits = resolveLimits(options.limits, 'SqlPool');
    this.memoryMb = options.memoryMb ?? childMemoryMb(this.limits);
    this.heapMb = options.heapMb ?? this.memoryMb;
    this.tempFileMb = options.tempFileMb ?? DEFAULT_TEMP_FILE_MB;
    this.guard = options.orphanGuard;
    this.cores = Math.max(1, options.cores ?? availableParallelism());
    const events: SlotEvents = {
      ready: (startupMs) => {
        this.startupMs = startupMs;
        this.watchWaits();
      },
      // Replies read together are all handled before the children are fed: one message each, not one per reply.
      answered: () => this.schedulePump(),
      retired: (rest) => {
        this.queue.unshift(...rest);
        this.pump();
      },
      lost: (how) => void this.statistics[how]++,
    };
    this.slots = Array.from({ length: this.size }, () => new ChildSlot(events, this.memoryMb));
    process.on('exit', this.onExit);
  }

  /** Runs one statement through the gate and returns its rows or the failure. */
  async run(
    db: DbRef,
    sql: string,
    deadlineMs: number,
    limits?: Partial<QueryLimits>,
    hints: RequestHints = {},
  ): Promise<ExecResult> {
    const caps = this.capsFor(limits);
    const refused = textRefusal(sql, caps);
    if (refused) return refused;
    const { outcome } = await this.request({ op: 'run', db, sql, limits: caps }, deadlineMs, hints);
    return 'reply' in outcome ? this.decode(outcome.reply.result as WireResult) : failure(outcome, deadlineMs);
  }

  /** Passes one statement through the gate and prepares it without stepping it: the failure, or null when it would run. */
  async prepare(
    db: DbRef,
    sql: string,
    deadlineMs: number,
    limits?: Partial<QueryLimits>,
  ): Promise<ExecFailure | null> {
    const refused = textRefusal(sql, this.capsFor(limits));
    if (refused) return refused;
    const { outcome } = await this.request({ op: 'prepare', db, sql }, deadlineMs);
    return 'reply' in outcome ? ((outcome.reply.result as ExecFailure | null) ?? null) : failure(outcome, deadlineMs);
  }

  /**
   * Runs statements one after the other on one database under one combined deadline (BIRD's pred +
   * gold). Statements that finished before a deadline or a crash keep their results; the one
   * interrupted and those after it get the failure.
   */
  async sequence(db: DbRef, sqls: string[], deadlineMs: number, limits?: Partial<QueryLimits>): Promise<ExecResult[]> {
    const caps = this.capsFor(limits);
    const results: (ExecResult | null)[] = sqls.map((sql) => textRefusal(sql, caps));
    const runnable = sqls.flatMap((sql, i) => (results[i] ? [] : [{ sql, i }]));
    if (runnable.length === 0) return results as ExecResult[];
    const { outcome, parts } = await this.request(
      { op: 'pair', db, sqls: runnable.map((r) => r.sql), limits: caps },
      deadlineMs,
    );
    // The child sends each statement's result as it is done, then `done`; `results` when the database would not open.
    const whole =
      'reply' in outcome && Array.isArray(outcome.reply.results)
        ? (outcome.reply.results as WireResult[]).map((r) => this.decode(r))
        : null;
    const failed = failure(outcome, deadlineMs);
    runnable.forEach(({ i }, k) => {
      const part = parts[k];
      results[i] = whole?.[k] ?? (part ? this.decode(part) : failed);
    });
    return results as ExecResult[];
  }

  /**
   * BIRD's pair scored in the SQLite process that reads it: the prediction, then, if it ran, the gold,
   * under one deadline, then the comparison (result-equality.mjs) — only the verdict and the row
   * counts travel, and the gold's result serialized (v8) when `keepGold`. The gold is null when the
   * prediction failed or did not finish (it was not run); `equal` is set when both ran. Null when a text is over the cap (refused before
   * any process sees it): the caller runs the pair its own way.
   */
  async score(
    db: DbRef,
    pred: string,
    gold: string,
    deadlineMs: number,
    compare: { mode: CompareMode; goldOrdered: boolean; keepGold: boolean },
    limits?: Partial<QueryLimits>,
  ): Promise<ScoredPair | null> {
    const caps = this.capsFor(limits);
    if (textRefusal(pred, caps) || textRefusal(gold, caps)) return null;
    const { outcome, parts } = await this.request(
      { op: 'score', db, pred, gold, ...compare, limits: caps },
      deadlineMs,
    );
    const decoded = (part: WireResult | undefined) => (part ? decodeCounted(part, this.tempFileMb) : undefined);
    const stopped = failure(outcome, deadlineMs);
    const predicted = decoded(parts[0]) ?? stopped;
    if (!predicted.ok) return { pred: predicted, gold: null };
    const goldResult = decoded(parts[1]) ?? stopped;
    if (!('reply' in outcome) || typeof outcome.reply.equal !== 'boolean') return { pred: predicted, gold: goldResult };
    const { equal, goldBlob } = outcome.reply as { equal: boolean; goldBlob?: Uint8Array };
    return { pred: predicted, gold: goldResult, equal, ...(goldBlob ? { goldBlob } : {}) };
  }

  /** VES timing: `iterations` interleaved runs of predicted, then gold. */
  async time(
    db: DbRef,
    pred: string,
    gold: string,
    iterations: number,
    scope: TimingScope,
    deadlineMs: number,
  ): Promise<TimingResult> {
    const refused = textRefusal(pred, this.limits) ?? textRefusal(gold, this.limits);
    if (refused) return { ok: false, kind: refused.kind, message: refused.message };
    const { outcome } = await this.request({ op: 'time', db, pred, gold, iterations, scope }, deadlineMs);
    if ('reply' in outcome) return outcome.reply.timing as TimingResult;
    const { kind, message } = failure(outcome, deadlineMs) as ExecFailure;
    return { ok: false, kind, message };
  }

  /**
   * Starts `count` children now (default: all; the others start when requests need them, see
   * pool-growth.ts), so that their start-up overlaps the caller's own.
   */
  warm(count = this.size): void {
    if (this.disposed) return;
    for (const slot of this.slots.slice(0, count)) if (!slot.child) this.spawn(slot);
    releasePrestarted(); // the launcher's children this pool did not take
  }

  stats(): PoolStats {
    return { ...this.statistics };
  }

  /** The most requests one child has had in flight so far (diagnostics and tests). */
  peakInflight(): number {
    return this.peak;
  }

  /** Process ids of the live children (diagnostics and tests). */
  pids(): number[] {
    return this.slots.flatMap((s) => (s.child?.pid === undefined ? [] : [s.child.pid]));
  }

  /** Kills every child and waits (at most a second) until the system has reaped them; pending requests fail. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.waits.stop();
    process.off('exit', this.onExit);
    const pending = [...this.queue.splice(0), ...this.slots.flatMap((s) => s.inflight.splice(0))];
    const children = this.slots.flatMap((s) => (s.child ? [s.child] : []));
    this.killAll();
    for (const p of pending) p.settle({ crash: 'the SQL pool was disposed', kind: 'runtime' });
    // Reaped children leave no zombie, and their CPU time is counted in this process's (time(1), wait4).
    await Promise.all(children.map(reaped));
  }

  private decode(result: WireResult): ExecResult {
    return decode(result, this.tempFileMb);
  }

  private capsFor(limits: Partial<QueryLimits> | undefined): QueryLimits {
    return limits ? resolveLimits({ ...this.limits, ...limits }, 'SqlPool request') : this.limits;
  }

  private request(
    message: Record<string, unknown>,
    deadlineMs: number,
    { expectedMs }: RequestHints = {},
  ): Promise<{ outcome: Outcome; parts: WireResult[] }> {
    const parts: WireResult[] = [];
    return new Promise((resolve) => {
      const settle = (outcome: Outcome) => resolve({ outcome, parts });
      if (this.disposed) return settle({ crash: 'the SQL pool was disposed', kind: 'runtime' });
      this.queue.push({ message: { ...message, id: nextId++ }, deadlineMs, expectedMs, settle, parts });
      this.schedulePump();
    });
  }

  /** Pumps once the current job is done, so that the requests it makes travel together. */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Hands queued requests to the children with room; several for one child go in one message. */
  private pump(): void {
    const outgoing = new Map<ChildProcess, Record<string, unknown>[]>();
    while (this.queue.length > 0 && !this.disposed) {
      let best: ChildSlot | undefined;
      const expectedMs = this.queue[0]?.expectedMs;
      if (startsChildrenAtOnce(expectedMs, this.startupEstimate())) this.startFreely = true;
      const live = this.slots.filter((s) => s.child).length;
      const mayStart = live === 0 || this.startFreely || this.grants > 0;
      for (const slot of this.slots) {
        if (!slot.child && !mayStart) continue;
        const depth = pipelineDepth(
          slot.answered >= KNOWN_AFTER ? slot.recentMs : null,
          {
            base: this.pipeline,
            cheap: this.cheapPipeline,
            waiting: this.queue.length,
            children: this.size,
            spare: live < this.size && !mayStart,
          },
          expectedMs,
        );
        if (slot.inflight.length < depth && (!best || slot.inflight.length < best.inflight.length)) best = slot;
      }
      if (!best) break;
      const pending = this.queue.shift() as Pending;
      if (!best.child && live > 0 && !this.startFreely) this.grants--;
      const child = best.child ?? this.spawn(best);
      best.inflight.push(pending);
      this.peak = Math.max(this.peak, best.inflight.length);
      outgoing.set(child, [...(outgoing.get(child) ?? []), pending.message]);
      if (best.inflight.length === 1) best.arm();
    }
    this.watchWaits();
    // The child answers each request of a batch on its own, as it is done (deadlines stay per request).
    for (const [child, messages] of outgoing)
      child.send(
        messages.length === 1 ? (messages[0] as Record<string, unknown>) : { op: 'batch', requests: messages },
      );
  }

  private startupEstimate(): number {
    return this.startupMs ?? DEFAULT_STARTUP_MS;
  }

  /** Times the requests that wait for room on a ready child while another could start. */
  private watchWaits(): void {
    const waiting =
      this.queue.length > 0 &&
      !this.startFreely &&
      this.grants === 0 &&
      this.slots.some((s) => !s.child) &&
      this.slots.some((s) => s.child && s.ready);
    if (waiting) this.waits.waiting();
    else this.waits.stop();
  }

  /** Requests have waited a start-up's time: another child starts if it pays (pool-growth.ts). */
  private onWait(waitedMs: number, parentBusy: number): void {
    if (this.disposed) return;
    const liveChildren = this.slots.filter((s) => s.child).length;
    if (mayGrow({ waitedMs, startupMs: this.startupEstimate(), parentBusy, liveChildren, cores: this.cores }))
      this.grants = 1;
    this.pump(); // and a new window while requests still wait
  }

  private spawn(slot: ChildSlot): ChildProcess {
    const launch = childCommand(
      CHILD_SCRIPT,
      { memoryMb: this.memoryMb, heapMb: this.heapMb, tempFileMb: this.tempFileMb },
      this.guard,
    );
    const { child, adopted, startupMs } = slot.start(launch);
    this.statistics[adopted ? 'adopted' : 'spawned']++;
    if (startupMs !== undefined) this.startupMs = startupMs;
    return child;
  }

  private killAll(): void {
    for (const slot of this.slots) slot.kill();
  }
}
