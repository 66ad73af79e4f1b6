import { describe, expect, it } from 'vitest';
import type { ExecResult } from './pool.ts';
import { cacheKey, ResultCache } from './result-cache.ts';

const result = (bytes: number): ExecResult => ({ ok: true, columns: ['x'], rows: [], ms: 1, bytes });

describe('the result cache', () => {
  it('remembers results within its entry and byte budgets, oldest out first, and never keeps one result over an eighth of the bytes', async () => {
    const cache = new ResultCache(3, 800);
    let made = 0;
    const get = (key: string, bytes: number) => cache.get(key, async () => (made++, result(bytes)));
    await get('a', 100);
    await get('a', 100);
    expect(made).toBe(1);
    await get('huge', 101);
    expect(cache.size()).toEqual({ entries: 1, bytes: 100 });
    await get('huge', 101);
    expect(made).toBe(3);
    await get('b', 100);
    await get('c', 100);
    await get('d', 100);
    expect(cache.size()).toEqual({ entries: 3, bytes: 300 });
    await get('a', 100);
    expect(made).toBe(7);
    const failed = await cache.get('bad', async () => ({ ok: false, kind: 'syntax', message: 'x', ms: 0 }));
    expect(failed.ok).toBe(false);
    expect(cache.size().bytes).toBe(200);
  });

  it('turns long keys into a hash, so long SQL text is not kept as a key', () => {
    expect(cacheKey('db', 'SELECT 1')).toBe('db\u0000SELECT 1');
    const long = cacheKey('db', 'x'.repeat(10_000));
    expect(long).toMatch(/^#[0-9a-f]{64}$/);
    expect(cacheKey('db', 'x'.repeat(10_000))).toBe(long);
    expect(cacheKey('db', `${'x'.repeat(9_999)}y`)).not.toBe(long);
  });
});
