/** Kept graph stores on real folders: naming, complete marker, lock between processes, pruning. */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimGraphStore, pruneGraphStores, storeDirName, storesToPrune, type StoreKey } from './graph-store.ts';

const key: StoreKey = { graph: 'orchard', sourceHash: 'a'.repeat(64), loaderVersion: 2, neo4jVersion: '5.20.0' };
const root = () => mkdtempSync(join(tmpdir(), 'witness-graph-store-'));
const claimed = (dir: string, k: StoreKey = key, log?: (line: string) => void) => {
  const claim = claimGraphStore(dir, k, log);
  if (!claim.ok) throw new Error(claim.reason);
  return claim.store;
};

describe('kept graph stores', () => {
  it('names a store by graph and a key of file checksum, loader version and Neo4j version', () => {
    expect(storeDirName(key)).toMatch(/^orchard-[0-9a-f]{12}$/);
    const others = [
      { ...key, sourceHash: 'b'.repeat(64) },
      { ...key, loaderVersion: 3 },
      { ...key, neo4jVersion: '5.21.0' },
    ].map(storeDirName);
    expect(new Set([storeDirName(key), ...others]).size).toBe(4);
    expect(storeDirName({ ...key, graph: '../x y' })).toMatch(/^\.\._x_y-[0-9a-f]{12}$/);
  });

  it('a store counts as complete only after markComplete; a partial one is wiped on the next claim', () => {
    const dir = root();
    const logs: string[] = [];
    const first = claimed(dir);
    expect(first.complete).toBe(false);
    first.markLoading();
    mkdirSync(first.home, { recursive: true });
    writeFileSync(join(first.home, 'half-written'), 'x');
    first.release(); // killed mid-load: no complete.json
    const second = claimed(dir, key, (line) => logs.push(line));
    expect(second.complete).toBe(false);
    expect(existsSync(join(second.home, 'half-written'))).toBe(false);
    expect(logs.join('\n')).toMatch(/holds no complete load of graph orchard \(interrupted\?\); loading it again/);
    mkdirSync(second.home, { recursive: true });
    writeFileSync(join(second.home, 'store'), 'x');
    second.markComplete();
    second.release();
    const third = claimed(dir);
    expect(third.complete).toBe(true);
    expect(existsSync(join(third.home, 'store'))).toBe(true);
    // A reload into the store marks it partial until it completes again.
    third.markLoading();
    third.release();
    expect(claimed(dir).complete).toBe(false);
  });

  it('a complete marker of another key does not count', () => {
    const dir = root();
    const store = claimed(dir);
    store.markComplete();
    store.release();
    const record = join(store.dir, 'complete.json');
    writeFileSync(record, JSON.stringify({ ...key, neo4jVersion: '5.19.0' }));
    expect(claimed(dir).complete).toBe(false);
  });

  it('a store locked by a live process is refused with its pid; a dead holder’s lock is taken over', async () => {
    const dir = root();
    const store = claimed(dir);
    store.release();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(store.dir, 'lock'), `${holder.pid}\n`);
      const refused = claimGraphStore(dir, key);
      expect(refused).toEqual({
        ok: false,
        reason: `the kept store ${store.dir} is in use by another run (pid ${holder.pid})`,
      });
    } finally {
      holder.kill('SIGKILL');
      await new Promise((done) => holder.once('exit', done));
    }
    expect(claimGraphStore(dir, key).ok).toBe(true);
    // This process holds it now: a second claim is refused too.
    expect(claimGraphStore(dir, key)).toMatchObject({ ok: false, reason: expect.stringContaining(`${process.pid}`) });
  });

  it('pruning keeps the most recently used stores and never a locked one', () => {
    expect(
      storesToPrune(
        [
          { name: 'old', lastUsedMs: 1, locked: false },
          { name: 'locked-oldest', lastUsedMs: 0, locked: true },
          { name: 'new', lastUsedMs: 3, locked: false },
          { name: 'mid', lastUsedMs: 2, locked: false },
        ],
        2,
      ),
    ).toEqual(['old', 'mid']);
    expect(storesToPrune([{ name: 'a', lastUsedMs: 1, locked: false }], 1)).toEqual([]);

    const dir = root();
    const logs: string[] = [];
    for (const [i, graph] of ['a', 'b', 'c'].entries()) {
      const store = claimed(dir, { ...key, graph });
      store.markComplete();
      utimesSync(join(store.dir, 'complete.json'), 1000 + i, 1000 + i);
      if (graph !== 'a') store.release(); // a (the oldest) stays locked
    }
    expect(pruneGraphStores(dir, 2, (line) => logs.push(line))).toEqual([storeDirName({ ...key, graph: 'b' })]);
    expect(readdirSync(dir).sort()).toEqual([
      storeDirName({ ...key, graph: 'a' }),
      storeDirName({ ...key, graph: 'c' }),
    ]);
    expect(logs[0]).toMatch(/deleted the kept graph store .*b-[0-9a-f]{12} \(more than 2 kept/);
  });
});
