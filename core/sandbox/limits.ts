/** Resource limits of one sandboxed phase, and of the worker process that forks the phases. */

/** Limits a phase process sets on itself (setrlimit) before any task code runs. */
export interface ResourceLimits {
  /** RLIMIT_AS: address space (virtual memory), bytes. */
  addressSpaceBytes: number;
  /** RLIMIT_CPU: CPU seconds, counted per process. */
  cpuSeconds: number;
  /** RLIMIT_NPROC: processes of the sandbox user inside the worker's user namespace. */
  processes: number;
  /** RLIMIT_FSIZE: largest file the phase may write (stdout and stderr are files too), bytes. */
  fileSizeBytes: number;
  /** RLIMIT_NOFILE: open file descriptors. */
  openFiles: number;
  /** RLIMIT_STACK: main-thread stack, bytes. */
  stackBytes: number;
}

export const MIB = 1024 * 1024;
export const GIB = 1024 * MIB;

/** Defaults for candidate code: 4 GiB address space, 64 processes, 16 MiB files, 10 MiB stack. */
export const DEFAULT_LIMITS: ResourceLimits = {
  addressSpaceBytes: 4 * GIB,
  cpuSeconds: 60,
  processes: 64,
  fileSizeBytes: 16 * MIB,
  openFiles: 256,
  stackBytes: 10 * MIB,
};

/** Size caps of the worker's private writable file systems (tmpfs, charged to memory). */
export interface ScratchSizes {
  /** The per-worker root holding the job folders. */
  scratchBytes: number;
  tmpBytes: number;
  shmBytes: number;
}

export const DEFAULT_SCRATCH: ScratchSizes = { scratchBytes: 256 * MIB, tmpBytes: 256 * MIB, shmBytes: 16 * MIB };

/**
 * Process limit set on the worker when it starts. Inside its user namespace each phase lowers it to
 * its own `processes`; this one caps all sandbox processes of the same user together (the kernel
 * counts them per user across namespaces), so it is large enough for several pools at once. Not
 * as root, the harness's user's other processes are added (identity.ts, workerProcessCap).
 */
export const WORKER_PROCESS_CAP = 1024;

/** The phase's CPU limit for a wall-clock deadline: the deadline rounded up, plus one second. */
export function cpuSecondsFor(deadlineMs: number): number {
  return Math.max(1, Math.ceil(deadlineMs / 1000) + 1);
}

/** The caps prlimit(1) sets on a sandbox's first process, which everything it starts inherits. */
export interface ProcessCaps {
  addressSpaceBytes: number;
  /** CPU seconds, when the whole sandbox has one budget (the worker's phases set their own). */
  cpuSeconds?: number;
  fileSizeBytes: number;
  processes: number;
  openFiles: number;
}

/** prlimit(1) arguments (before `--`) for these caps; core dumps are always off. */
export function prlimitCapArgs(caps: ProcessCaps): string[] {
  return [
    `--as=${caps.addressSpaceBytes}`,
    ...(caps.cpuSeconds === undefined ? [] : [`--cpu=${caps.cpuSeconds}`]),
    `--fsize=${caps.fileSizeBytes}`,
    `--nproc=${caps.processes}`,
    `--nofile=${caps.openFiles}`,
    '--core=0',
  ];
}

/** The caps that start the worker: hard caps every phase limit must fit under. */
export function workerCaps(
  maxAddressSpaceBytes: number,
  maxFileSizeBytes: number,
  processCap = WORKER_PROCESS_CAP,
): ProcessCaps {
  return {
    addressSpaceBytes: maxAddressSpaceBytes,
    fileSizeBytes: maxFileSizeBytes,
    processes: processCap,
    openFiles: 1024,
  };
}

/** prlimit(1) arguments that start the worker (workerCaps). */
export function prlimitArgs(
  maxAddressSpaceBytes: number,
  maxFileSizeBytes: number,
  processCap = WORKER_PROCESS_CAP,
): string[] {
  return prlimitCapArgs(workerCaps(maxAddressSpaceBytes, maxFileSizeBytes, processCap));
}

export function formatBytes(bytes: number): string {
  if (bytes >= GIB && bytes % GIB === 0) return `${bytes / GIB} GiB`;
  if (bytes >= MIB) return `${Math.round(bytes / MIB)} MiB`;
  return `${bytes} bytes`;
}
