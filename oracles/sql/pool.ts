/**
 * A pool of warm SQLite child processes (child.mjs). better-sqlite3 cannot be interrupted (no
 * progress handler; a worker thread stuck in SQLite cannot be terminated), so every request has a
 * deadline at which its child is SIGKILLed and later replaced; requests queued behind it on that
 * child go back to the queue. Children run with an empty environment, keep databases open
 * read-only, and never keep the parent alive: they are unreferenced, and killed on dispose and at
 * exit. Each child is fed up to `pipeline` requests at a time so it never idles on the IPC round trip.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { SqlRow } from './values.ts';

const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));

/** A database file (kept open by the child) or an in-memory image (opened read-only for one request). */
export type DbRef = { path: string } | { bytes: Uint8Array };

export type ExecFailureKind = 'syntax' | 'runtime' | 'timeout' | 'unsafe';

export type ExecResult =
  | { ok: true; columns: string[]; rows: SqlRow[]; ms: number }
  | { ok: false; kind: ExecFailureKind; message: string; ms: number };

export type TimingScope = 'first-row' | 'all-rows';

export type TimingResult = { ok: true; predMs: number[]; goldMs: number[] } | { ok: false; kind: ExecFailureKind; message: string };

export interface SqlPoolOptions {
  /** Child processes (default: the number of cores). */
  size?: number;
  /** Requests in flight per child (default 2). */
  pipeline?: number;
  /** V8 heap limit of a child in MB (default 2048): a gigantic result kills the child, not the machine. */
  heapMb?: number;
}

export interface PoolStats {
  spawned: number;
  killed: number;
  crashed: number;
}

type Outcome = { reply: Record<string, unknown> } | { timeout: true } | { crash: string };

interface Pending {
  message: Record<string, unknown>;
  deadlineMs: number;
  settle: (outcome: Outcome) => void;
}

interface Slot {
  child: ChildProcess | null;
  /** The child has started (its start-up does not count against a deadline). */
  ready: boolean;
  inflight: Pending[];
  timer: NodeJS.Timeout | null;
}

let nextId = 1;
const STARTUP_MS = 30_000;

export class SqlPool {
  readonly size: number;
  private readonly pipeline: number;
  private readonly heapMb: number;
  private readonly slots: Slot[];
  private readonly queue: Pending[] = [];
  private readonly statistics: PoolStats = { spawned: 0, killed: 0, crashed: 0 };
  private disposed = false;
  private readonly onExit = () => this.killAll();

  constructor(options: SqlPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.pipeline = Math.max(1, options.pipeline ?? 2);
    this.heapMb = options.heapMb ?? 2048;
    this.slots = Array.from({ length: this.size }, () => ({ child: null, ready: false, inflight: [], timer: null }));
    process.on('exit', this.onExit);
  }

  /** Runs one statement through the gate and returns its rows or the failure. */
  async run(db: DbRef, sql: string, deadlineMs: number): Promise<ExecResult> {
    const outcome = await this.request({ op: 'run', db, sql }, deadlineMs);
    return 'reply' in outcome ? (outcome.reply.result as ExecResult) : failure(outcome, deadlineMs);
  }

  /** Runs statements one after the other on one database under one combined deadline (BIRD's pred + gold). */
  async sequence(db: DbRef, sqls: string[], deadlineMs: number): Promise<ExecResult[]> {
    const outcome = await this.request({ op: 'pair', db, sqls }, deadlineMs);
    if ('reply' in outcome) return outcome.reply.results as ExecResult[];
    const failed = failure(outcome, deadlineMs);
    return sqls.map(() => failed);
  }

  /** VES timing: `iterations` interleaved runs of predicted, then gold. */
  async time(db: DbRef, pred: string, gold: string, iterations: number, scope: TimingScope, deadlineMs: number): Promise<TimingResult> {
    const outcome = await this.request({ op: 'time', db, pred, gold, iterations, scope }, deadlineMs);
    if ('reply' in outcome) return outcome.reply.timing as TimingResult;
    const { kind, message } = failure(outcome, deadlineMs) as Extract<ExecResult, { ok: false }>;
    return { ok: false, kind, message };
  }

