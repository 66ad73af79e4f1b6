/**
 * A map that forgets: at most `maxEntries` entries and, when given, at most `maxWeight` in total
 * (e.g. result bytes). Past either budget the oldest entries go first; "oldest" is by insertion
 * (default) or by last use (`order: 'lru'`, where a hit makes the entry the newest). Weights may be
 * given later (`weigh`), once a promised value is known.
 */

export interface BoundedCacheOptions {
  maxEntries: number;
  /** Largest total weight kept (default: no limit). */
  maxWeight?: number;
  /** `insertion` (default): entries leave in the order they came; `lru`: the least recently used leaves first. */
  order?: 'insertion' | 'lru';
}

export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;
  private readonly maxEntries: number;
  private readonly maxWeight: number;
  private readonly lru: boolean;

  constructor(options: BoundedCacheOptions) {
    this.maxEntries = options.maxEntries;
    this.maxWeight = options.maxWeight ?? Infinity;
    this.lru = options.order === 'lru';
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /** Total weight held now. */
  get weight(): number {
    return this.total;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value for `key` (in LRU order this makes it the newest). */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry && this.lru) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry?.value;
  }

  /** The value for `key`, without counting as a use. */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Keeps `value` under `key`, then forgets the oldest entries beyond the budgets. A replaced key keeps its place in insertion order. */
  set(key: K, value: V, weight = 0): void {
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.weight;
      if (this.lru) this.entries.delete(key);
    }
    this.entries.set(key, { value, weight });
    this.total += weight;
    this.trim();
  }

  /** The value for `key`, or `make()`'s, kept. */
  remember(key: K, make: () => V): V {
    if (this.entries.has(key)) return this.get(key) as V;
    const value = make();
    this.set(key, value);
    return value;
  }

  /** `remember` for promised values: a promise that rejects is forgotten, so the next call makes it again. */
  rememberPromise<T>(this: BoundedCache<K, Promise<T>>, key: K, make: () => Promise<T>): Promise<T> {
    if (this.entries.has(key)) return this.get(key) as Promise<T>;
    const value = make();
    this.set(key, value);
    value.catch(() => this.delete(key));
    return value;
  }

  /** Sets the weight of an entry held (no-op otherwise), then forgets the oldest entries beyond the budgets. */
  weigh(key: K, weight: number): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.total += weight - entry.weight;
    entry.weight = weight;
    this.trim();
  }

  delete(key: K): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.total -= entry.weight;
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  /** Keys from oldest to newest (the order in which they would be forgotten). */
  keys(): K[] {
    return [...this.entries.keys()];
  }

  private trim(): void {
    while (this.entries.size > this.maxEntries || (this.entries.size > 0 && this.total > this.maxWeight)) {
      const [oldest, entry] = this.entries.entries().next().value as [K, { weight: number }];
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
  }
}
