/** What the SQL oracle prepares per task: its cases (databases with gold results) and what the sim needs. */
import type { PreparedTask } from '../../core/oracle.ts';
import type { ResultSet } from './values.ts';
import type { DatabaseContext } from './database.ts';
import type { DbRef } from './pool.ts';

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