  stats(): PoolStats {
    return { ...this.statistics };
  }

  /** Process ids of the live children (diagnostics and tests). */
  pids(): number[] {
    return this.slots.flatMap((s) => (s.child?.pid === undefined ? [] : [s.child.pid]));
  }

  /** Kills every child; pending requests fail. */
  async dispose(): Promise<void> {
    this.disposed = true;
    process.off('exit', this.onExit);
    const pending = [...this.queue.splice(0), ...this.slots.flatMap((s) => s.inflight.splice(0))];
    this.killAll();
    for (const p of pending) p.settle({ crash: 'the SQL pool was disposed' });
  }

  private request(message: Record<string, unknown>, deadlineMs: number): Promise<Outcome> {
    if (this.disposed) return Promise.resolve({ crash: 'the SQL pool was disposed' });
    return new Promise((resolve) => {
      this.queue.push({ message: { ...message, id: nextId++ }, deadlineMs, settle: resolve });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.disposed) {
      let best: Slot | undefined;
      for (const slot of this.slots) {
        if (slot.inflight.length < this.pipeline && (!best || slot.inflight.length < best.inflight.length)) best = slot;
      }
      if (!best) return;
      const pending = this.queue.shift() as Pending;
      const child = best.child ?? this.spawn(best);
      best.inflight.push(pending);
      child.send(pending.message);
      if (best.inflight.length === 1) this.arm(best);
    }
  }

  /** The head request's deadline runs from the moment the child starts on it. */
  private arm(slot: Slot): void {
    const head = slot.inflight[0];
    if (!head || !slot.ready) return;
    slot.timer = setTimeout(() => {
      slot.timer = null;
      const child = slot.child;
      this.statistics.killed++;
      this.retire(slot, { timeout: true });
      child?.kill('SIGKILL');
    }, head.deadlineMs);
  }

  private spawn(slot: Slot): ChildProcess {
    const child = fork(CHILD, [], {
      env: {},
      execArgv: [`--max-old-space-size=${this.heapMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    this.statistics.spawned++;
    slot.child = child;
    slot.ready = false;
    // Start-up has its own deadline (it also keeps the parent alive while requests wait for it).
    slot.timer = setTimeout(() => {
      slot.timer = null;
      this.retire(slot, { crash: `the SQLite process did not start within ${formatSeconds(STARTUP_MS)}` });
      child.kill('SIGKILL');
    }, STARTUP_MS);
    child.on('message', (reply: Record<string, unknown>) => {
      if (slot.child !== child) return;
      if (reply.ready === true) {
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        slot.ready = true;
        this.arm(slot);
        return;
      }
      const head = slot.inflight.shift();
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
      this.arm(slot);
      if (head) {
        if (typeof reply.failure === 'string') head.settle({ crash: `the SQLite process failed: ${reply.failure}` });
        else head.settle({ reply });
      }
      this.pump();
    });
    child.on('exit', (code, signal) => {
      if (slot.child !== child) return;
      this.statistics.crashed++;
      this.retire(slot, { crash: `the SQLite process died (${signal ?? `exit code ${code}`}; out of memory?)` });
    });
    child.on('error', () => {
      // 'exit' follows (or the send failed on a dead child); both are handled there.
    });
    child.unref();
    child.channel?.unref();
    return child;
  }

  /** Drops a slot's child: its head request gets `outcome`, the rest go back to the front of the queue. */
  private retire(slot: Slot, outcome: Outcome): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.child = null;
    const [head, ...rest] = slot.inflight.splice(0);
    this.queue.unshift(...rest);
    head?.settle(outcome);
    this.pump();
  }

  private killAll(): void {
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
      slot.child?.kill('SIGKILL');
      slot.child = null;
    }
  }
}

function failure(outcome: Outcome, deadlineMs: number): ExecResult {
  if ('timeout' in outcome) return { ok: false, kind: 'timeout', message: `the query did not finish within ${formatSeconds(deadlineMs)}`, ms: deadlineMs };
  if ('crash' in outcome) return { ok: false, kind: 'runtime', message: outcome.crash, ms: 0 };
  throw new Error('unreachable');
}

export function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}
