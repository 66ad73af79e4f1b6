/**
 * Batch full-match checks that can never hang the caller.
 *
 * - Regular regexes (a DFA exists) run on the compiled DFA table: linear time, no backtracking,
 *   synchronous.
 * - Non-regular ECMAScript regexes run on V8 inside a worker thread (see match-worker.ts). The
 *   whole batch is one message; the parent arms a timer when the batch is dispatched and, on
 *   expiry, terminates the worker, replaces it and resolves `{ ok: false, timeout: true }`.
 *   Jobs queue when all workers are busy; the deadline runs from dispatch, not from enqueue.
 * - Workers are always `unref()`ed, so an idle matcher never keeps the process alive; the
 *   deadline timer is ref'd while a batch runs, so a pending `matchAll` always settles.
 * - What the candidate makes the engine do cannot reject: V8 refusing the pattern, or the worker
 *   dying under it (its heap is capped by WORKER_LIMITS), resolves `{ ok: false, refused }` and the
 *   worker is replaced. Only misuse (a closed matcher, a regex with no engine) rejects.
 * - Worker threads live inside this process: they cannot outlive it, whatever signal ends it.
 */
import { Worker } from 'node:worker_threads';
import type { CompiledRegex } from './compile.ts';
import { WORKER_SOURCE, type WorkerJob, type WorkerReply } from './match-worker.ts';

/**
 * `timeout`: the batch did not finish by the deadline (the worker was replaced). `refused`: the
 * engine cannot run this regex at all (V8's "Regular expression too large", a stack overflow, the
 * worker running out of its memory limit) — a property of the candidate, never of the inputs.
 */
export type MatchOutcome =
  | { ok: true; results: boolean[]; engine: 'dfa' | 'v8'; ms: number }
  | { ok: false; timeout: true; ms: number }
  | { ok: false; timeout: false; refused: string; ms: number };

export interface RegexMatcherOptions {
  /** Per-batch deadline for the V8 path (default 1000 ms). */
  deadlineMs?: number;
  /** Worker threads for the V8 path (default 1). */
  workers?: number;
}

/** Heap caps of a matching worker: a hostile pattern exhausts these, not the process. */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 } as const;

interface PendingJob {
  job: WorkerJob;
  deadlineMs: number;
  resolve(outcome: MatchOutcome): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  busy: PendingJob | null;
  timer: NodeJS.Timeout | null;
  started: number;
  onExit(code: number): void;
}

export class RegexMatcher {
  private readonly deadlineMs: number;
  private readonly maxWorkers: number;
  private readonly slots = new Set<Slot>();
  private readonly queue: PendingJob[] = [];
  private nextId = 1;
  private closed = false;
  private running = 0;

  constructor(options: RegexMatcherOptions = {}) {
    this.deadlineMs = options.deadlineMs ?? 1000;
    this.maxWorkers = Math.max(1, Math.floor(options.workers ?? 1));
  }

  async matchAll(compiled: CompiledRegex, inputs: string[], deadlineMs?: number): Promise<MatchOutcome> {
    const started = performance.now();
    if (compiled.test) {
      const test = compiled.test;
      const results = inputs.map((input) => test(input));
      return { ok: true, results, engine: 'dfa', ms: performance.now() - started };
    }
    if (compiled.dialect !== 'ecmascript') {
      throw new Error(`no automaton for ${compiled.dialect} regex ${compiled.source}: ${compiled.nonRegular ?? ''}`);
    }
    if (this.closed) throw new Error('RegexMatcher is closed');
    return new Promise<MatchOutcome>((resolve, reject) => {
      const job: WorkerJob = { id: this.nextId++, source: compiled.source, flags: compiled.flags, inputs };
      this.queue.push({ job, deadlineMs: deadlineMs ?? this.deadlineMs, resolve, reject });
      this.pump();
    });
  }

  /** Worker threads started and not yet exited (terminated ones included until they are gone). */
  get threads(): number {
    return this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('RegexMatcher closed'));
    const slots = [...this.slots];
    this.slots.clear();
    await Promise.all(
      slots.map(async (slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.busy?.reject(new Error('RegexMatcher closed'));
        slot.busy = null;
        await slot.worker.terminate();
      }),
    );
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.idleSlot();
      if (!slot) return;
      this.dispatch(slot, this.queue.shift() as PendingJob);
    }
  }

  private idleSlot(): Slot | null {
    for (const slot of this.slots) if (!slot.busy) return slot;
    if (this.slots.size >= this.maxWorkers) return null;
    return this.spawn();
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: WORKER_LIMITS });
    const slot: Slot = {
      worker,
      busy: null,
      timer: null,
      started: 0,
      onExit: (code) => this.fail(slot, new Error(`regex worker exited with code ${code}`)),
    };
    this.running++;
    worker.once('exit', () => this.running--);
    worker.on('message', (reply: WorkerReply) => this.settle(slot, reply));
    worker.on('error', (error) => this.fail(slot, error));
    worker.on('exit', slot.onExit);
    // After the listeners: adding a 'message' listener re-refs the worker's port.
    worker.unref();
    this.slots.add(slot);
    return slot;
  }

  private dispatch(slot: Slot, pending: PendingJob): void {
    slot.busy = pending;
    slot.started = performance.now();
    slot.timer = setTimeout(() => this.expire(slot), pending.deadlineMs);
    slot.worker.postMessage(pending.job);
  }

  private settle(slot: Slot, reply: WorkerReply): void {
    const pending = slot.busy;
    if (!pending || pending.job.id !== reply.id) return;
    const ms = performance.now() - slot.started;
    this.release(slot);
    if ('error' in reply) pending.resolve({ ok: false, timeout: false, refused: reply.error, ms });
    else pending.resolve({ ok: true, results: reply.results, engine: 'v8', ms });
    this.pump();
  }

  private expire(slot: Slot): void {
    const pending = slot.busy;
    if (!pending) return;
    const ms = performance.now() - slot.started;
    this.retire(slot);
    pending.resolve({ ok: false, timeout: true, ms });
    if (!this.closed && this.slots.size < this.maxWorkers) this.spawn();
    this.pump();
  }

  /** The worker died (an error it could not catch, its memory limit, an exit): its job was the cause. */
  private fail(slot: Slot, error: Error): void {
    if (!this.slots.has(slot)) return;
    const pending = slot.busy;
    const ms = performance.now() - slot.started;
    this.retire(slot);
    pending?.resolve({ ok: false, timeout: false, refused: `the matching worker died: ${error.message}`, ms });
    this.pump();
  }

  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = null;
  }

  /** Forgets a slot and terminates its worker without waiting. */
  private retire(slot: Slot): void {
    this.release(slot);
    this.slots.delete(slot);
    slot.worker.off('exit', slot.onExit);
    void slot.worker.terminate();
  }
}

let shared: RegexMatcher | null = null;

/** The process-wide matcher (lazily created; its workers are unref'd). */
export function sharedMatcher(): RegexMatcher {
  shared ??= new RegexMatcher();
  return shared;
}
