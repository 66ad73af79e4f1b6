/** Types shared by the parts of the BigCodeBench oracle: its options, its prepared task, and the runtime the parts receive. */
import type { PreparedTask } from '../../../core/oracle.ts';
import type { PoolOptions, WorkerPool } from '../pool/pool.ts';
import type { ProbeRegistry } from '../probe-registry.ts';
import type { ResourceLimits } from '../../../core/sandbox/limits.ts';
import type { ProbeRunReport } from './probe-run.ts';
import type { BcbRunReport } from './run.ts';

export interface BigCodeBenchOptions {
  pool?: WorkerPool;
  sandbox?: PoolOptions;
  /** The original's TIMEOUT_LIMIT (BIGCODEBENCH_TIMEOUT_PER_TASK), seconds; default 240. */
  timeLimitS?: number;
  /** The original's min_time_limit, seconds; default 1. */
  minTimeLimitS?: number;
  limits?: Partial<ResourceLimits>;
  /** Prefix the code_prompt and a stub body (the official calibrated mode); default true. */
  calibrated?: boolean;
  /** Largest candidate program run, UTF-8 bytes (default 16 MiB); a bigger one is `too-complex`. */
  maxProgramBytes?: number;
  /**
   * Most derived calls one hardening probe runs (default 64; never more than the hardening's
   * maxProbes): each call runs the task's own code — files, subprocesses — three times.
   */
  maxProbeCalls?: number;
}

/** A call derived from the test module's own cases (hardening), added to the task as case `id`. */
export interface BcbExtraCase {
  id: string;
  /** Python source of the call, e.g. `task_func([1, 2], 'a')`. */
  spec: string;
}

export interface BcbPrepared extends PreparedTask {
  codePrompt: string;
  completePrompt: string;
  entryPoint: string;
  libs: string[];
  test: string;
  /** The reference's measured suite time, seconds (the original's gt_time). */
  referenceSeconds: number;
  deadlineMs: number;
  /** Derived calls added by hardening (empty until `extend`). */
  extra: BcbExtraCase[];
}

/** What the oracle's parts share at run time; created by oracle.ts and passed to each part. */
export interface BcbRuntime {
  pool: () => WorkerPool;
  calibrated: boolean;
  limitsFor: (deadlineMs: number) => ResourceLimits;
  maxProgramBytes: number;
  /** Most derived calls one probe runs. */
  maxProbeCalls: number;
  /** The task's TestCases run on this candidate source (cached: runs are deterministic). */
  cachedRun: (prepared: BcbPrepared, source: string) => Promise<BcbRunReport>;
  /** Reference and candidate on these derived calls, judged (cached as well). */
  cachedProbe: (prepared: BcbPrepared, source: string, calls: readonly string[]) => Promise<ProbeRunReport>;
  /** The derived calls behind hardening witnesses, for `extend` and the simulator. */
  registry: ProbeRegistry<string>;
}
