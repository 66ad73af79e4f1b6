/**
 * A pool of warm sandboxed Python workers. Each worker has imported numpy and pandas once and
 * forks a fresh process per phase, so a candidate costs milliseconds, not a cold interpreter. Jobs
 * queue for a free worker; a worker that dies or stops answering fails only the job it was running
 * and is replaced for the next one. Workers start lazily, on first use.
 */
import { availableParallelism } from 'node:os';
import { sandboxEnvironment, type SandboxBackend, type WorkerLaunch } from '../sandbox/backend.ts';
import { DEFAULT_SCRATCH, GIB, MIB, type ScratchSizes } from '../../../core/sandbox/limits.ts';
import { resolveBackend, type BackendChoice, type BackendOptions } from '../sandbox/select.ts';
import { stagedPythonDir } from '../sandbox/stage.ts';
import type { PhaseResult, PhaseSpec } from './protocol.ts';
import { SandboxWorker, type WorkerInfo } from './worker.ts';

export interface PoolOptions extends BackendOptions {
  /** A backend, or its name; default `auto` (bwrap, then docker). The configured one: `configuredSandbox(config.python)`. */
  backend?: SandboxBackend | BackendChoice;
  /** Number of workers (default: 2, or 1 on a single core). */
  size?: number;
  /** Largest address space any phase may ask for (default 8 GiB). */
  maxAddressSpaceBytes?: number;
  /** Largest file any phase may write (default 64 MiB). */
  maxFileSizeBytes?: number;
  scratch?: Partial<ScratchSizes>;
  /** Extra environment variables for every phase (never secrets: candidates can read them). */
  env?: Record<string, string>;
  startTimeoutMs?: number;
  /** Extra time a worker gets beyond its phases' deadlines before it is declared hung (default 5 s). */
  graceMs?: number;
}

export interface PoolStats {
  started: number;
  /** Workers that died or were killed and had to be replaced. */
  replaced: number;
  served: number;
}

interface Job {
  phases: readonly PhaseSpec[];
  resolve: (results: PhaseResult[]) => void;
  reject: (error: Error) => void;
}

const MAX_START_FAILURES = 3;

export class WorkerPool {
  readonly size: number;
  private readonly slots: (SandboxWorker | null)[];
  private readonly busy: boolean[];
  private readonly starting: (Promise<SandboxWorker> | null)[];
  private readonly queue: Job[] = [];
  private backend: Promise<SandboxBackend> | undefined;
  private startFailures = 0;
  private lastStartError: Error | undefined;
  private closed = false;
  readonly stats: PoolStats = { started: 0, replaced: 0, served: 0 };
  /** What the last started worker reported (interpreter and library versions). */
  info: WorkerInfo | undefined;

  constructor(private readonly options: PoolOptions = {}) {
    this.size = Math.max(1, options.size ?? Math.min(2, availableParallelism()));
    this.slots = new Array<SandboxWorker | null>(this.size).fill(null);
    this.busy = new Array<boolean>(this.size).fill(false);
    this.starting = new Array<Promise<SandboxWorker> | null>(this.size).fill(null);
  }

  /** The backend in use (resolved on first call). */
  resolveBackend(): Promise<SandboxBackend> {
    const choice = this.options.backend;
    this.backend ??= typeof choice === 'object' ? Promise.resolve(choice) : resolveBackend(choice, this.options);
    return this.backend;
  }

  /** Runs a request on the next free worker. */
  run(phases: readonly PhaseSpec[]): Promise<PhaseResult[]> {
    if (this.closed) return Promise.reject(new Error('the Python worker pool is closed'));
    return new Promise<PhaseResult[]>((resolve, reject) => {
      this.queue.push({ phases, resolve, reject });
      this.pump();
    });
  }

  /** Starts every worker now (otherwise they start on first use). */
  async warm(): Promise<void> {
    await Promise.all(this.slots.map((_, i) => this.workerAt(i)));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the Python worker pool was closed'));
    await Promise.all(this.slots.map((w) => w?.close()));
    this.slots.fill(null);
  }

  private pump(): void {
    // Idle live workers first, then slots whose worker must (re)start.
    const live = (i: number) => Boolean(this.slots[i] && !this.slots[i]?.dead);
    const order = [...this.slots.keys()].sort((a, b) => Number(live(b)) - Number(live(a)));
    for (const i of order) {
      if (this.queue.length === 0) break;
      if (this.busy[i]) continue;
      const job = this.queue.shift() as Job;
      this.busy[i] = true;
      void this.serve(i, job);
    }
  }

  private async serve(slot: number, job: Job): Promise<void> {
    try {
      const worker = await this.workerAt(slot);
      const results = await worker.run(job.phases);
      this.stats.served++;
      job.resolve(results);
    } catch (error) {
      job.reject(error as Error);
    } finally {
      const worker = this.slots[slot];
      if (worker?.dead) {
        this.slots[slot] = null;
        this.stats.replaced++;
        worker.kill();
      }
      this.busy[slot] = false;
      this.pump();
    }
  }

  private workerAt(slot: number): Promise<SandboxWorker> {
    const existing = this.slots[slot];
    if (existing && !existing.dead) return Promise.resolve(existing);
    let starting = this.starting[slot];
    if (!starting) {
      starting = this.startWorker(slot).finally(() => {
        this.starting[slot] = null;
      });
      this.starting[slot] = starting;
    }
    return starting;
  }

  private async startWorker(slot: number): Promise<SandboxWorker> {
    if (this.startFailures >= MAX_START_FAILURES && this.lastStartError) throw this.lastStartError;
    const backend = await this.resolveBackend();
    const worker = new SandboxWorker(backend, this.launchSpec(), this.options.graceMs ?? 5000);
    try {
      this.info = await worker.start(this.options.startTimeoutMs ?? 60_000);
    } catch (error) {
      worker.kill();
      this.startFailures++;
      this.lastStartError = error as Error;
      throw error;
    }
    this.startFailures = 0;
    worker.unref();
    this.stats.started++;
    if (this.closed) {
      await worker.close();
      throw new Error('the Python worker pool was closed');
    }
    this.slots[slot] = worker;
    return worker;
  }

  private launchSpec(): WorkerLaunch {
    return {
      pyDir: stagedPythonDir(),
      env: sandboxEnvironment(this.options.env),
      maxAddressSpaceBytes: this.options.maxAddressSpaceBytes ?? 8 * GIB,
      maxFileSizeBytes: this.options.maxFileSizeBytes ?? 64 * MIB,
      scratch: { ...DEFAULT_SCRATCH, ...this.options.scratch },
    };
  }
}
