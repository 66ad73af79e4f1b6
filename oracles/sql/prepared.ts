/** What the SQL oracle prepares per task (its cases: databases with gold results; what the sim needs), its options and the runtime its parts share. */
import type { PreparedTask } from '../../core/oracle.ts';
import type { CompareMode } from './compare.ts';
import type { ResultSet } from './values.ts';
import type { DatabaseContext } from './database.ts';
import type { DbRef, ExecResult, SqlPool } from './pool.ts';

export interface SqlCase {
  id: string;
  db: DbRef;
  /** Identity of the database for result caching. */
  key: string;
  gold: ResultSet;
  /** Counts toward the verdict (the original database, probe databases added by hardening). */
  required: boolean;
  /** For probe databases: how the copy differs from the original. */
  change?: string[];
}

export interface SqlPrepared extends PreparedTask {
  database: DatabaseContext;
  cases: SqlCase[];
  goldOrdered: boolean;
  /** One-step mutants of the gold that SQLite prepares and whose result differs (the sim's first mistakes; empty when not checked). */
  goldMutants: string[];
}

export interface SqlOracleOptions {
  /** `set` (BIRD's EX, default), `multiset` or `ordered`. */
  mode?: CompareMode;
  /** Deadline per query (default 30 s, as BIRD). */
  timeoutMs?: number;
  /** Hidden perturbed copies per database, one case each (default 3). */
  perturbedCopies?: number;
  /** Seed of the perturbed copies (default 0). */
  seed?: number;
  /** Time correct candidates for VES (default: 100 iterations); false turns it off. */
  ves?: false | { iterations?: number };
  /** Probe databases per hardening round (default 24; the run's maxProbes caps it further). */
  probeDatabases?: number;
  /** Databases larger than this get no perturbed copies or probes (default 64 MiB). */
  maxImageBytes?: number;
  /** Rows a result may have (default 1,000,000): more is a `too-large` verdict. */
  maxRows?: number;
  /** Estimated bytes a result may take (default 128 MiB, at most 1 GiB; see limits.ts): more is `too-large`. */
  maxResultBytes?: number;
  /** UTF-8 bytes of a candidate's SQL text (default 1 MiB): more is `too-complex`. */
  maxSqlBytes?: number;
  /** A pool to share; by default the oracle starts its own (sized for the caps) and disposes it. */
  pool?: SqlPool;
  /**
   * Run the gold's one-step mutants at prepare, so the sim's first mistakes change the result
   * (default true). It costs one query per mutant (≤ 2 s each): turn it off for real models on
   * large databases.
   */
  checkGoldMutants?: boolean;
}

/** What the oracle's parts (observer, simulator) share with it: the comparison mode and cached execution. */
export interface SqlRuntime {
  mode: CompareMode;
  /** Runs a query on a case's database, remembering the result (the same SQL on the same database recurs often). */
  execute(db: DbRef, key: string, sql: string, deadlineMs?: number): Promise<ExecResult>;
  /** A case of the task by id, or a probe database hardening added. */
  findCase(prepared: SqlPrepared, id: string | undefined): SqlCase | undefined;
}
