/** Types shared by the parts of the DSCodeBench oracle: its options, its prepared task, and the runtime the parts receive. */
import type { PreparedTask } from '../../../core/oracle.ts';
import type { PoolOptions, WorkerPool } from '../pool/pool.ts';
import type { ProbeRegistry } from '../probe-registry.ts';
import type { ResourceLimits } from '../../../core/sandbox/limits.ts';
import type { ArgumentsSchema } from './arbitrary.ts';
import type { ComparatorOptions, DsProgram, DsRunReport, DsSettings, ProbeSpec } from './run.ts';

export interface DsCodeBenchOptions {
  /** A pool to use; default: a shared pool for `sandbox`. */
  pool?: WorkerPool;
  sandbox?: PoolOptions;
  /** Seed of the input generator and of every RNG (default 42, the original's). */
  seed?: number;
  /** Generated inputs per task (default 200). */
  cases?: number;
  /** Wall-clock limit of a candidate's run over all inputs (default 200 s, the original's alarm). */
  candidateDeadlineMs?: number;
  /** Limit of the reference's run (the original sets none; default 600 s). */
  referenceDeadlineMs?: number;
  limits?: Partial<ResourceLimits>;
  comparator?: Partial<ComparatorOptions>;
  /** Count only the cases that raised as failed; default false: as the original, any exception fails every case. */
  isolateCaseExceptions?: boolean;
  /** Pin random_state on scikit-learn calls as the original does (default true). */
  forceRandomState?: boolean;
  /** Cap on the pickled outputs of one run, bytes (default 32 MiB); beyond it the run is `too-large`. */
  maxResultBytes?: number;
  /** Largest candidate program run, UTF-8 bytes (default 16 MiB); a bigger one is `too-complex`. */
  maxProgramBytes?: number;
}

export interface ExtraCase {
  id: string;
  spec: ProbeSpec;
}

export interface DsPrepared extends PreparedTask {
  reference: DsProgram;
  /** Inputs of the seeded cases as the reference saw them (repr, truncated). */
  library: string;
  entry: string;
  schema: ArgumentsSchema | null;
  extra: ExtraCase[];
}

/** What the oracle's parts share at run time; created by oracle.ts and passed to each part. */
export interface DsRuntime {
  pool: () => WorkerPool;
  settings: DsSettings;
  /** The probe inputs behind hardening witnesses, for `extend` and the simulator. */
  registry: ProbeRegistry<ProbeSpec>;
  /** A candidate's check run over the task's cases, extra cases included (cached: runs are deterministic). */
  cachedRun: (prepared: DsPrepared, code: string) => Promise<DsRunReport>;
}
