/** Pools shared by the oracles of one process (one per distinct option set), counted by reference. */
import { WorkerPool, type PoolOptions } from './pool.ts';

interface Entry {
  pool: WorkerPool;
  refs: number;
}

const pools = new Map<string, Entry>();

export interface PoolLease {
  pool: WorkerPool;
  /** Gives the pool back; the last lease closes it. */
  release(): Promise<void>;
}

/** A pool for these options, shared with other holders of the same options. */
export function acquirePool(options: PoolOptions = {}): PoolLease {
  if (typeof options.backend === 'object') {
    const pool = new WorkerPool(options);
    return { pool, release: () => pool.close() };
  }
  const key = JSON.stringify(options, Object.keys(options).sort());
  let entry = pools.get(key);
  if (!entry) {
    entry = { pool: new WorkerPool(options), refs: 0 };
    pools.set(key, entry);
  }
  entry.refs++;
  const held = entry;
  let released = false;
  return {
    pool: held.pool,
    async release() {
      if (released) return;
      released = true;
      held.refs--;
      if (held.refs === 0) {
        pools.delete(key);
        await held.pool.close();
      }
    },
  };
}
