/**
 * vitest global setup of the unit project (`npm test`): the tests leave the user's folders alone.
 * It lists `witness-out/` and `.witness/` of the project root (every entry's path, size and
 * modification time) before the run and fails the run when the listing differs after it, naming
 * what changed.
 *
 * What the run itself writes goes to temporary folders, set here before any test (and any child a
 * test starts with this environment) reads the configuration: the reporter's results of the suites
 * tests declare in-process (WITNESS_OUT), the run store (WITNESS_STORE), the model cache
 * (WITNESS_CACHE_PATH), all removed at the end; and the Neo4j graphs the Cypher tests keep between
 * runs (WITNESS_NEO4J_GRAPH_STORE), in a store of their own in the temporary directory.
 */
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { WITNESS_DIR } from './core/paths.ts';

/** The folders of the project root that are the user's: results and the run store, caches, kept graphs. */
export const USER_FOLDERS = ['witness-out', WITNESS_DIR];

/** Where the tests keep their Neo4j graphs between runs (see docs/cypher.md, Kept graphs). */
export const TEST_GRAPH_STORE = join(tmpdir(), 'witness-test-graphs');

/** Every entry under `folder` as path → "size mtime" (a folder: its mtime only); empty when it does not exist. */
export function listFolder(folder: string): Map<string, string> {
  const entries = new Map<string, string>();
  const walk = (dir: string, prefix: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (!stat) continue;
      const key = `${prefix}${name}`;
      entries.set(key, stat.isDirectory() ? `dir ${stat.mtimeMs}` : `${stat.size} ${stat.mtimeMs}`);
      if (stat.isDirectory()) walk(path, `${key}/`);
    }
  };
  const top = lstatSync(folder, { throwIfNoEntry: false });
  if (top) entries.set('.', top.isDirectory() ? `dir ${top.mtimeMs}` : `${top.size} ${top.mtimeMs}`);
  walk(folder, '');
  return entries;
}

/** What differs between two listings: created, removed and changed paths (at most `limit` named). */
export function listingChanges(before: Map<string, string>, after: Map<string, string>, limit = 20): string[] {
  const changes: string[] = [];
  for (const [path, state] of after)
    if (!before.has(path)) changes.push(`created ${path}`);
    else if (before.get(path) !== state) changes.push(`changed ${path}`);
  for (const path of before.keys()) if (!after.has(path)) changes.push(`removed ${path}`);
  return changes.length > limit ? [...changes.slice(0, limit), `… and ${changes.length - limit} more`] : changes;
}

/** Lists the user's folders and points the run's outputs at temporary folders; the teardown fails the run if the user's folders changed. */
export default function setup(project: TestProject): () => void {
  const root = project.vitest.config.root;
  const before = USER_FOLDERS.map((name) => listFolder(join(root, name)));
  const temp = mkdtempSync(join(tmpdir(), 'witness-unit-run-'));
  Object.assign(process.env, {
    WITNESS_OUT: join(temp, 'out'),
    WITNESS_STORE: join(temp, 'runs'),
    WITNESS_CACHE_PATH: join(temp, 'cache.sqlite'),
    WITNESS_NEO4J_GRAPH_STORE: TEST_GRAPH_STORE,
  });
  return () => {
    rmSync(temp, { recursive: true, force: true });
    const changed = USER_FOLDERS.flatMap((name, i) =>
      listingChanges(before[i] as Map<string, string>, listFolder(join(root, name))).map((c) => `${name}: ${c}`),
    );
    if (changed.length === 0) return;
    // vitest only logs an error thrown by a global teardown: the exit status is set here.
    process.exitCode = 1;
    process.stderr.write(
      `\nWitness: the tests changed the user's folders in ${root} (tests write only into temporary folders):\n  ${changed.join('\n  ')}\n`,
    );
  };
}
