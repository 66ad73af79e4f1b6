/** The SQLite version better-sqlite3 bundles (for settings and the observer's description). */
import Database from 'better-sqlite3';

let sqliteVersion: string | undefined;
/** The SQLite version better-sqlite3 bundles (read once, on first use). */
export function sqliteVersionOnce(): string {
  if (!sqliteVersion) {
    const db = new Database(':memory:');
    sqliteVersion = db.prepare('SELECT sqlite_version()').pluck().get() as string;
    db.close();
  }
  return sqliteVersion;
}
