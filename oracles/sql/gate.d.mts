/** Types of gate.mjs (plain JS so the SQLite child process can load it without TypeScript tooling). */
import type Database from 'better-sqlite3';
import type { ExecFailure } from './pool-results.ts';

/** Gate + prepare on `db`: the statement in raw mode, or the failure (without its time). */
export function gate(
  db: Database.Database,
  sql: string,
): { stmt: Database.Statement; failure?: undefined } | { stmt?: undefined; failure: Omit<ExecFailure, 'ms'> };
/** The gate alone: null when the statement would run (it is never stepped), else the failure, timed. */
export function refusal(db: Database.Database, sql: string): ExecFailure | null;
