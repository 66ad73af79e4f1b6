/**
 * better-sqlite3, loaded on first use. `witness eval bird` opens no database in its own process
 * unless it keeps gold results, and an ESM import of this CommonJS package costs a parse of its
 * exports besides (about 5 ms of start-up): the modules on that command's path take it from here.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

let loaded: typeof BetterSqlite3 | undefined;

/** The better-sqlite3 constructor. */
export function betterSqlite3(): typeof BetterSqlite3 {
  loaded ??= createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  return loaded;
}
