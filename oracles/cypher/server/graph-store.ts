/**
 * Kept graph databases: the Java launcher's Neo4j home for one graph, kept across runs in
 * `<graphStore>/<graph>-<key12>/` (key: the graph file's SHA-256, the loader version and the Neo4j
 * version), so a second run opens the loaded store instead of loading the graph again.
 *
 * A store counts as loaded only when its `complete.json` says so; that file is written after a load
 * finished and was checked, and removed before any load starts, so a run killed mid-load (even with
 * SIGKILL) leaves a store without it, which the next claim wipes and reloads. A `lock` file (the
 * claiming process's pid) keeps two runs from opening one store: a store held by a live process is
 * not waited for (a run can take hours); the claim says so and the caller uses a temporary database.
 * A lock whose process is gone is taken over. Beyond `keep` stores, the least recently used unlocked
 * ones are deleted.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/** What a kept store was loaded from. */
export interface StoreKey {
  graph: string;
  /** SHA-256 of the graph file. */
  sourceHash: string;
  loaderVersion: number;
  neo4jVersion: string;
}

export interface KeptStore {
  dir: string;
  /** The Neo4j home to start the launcher on. */
  home: string;
  /** True when the store holds a complete load of this key (the graph still gets checked once Neo4j runs). */
  complete: boolean;
  /** Call before loading into the store: until markComplete, the store counts as partial. */
  markLoading(): void;
  /** Call once the graph is loaded and checked. */
  markComplete(): void;
  /** Gives the lock back (idempotent). */
  release(): void;
}

export type StoreClaim = { ok: true; store: KeptStore } | { ok: false; reason: string };

const COMPLETE = 'complete.json';
const LOCK = 'lock';

/** The folder name of a key's store: the graph's name (safe characters only) and 12 hex digits of the key. */
export function storeDirName(key: StoreKey): string {
  const digest = createHash('sha256')
    .update(`${key.sourceHash}\n${key.loaderVersion}\n${key.neo4jVersion}`)
    .digest('hex')
    .slice(0, 12);
  const name = key.graph.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60) || 'graph';
  return `${name}-${digest}`;
}

/** True while a process with this pid runs (EPERM: it runs under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid holding the lock in `dir`, when that process still runs. */
function lockHolder(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dir, LOCK), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the lock of `dir` for this process; the pid of the live holder when another has it. */
function takeLock(dir: string): number | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(join(dir, LOCK), `${process.pid}\n`, { flag: 'wx' });
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(dir);
      if (holder !== undefined) return holder;
      rmSync(join(dir, LOCK), { force: true }); // its process is gone
    }
  }
  return lockHolder(dir) ?? -1;
}

function recordMatches(dir: string, key: StoreKey): boolean {
  try {
    const record = JSON.parse(readFileSync(join(dir, COMPLETE), 'utf8')) as Partial<StoreKey>;
    return (
      record.graph === key.graph &&
      record.sourceHash === key.sourceHash &&
      record.loaderVersion === key.loaderVersion &&
      record.neo4jVersion === key.neo4jVersion
    );
  } catch {
    return false;
  }
}

/**
 * Claims the store of `key` under `root` for this process: locked, and wiped unless it holds a
 * complete load of this key. `{ ok: false }` with the reason when another live process holds it.
 */
export function claimGraphStore(root: string, key: StoreKey, log: (line: string) => void = () => {}): StoreClaim {
  const dir = join(root, storeDirName(key));
  const home = join(dir, 'home');
  mkdirSync(dir, { recursive: true });
  const holder = takeLock(dir);
  if (holder !== undefined)
    return { ok: false, reason: `the kept store ${dir} is in use by another run (pid ${holder})` };
  const complete = recordMatches(dir, key);
  if (complete) {
    const now = new Date();
    utimesSync(join(dir, COMPLETE), now, now); // last use, for pruning
  } else {
    if (existsSync(home))
      log(`Witness: kept store ${dir} holds no complete load of graph ${key.graph} (interrupted?); loading it again`);
    rmSync(home, { recursive: true, force: true });
    rmSync(join(dir, COMPLETE), { force: true });
  }
  let released = false;
  return {
    ok: true,
    store: {
      dir,
      home,
      complete,
      markLoading: () => rmSync(join(dir, COMPLETE), { force: true }),
      markComplete: () => {
        const temporary = join(dir, `${COMPLETE}.${process.pid}`);
        writeFileSync(temporary, `${JSON.stringify({ ...key, loadedAt: new Date().toISOString() }, null, 2)}\n`);
        renameSync(temporary, join(dir, COMPLETE));
      },
      release: () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(join(dir, LOCK), 'utf8').trim() === String(process.pid)) rmSync(join(dir, LOCK));
        } catch {
          // already gone
        }
      },
    },
  };
}

/** A store folder as pruning sees it. */
export interface StoreEntry {
  name: string;
  /** When it was last used (ms); 0 = never completed. */
  lastUsedMs: number;
  locked: boolean;
}

/** Which stores to delete so that at most `keep` remain: the least recently used unlocked ones. */
export function storesToPrune(entries: StoreEntry[], keep: number): string[] {
  const excess = entries.length - keep;
  if (excess <= 0) return [];
  return entries
    .filter((e) => !e.locked)
    .sort((a, b) => a.lastUsedMs - b.lastUsedMs || a.name.localeCompare(b.name))
    .slice(0, excess)
    .map((e) => e.name);
}

/** Deletes the stores under `root` beyond the `keep` most recently used (locked ones stay); returns the names deleted. */
export function pruneGraphStores(root: string, keep: number, log: (line: string) => void = () => {}): string[] {
  if (!existsSync(root)) return [];
  const entries: StoreEntry[] = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const dir = join(root, d.name);
      let lastUsedMs = 0;
      try {
        lastUsedMs = statSync(join(dir, COMPLETE)).mtimeMs;
      } catch {
        // never completed
      }
      return { name: d.name, lastUsedMs, locked: lockHolder(dir) !== undefined };
    });
  const doomed = storesToPrune(entries, keep);
  for (const name of doomed) {
    rmSync(join(root, name), { recursive: true, force: true });
    log(
      `Witness: deleted the kept graph store ${join(root, name)} (more than ${keep} kept; the least recently used go)`,
    );
  }
  return doomed;
}
