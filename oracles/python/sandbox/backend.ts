/**
 * The one interface every Python sandbox backend offers: start a worker process (the Python
 * zygote in `py/worker.py`) inside the sandbox and hand back its pipes. `bwrap` (default where it
 * works), `docker` (through dockerode, where an engine is reachable) and `process` (resource limits
 * only; not a security boundary).
 */
import type { Readable, Writable } from 'node:stream';
import type { ScratchSizes } from '../../../core/sandbox/limits.ts';

export type BackendName = 'bwrap' | 'docker' | 'process';

export interface BackendStatus {
  available: boolean;
  /** Why it is not available, e.g. "no Docker engine reachable (connect ENOENT /var/run/docker.sock)". */
  reason?: string;
  /** What was found (versions, engine), for `describe`. */
  detail?: string;
}

export interface WorkerLaunch {
  /** Host folder holding the worker's Python sources (readable by the sandbox user). */
  pyDir: string;
  /** Environment of the worker and every phase (never the harness's own environment). */
  env: Record<string, string>;
  /** Hard caps every phase's own limits must fit under. */
  maxAddressSpaceBytes: number;
  maxFileSizeBytes: number;
  scratch: ScratchSizes;
}

export interface WorkerExit {
  code: number | null;
  signal: string | null;
}

/** A started worker: its pipes, a way to end it (and everything it started), and its end. */
export interface LaunchedWorker {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Kills the worker and all its processes at once; safe to call twice. */
  kill(): void;
  readonly exited: Promise<WorkerExit>;
  /** Called once when the worker is no longer needed, after it exited (temporary folders, containers). */
  cleanup?(): Promise<void>;
  /** Stops the worker's handles from keeping the harness alive (pending requests hold their own timer). */
  unref?(): void;
}

export interface SandboxBackend {
  readonly name: BackendName;
  /** True when candidates are isolated from the host (own namespaces); false for `process`. */
  readonly isolated: boolean;
  status(): Promise<BackendStatus>;
  launch(spec: WorkerLaunch): Promise<LaunchedWorker>;
}

/** The environment every sandboxed phase sees: nothing of the harness's (no API keys, no HOME of ours). */
export function sandboxEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TZ: 'UTC',
    OMP_NUM_THREADS: '1',
    OPENBLAS_NUM_THREADS: '1',
    MKL_NUM_THREADS: '1',
    NUMEXPR_NUM_THREADS: '1',
    PYTHONHASHSEED: '0',
    PYTHONDONTWRITEBYTECODE: '1',
    MPLBACKEND: 'Agg',
    TF_CPP_MIN_LOG_LEVEL: '3',
    ...extra,
  };
}

/** Error for a backend that cannot run here; the message says why and what to do. */
export class SandboxUnavailableError extends Error {
  constructor(
    readonly backend: BackendName,
    reason: string,
  ) {
    super(`the ${backend} Python sandbox is not available: ${reason}`);
    this.name = 'SandboxUnavailableError';
  }
}
