/**
 * Query results remembered by key (the same SQL on the same database recurs across strategies and
 * turns), within a budget of entries and of result bytes (the estimate of limits.ts): the oldest go
 * first, and a result larger than an eighth of the budget is not kept at all. Keys of any length
 * are reduced to a hash, so long SQL text does not pile up in memory.
 */
import { createHash } from 'node:crypto';
import type { ExecResult } from './pool.ts';

/** One key for several parts; parts longer together than 256 characters become their SHA-256. */
export function cacheKey(...parts: string[]): string {
  const key = parts.join('\u0000');
  return key.length <= 256 ? key : `#${createHash('sha256').update(key).digest('hex')}`;
}

export class ResultCache {
  private readonly entries = new Map<string, { result: Promise<ExecResult>; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  /** The remembered result for `key`, or `make()`'s, remembered when it fits. */
  get(key: string, make: () => Promise<ExecResult>): Promise<ExecResult> {
    const known = this.entries.get(key);
    if (known) return known.result;
    const entry = { result: make(), bytes: 0 };
    this.entries.set(key, entry);
    this.trim();
    void entry.result.then((r) => {
      if (this.entries.get(key) !== entry) return;
      const bytes = r.ok ? r.bytes : 0;
      if (bytes > this.maxBytes / 8) {
        this.entries.delete(key);
        return;
      }
      entry.bytes = bytes;
      this.bytes += bytes;
      this.trim();
    });
    return entry.result;
  }

  /** Results and bytes held now. */
  size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private trim(): void {
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [oldest, entry] = this.entries.entries().next().value as [string, { bytes: number }];
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}
