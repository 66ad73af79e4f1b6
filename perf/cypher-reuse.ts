/**
 * How much keeping a graph saves, on a generated SimpleKG graph (50,000 entities, 100,000
 * relations) with the Java launcher:
 * - a first and a second `witness bench`-like start, each in a new process on the same kept graph
 *   store (`.witness/neo4j/`-style folder, here a temporary one): Neo4j ready, then the graph loaded
 *   (first) or recognized (second), side by side with their ratio;
 * - in this process, on that kept store: the reuse decision by source marker (index list + the two
 *   counts Neo4j keeps) next to the full comparison a database without a marker needs (counts and
 *   the hash of every eid).
 * Prints figures and ratios; no pass/fail on time.
 *
 *   npx tsx perf/cypher-reuse.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../core/config.ts';
import { createDriver } from '../oracles/cypher/driver.ts';
import { databaseFingerprint, ensureGraph, graphProblem, LOADER_VERSION } from '../oracles/cypher/load-graph.ts';
import { claimGraphStore, type KeptStore } from '../oracles/cypher/server/graph-store.ts';
import { launcherNeo4jVersion } from '../oracles/cypher/server/jars.ts';
import { startLauncher } from '../oracles/cypher/server/launcher.ts';
import { readSimpleKG, simpleKGSourceHash } from '../oracles/cypher/simplekg.ts';

const ENTITIES = 50_000;
const RELATIONS = 100_000;

/** A graph of people who know each other, written as a SimpleKG file. */
function writeGraph(file: string): void {
  const entities = Array.from({ length: ENTITIES }, (_, i) => ({
    eid: `P${i}`,
    label: 'Person',
    name: `person ${i}`,
    aliases: [],
    description: null,
    properties: { born: 1900 + (i % 120) },
    provenance: [],
  }));
  const relations = Array.from({ length: RELATIONS }, (_, i) => ({
    rid: `k${i}`,
    label: 'knows',
    subj_id: `P${i % ENTITIES}`,
    obj_id: `P${(i * 7919 + 1) % ENTITIES}`,
    properties: {},
    provenance: [],
  }));
  const schema = {
    name: 'people',
    entities: [{ label: 'Person', properties: { born: 'int' } }],
    relations: [{ label: 'knows', subj_label: 'Person', obj_label: 'Person', properties: {} }],
  };
  writeFileSync(file, JSON.stringify({ schema, entities, relations }));
}

async function median(runs: number, run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)] as number;
}

/** Claims the kept store of the graph in `file` under `root`. */
function claim(root: string, file: string): KeptStore {
  const kg = readSimpleKG(file);
  const key = {
    graph: kg.schema.name,
    sourceHash: simpleKGSourceHash(kg),
    loaderVersion: LOADER_VERSION,
    neo4jVersion: launcherNeo4jVersion(),
  };
  const claimed = claimGraphStore(root, key);
  if (!claimed.ok) throw new Error(claimed.reason);
  return claimed.store;
}

const { java, heapMb } = loadConfig().config.neo4j;
const launcherSettings = { ...(java ? { java } : {}), ...(heapMb ? { heapMb } : {}) };

interface StartFigures {
  outcome: string;
  readyMs: number;
  graphMs: number;
}

/** One start as a run does it (child process): Neo4j on the kept store, then the graph ensured. */
async function startOnce(root: string, file: string): Promise<StartFigures> {
  const started = performance.now();
  const store = claim(root, file);
  const server = await startLauncher({ ...launcherSettings, home: store.home });
  const readyMs = performance.now() - started;
  const driver = createDriver(server.uri);
  try {
    const outcome = await ensureGraph(driver, readSimpleKG(file), { replace: true, beforeLoad: store.markLoading });
    store.markComplete();
    return { outcome, readyMs, graphMs: performance.now() - started - readyMs };
  } finally {
    await driver.close();
    await server.stop();
    store.release();
  }
}

/** Runs startOnce in a new process, as a second `witness bench` would. */
function startInNewProcess(root: string, file: string): StartFigures {
  const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--start', root, file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = run.stdout.trim().split('\n').pop() ?? '';
  if (run.status !== 0 || !line.startsWith('{')) throw new Error(`the start process failed (exit ${run.status})`);
  return JSON.parse(line) as StartFigures;
}

if (process.argv[2] === '--start') {
  console.log(JSON.stringify(await startOnce(process.argv[3] as string, process.argv[4] as string)));
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'witness-perf-reuse-'));
const file = join(dir, 'people_simplekg.json');
const root = join(dir, 'graphs');
writeGraph(file);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
try {
  const first = startInNewProcess(root, file);
  const second = startInNewProcess(root, file);
  console.log(`graph: ${ENTITIES} entities, ${RELATIONS} relations; each start in a new process on one kept store`);
  for (const [name, f] of [
    ['first run ', first],
    ['second run', second],
  ] as const)
    console.log(
      `${name}: Neo4j ready ${seconds(f.readyMs)}, graph ${f.outcome} ${seconds(f.graphMs)}, total ${seconds(f.readyMs + f.graphMs)}`,
    );
  console.log(
    `graph step ${(first.graphMs / second.graphMs).toFixed(0)}× faster, whole start ${((first.readyMs + first.graphMs) / (second.readyMs + second.graphMs)).toFixed(1)}× faster on the second run`,
  );

  const store = claim(root, file);
  const server = await startLauncher({ log: (line) => console.log(line), ...launcherSettings, home: store.home });
  const driver = createDriver(server.uri);
  try {
    const kg = readSimpleKG(file);
    // Warm both paths once.
    await graphProblem(driver, kg);
    await databaseFingerprint(driver);
    const byMarker = await median(7, () => graphProblem(driver, kg));
    const byScan = await median(3, () => databaseFingerprint(driver));
    console.log(`reuse decision by marker         ${byMarker.toFixed(1)} ms (median of 7)`);
    console.log(`full comparison (counts + eids)   ${byScan.toFixed(1)} ms (median of 3)`);
    console.log(`ratio                             ${(byScan / byMarker).toFixed(1)}× faster by marker`);
  } finally {
    await driver.close();
    await server.stop();
    store.release();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
