/**
 * Query results remembered by key (the same SQL on the same database recurs across strategies and
 * turns), within a budget of entries and of result bytes (the estimate of limits.ts): the oldest go
 * first, and a result larger than an eighth of the budget is not kept at all. Keys of any length
 * are reduced to a hash, so long SQL text does not pile up in memory.
 */
import { createHash } from 'node:crypto';
import { BoundedCache } from '../../core/bounded-cache.ts';
import type { ExecResult } from './pool.ts';

/** One key for several parts; parts longer together than 256 characters become their SHA-256. */
export function cacheKey(...parts: string[]): string {
  const key = parts.join('\u0000');
  return key.length <= 256 ? key : `#${createHash('sha256').update(key).digest('hex')}`;
}

export class ResultCache {
  private readonly entries: BoundedCache<string, Promise<ExecResult>>;

  constructor(
    maxEntries: number,
    private readonly maxBytes: number,
  ) {
    this.entries = new BoundedCache({ maxEntries, maxWeight: maxBytes });
  }

  /** The remembered result for `key`, or `make()`'s, remembered when it fits. */
  get(key: string, make: () => Promise<ExecResult>): Promise<ExecResult> {
    const known = this.entries.get(key);
    if (known) return known;
    const result = make();
    this.entries.set(key, result);
    void result.then((r) => {
      if (this.entries.peek(key) !== result) return;
      const bytes = r.ok ? r.bytes : 0;
      if (bytes > this.maxBytes / 8) this.entries.delete(key);
      else this.entries.weigh(key, bytes);
    });
    return result;
  }

  /** Results and bytes held now. */
  size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.weight };
  }

  clear(): void {
    this.entries.clear();
  }
}
