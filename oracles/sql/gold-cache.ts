/**
 * Gold results kept across evaluation runs (an SQLite file, WAL, safe to share between processes).
 * Evaluating many prediction files against one dev set re-runs the same gold queries every time;
 * this runs each once per database state. An entry is keyed by the database file's identity
 * (resolved path, size, modification time, inode) and the exact gold SQL, so a changed database is
 * never answered from a stale entry. Timeouts, crashes and results over the caps are not stored;
 * other errors are (they are deterministic). Each entry also records the gold's time in a column of
 * its own (files are shared with other versions of witness, which read it).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type Database from 'better-sqlite3';
import { betterSqlite3 } from './better-sqlite3.ts';
import type { ExecResult } from './pool.ts';
import type { WireResult } from './pool-results.ts';
import { flatRows } from './result-equality.mjs';

const VERSION = 1;
const MAX_PENDING_BYTES = 32 * 1024 * 1024;
const MAX_PENDING = 256;

export class GoldCache {
  private readonly db: Database.Database;
  private readonly identities = new Map<string, string>();
  /** Results not yet written, serialized (v8) as they will be stored. */
  private readonly pending = new Map<string, { blob: Uint8Array; ms: number }>();
  /** Bytes of the pending results: written once past 32 MiB, so a dev set's golds never pile up in memory. */
  private pendingBytes = 0;
  private readonly select: Database.Statement<[string], { result: Buffer }>;
  private readonly insert: Database.Statement<[string, Buffer, number]>;

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = new (betterSqlite3())(file, { timeout: 10_000 });
    this.db.pragma('journal_mode = WAL');
    this.db.exec('CREATE TABLE IF NOT EXISTS gold (key TEXT PRIMARY KEY, result BLOB NOT NULL, ms REAL)');
    addTimeColumn(this.db);
    this.select = this.db.prepare('SELECT result FROM gold WHERE key = ?');
    this.insert = this.db.prepare('INSERT OR REPLACE INTO gold (key, result, ms) VALUES (?, ?, ?)');
  }

  /** The key of a gold query on a database file in its current state. */
  key(dbPath: string, sql: string): string {
    let identity = this.identities.get(dbPath);
    if (!identity) {
      const real = realpathSync(dbPath);
      const stat = statSync(real);
      identity = JSON.stringify([real, stat.size, stat.mtimeMs, stat.ino]);
      this.identities.set(dbPath, identity);
    }
    return createHash('sha256')
      .update(JSON.stringify([VERSION, identity, sql]))
      .digest('hex');
  }

  get(key: string): ExecResult | undefined {
    const stored = this.pending.get(key)?.blob ?? this.select.get(key)?.result;
    if (!stored) return undefined;
    // Stored as the command had it (rows), or as a SQLite process sent it (values flat in chunks: putSerialized).
    const result = deserialize(stored) as ExecResult | WireResult;
    if (!result.ok || !('chunks' in result)) return result as ExecResult;
    const { columns, width, chunks = [], rowCount, ms, bytes } = result;
    return { ok: true, columns, rows: flatRows(width, chunks, rowCount), ms, bytes };
  }

  /** Remembers a result (written on flush); timeouts, crashes and caps are not properties of the query and are not kept. */
  put(key: string, result: ExecResult): void {
    if (!result.ok && (result.kind === 'timeout' || result.kind === 'too-large' || result.kind === 'too-complex'))
      return;
    if (!result.ok && result.message.startsWith('the SQLite process')) return;
    this.keep(key, serialize(result), result.ms);
  }

  /** Remembers a successful result as a SQLite process serialized it (a WireResult), without reading it here. */
  putSerialized(key: string, blob: Uint8Array, ms: number): void {
    this.keep(key, blob, ms);
  }

  private keep(key: string, blob: Uint8Array, ms: number): void {
    this.pending.set(key, { blob, ms });
    this.pendingBytes += blob.byteLength;
    if (this.pendingBytes > MAX_PENDING_BYTES || this.pending.size >= MAX_PENDING) this.flush();
  }

  flush(): void {
    if (this.pending.size === 0) return;
    this.db.transaction(() => {
      for (const [key, { blob, ms }] of this.pending)
        this.insert.run(key, Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength), ms);
    })();
    this.pending.clear();
    this.pendingBytes = 0;
  }

  close(): void {
    this.flush();
    this.db.close();
  }
}

/** Files written before times were recorded get the column (their entries have no time; another process may add it first). */
function addTimeColumn(db: Database.Database): void {
  const columns = db.prepare('PRAGMA table_info(gold)').all() as { name: string }[];
  if (columns.some((c) => c.name === 'ms')) return;
  try {
    db.exec('ALTER TABLE gold ADD COLUMN ms REAL');
  } catch (error) {
    if (!/duplicate column/.test(String(error))) throw error;
  }
}
