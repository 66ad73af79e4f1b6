/**
 * One warm sandboxed worker seen from the harness: starts it through a backend, waits until it
 * has imported its libraries, runs one request at a time, and enforces a backstop deadline of its
 * own (the sum of the phase deadlines plus a grace period): a worker that overruns it, or dies
 * during a request, is killed with everything it started and the request fails naming the phase.
 */
import type { LaunchedWorker, SandboxBackend, WorkerExit, WorkerLaunch } from '../sandbox/backend.ts';
import { encodeRequest, ReplyParser, type PhaseResult, type PhaseSpec } from './protocol.ts';

/** A request could not complete because the worker died or stopped answering. */
export class WorkerFailure extends Error {
  constructor(
    message: string,
    /** The phase that was running (by name), or null before the first phase started. */
    readonly phase: string | null,
    readonly reason: 'died' | 'unresponsive' | 'protocol',
  ) {
    super(message);
    this.name = 'WorkerFailure';
  }
}

export interface WorkerInfo {
  pid: number;
  cleanup: 'namespace' | 'tree';
  versions: Record<string, string | null>;
}

const STDERR_KEEP = 4096;

export class SandboxWorker {
  private launched: LaunchedWorker | undefined;
  private parser = new ReplyParser();
  private pending:
    | {
        id: number;
        phases: readonly PhaseSpec[];
        current: number;
        resolve: (r: PhaseResult[]) => void;
        reject: (e: Error) => void;
        timer: NodeJS.Timeout;
      }
    | undefined;
  private stderr = '';
  private nextId = 1;
  private exit: WorkerExit | undefined;
  info: WorkerInfo | undefined;
  /** Set once the worker has died or been killed; it never serves again. */
  dead = false;

  constructor(
    private readonly backend: SandboxBackend,
    private readonly spec: WorkerLaunch,
    private readonly graceMs = 5000,
  ) {}

  /** Starts the worker and resolves once it is ready (libraries imported). */
  async start(timeoutMs = 60_000): Promise<WorkerInfo> {
    const launched = await this.backend.launch(this.spec);
    this.launched = launched;
    launched.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    launched.stdin.on('error', () => undefined);
    return new Promise<WorkerInfo>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill();
        reject(
          new Error(`the ${this.backend.name} sandbox worker did not start within ${timeoutMs} ms${this.stderrNote()}`),
        );
      }, timeoutMs);
      launched.stdout.on('data', (chunk: Buffer) => {
        let items;
        try {
          items = this.parser.push(chunk);
        } catch (error) {
          this.fail(
            new WorkerFailure(
              `the worker's reply was malformed: ${(error as Error).message}`,
              this.currentPhase(),
              'protocol',
            ),
          );
          return;
        }
        for (const item of items) {
          if (item.type === 'ready') {
            clearTimeout(timer);
            this.info = item.info as unknown as WorkerInfo;
            resolve(this.info);
          } else if (item.type === 'progress' && this.pending) {
            this.pending.current = item.phase;
          } else if (item.type === 'reply' && this.pending && item.id === this.pending.id) {
            const done = this.pending;
            this.pending = undefined;
            clearTimeout(done.timer);
            done.resolve(item.phases);
          }
        }
      });
      void launched.exited.then((exit) => {
        this.exit = exit;
        this.dead = true;
        clearTimeout(timer);
        const how = exit.signal ? `signal ${exit.signal}` : `status ${exit.code}`;
        if (!this.info)
          reject(
            new Error(`the ${this.backend.name} sandbox worker exited during start-up (${how})${this.stderrNote()}`),
          );
        this.fail(
          new WorkerFailure(
            `the sandbox worker died (${how}) while running phase "${this.currentPhase() ?? '-'}"`,
            this.currentPhase(),
            'died',
          ),
        );
        void launched.cleanup?.();
      });
    });
  }

  get busy(): boolean {
    return this.pending !== undefined;
  }

  /** Runs one request; at most one at a time. */
  run(phases: readonly PhaseSpec[]): Promise<PhaseResult[]> {
    if (this.dead || !this.launched)
      return Promise.reject(new WorkerFailure('the worker is not running', null, 'died'));
    if (this.pending) return Promise.reject(new Error('SandboxWorker.run: a request is already in flight'));
    const id = this.nextId++;
    const launched = this.launched;
    let request: Buffer;
    try {
      request = encodeRequest(id, phases);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const budget = phases.reduce((n, p) => n + p.deadlineMs, 0) + this.graceMs + 1000 * phases.length;
    return new Promise<PhaseResult[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        const phase = this.currentPhase();
        this.fail(
          new WorkerFailure(
            `the sandbox worker stopped answering during phase "${phase ?? '-'}" (no reply within ${budget} ms)`,
            phase,
            'unresponsive',
          ),
        );
        this.kill();
      }, budget);
      this.pending = { id, phases, current: -1, resolve, reject, timer };
      launched.stdin.write(request);
    });
  }

  /** Kills the worker and everything it started. */
  kill(): void {
    this.dead = true;
    this.launched?.kill();
  }

  /** Ends the worker: closes its input (it exits on its own), then kills it if needed. */
  async close(timeoutMs = 2000): Promise<void> {
    if (!this.launched) return;
    const launched = this.launched;
    if (!this.exit) {
      launched.stdin.end();
      const timer = setTimeout(() => launched.kill(), timeoutMs);
      await launched.exited;
      clearTimeout(timer);
    }
    this.dead = true;
  }

  /** Lets the harness exit while this worker is idle (a request in flight keeps it alive by its timer). */
  unref(): void {
    this.launched?.unref?.();
  }

  private currentPhase(): string | null {
    const p = this.pending;
    if (!p || p.current < 0) return null;
    return p.phases[p.current]?.name ?? null;
  }

  private fail(error: WorkerFailure): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    clearTimeout(p.timer);
    p.reject(error);
  }

  private stderrNote(): string {
    const text = this.stderr.trim();
    return text ? `: ${text.slice(-1500)}` : '';
  }
}
