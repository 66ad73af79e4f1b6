import { join } from 'node:path';
import { serialize } from 'node:v8';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { GoldCache } from './gold-cache.ts';
import type { ExecResult } from './pool.ts';
import { temporaryFolders } from '../../testing/sql.ts';

const folders = temporaryFolders();
afterAll(() => folders.removeAll());

/** The time column of the file's entry under `key` (undefined: no entry; null: no time). */
const storedMs = (file: string, key: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT ms FROM gold WHERE key = ?').get(key) as { ms: number | null } | undefined)?.ms;
  } finally {
    db.close();
  }
};

const rows = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT COUNT(*) FROM gold').pluck().get() as number;
  } finally {
    db.close();
  }
};

describe('the gold cache', () => {
  it('writes results out as they pile up, so a dev set’s gold results never all sit in memory', () => {
    const file = join(folders.make('witness-gold-cache-'), 'gold.sqlite');
    const cache = new GoldCache(file);
    const text = 'x'.repeat(20 * 1024 * 1024);
    const big: ExecResult = { ok: true, columns: ['x'], rows: [[text]], ms: 1, bytes: text.length + 16 };
    cache.put('a', big);
    expect(rows(file)).toBe(0);
    cache.put('b', big);
    expect(rows(file)).toBe(2);
    for (let i = 0; i < 300; i++) cache.put(`small-${i}`, { ok: true, columns: ['x'], rows: [[i]], ms: 1, bytes: 16 });
    expect(rows(file)).toBeGreaterThanOrEqual(2 + 256);
    expect(cache.get('small-299')).toMatchObject({ ok: true, rows: [[299]] });
    cache.close();
    expect(rows(file)).toBe(302);
  });

  it('keeps a result as a SQLite process serialized it (values flat in chunks) and gives it back as rows', () => {
    const file = join(folders.make('witness-gold-cache-'), 'gold.sqlite');
    const cache = new GoldCache(file);
    const wire = {
      ok: true,
      columns: ['a', 'b'],
      width: 2,
      chunks: [
        [1, 'x'],
        [2n ** 60n, null],
      ],
      rowCount: 2,
      bytes: 64,
      ms: 3.5,
    };
    cache.putSerialized('w', serialize(wire), wire.ms);
    const rows = [
      [1, 'x'],
      [2n ** 60n, null],
    ];
    expect(cache.get('w')).toEqual({ ok: true, columns: ['a', 'b'], rows, ms: 3.5, bytes: 64 });
    cache.close();
    const again = new GoldCache(file);
    expect(again.get('w')).toEqual({ ok: true, columns: ['a', 'b'], rows, ms: 3.5, bytes: 64 });
    again.close();
    expect(storedMs(file, 'w')).toBe(3.5);
  });

  it('keeps no outcome that depends on the run rather than the query: timeouts, crashes, the caps', () => {
    const file = join(folders.make('witness-gold-cache-'), 'gold.sqlite');
    const cache = new GoldCache(file);
    cache.put('t', { ok: false, kind: 'timeout', message: 'the query did not finish within 30 s', ms: 30_000 });
    cache.put('l', {
      ok: false,
      kind: 'too-large',
      message: 'the result has more than 1,000,000 rows (the limit)',
      ms: 10,
    });
    cache.put('c', { ok: false, kind: 'too-complex', message: 'the query text is 2,000,000 bytes long', ms: 0 });
    cache.put('d', { ok: false, kind: 'runtime', message: 'the SQLite process died (SIGSEGV)', ms: 0 });
    cache.put('s', { ok: false, kind: 'syntax', message: 'no such column: x', ms: 0 });
    cache.close();
    const again = new GoldCache(file);
    expect(['t', 'l', 'c', 'd', 's'].map((k) => again.get(k)?.ok ?? null)).toEqual([null, null, null, null, false]);
    again.close();
  });

  it('records each gold’s time in a column of its own; a file from before times gains the column', () => {
    const file = join(folders.make('witness-gold-cache-'), 'gold.sqlite');
    const old = new Database(file);
    old.exec('CREATE TABLE gold (key TEXT PRIMARY KEY, result BLOB NOT NULL)');
    old.close();
    const cache = new GoldCache(file);
    cache.put('slow', { ok: true, columns: ['x'], rows: [[1]], ms: 812.5, bytes: 16 });
    expect(storedMs(file, 'slow')).toBeUndefined(); // still pending
    cache.flush();
    expect(storedMs(file, 'slow')).toBe(812.5);
    expect(storedMs(file, 'never')).toBeUndefined();
    cache.close();
    const legacy = new Database(file);
    legacy.prepare('INSERT INTO gold (key, result) VALUES (?, ?)').run('untimed', Buffer.from([0]));
    legacy.close();
    const again = new GoldCache(file);
    again.close();
    expect([storedMs(file, 'slow'), storedMs(file, 'untimed')]).toEqual([812.5, null]);
  });
});
