/**
 * CypherBench on a generated folder in the official layout, on real Neo4j 5.20 servers shared
 * through the run's broker (one per graph): routing questions of two graphs to their servers,
 * graphs recognized by their source marker on the next start (reused, not reloaded) and reloaded
 * when the file changes, a broker on a NEO4J_URI server; then the suite through the CLI in two
 * separate `witness bench` processes without NEO4J_URI — by witness.config.json, then by
 * WITNESS_CYPHERBENCH_DATA — on graph stores kept in a temporary folder: a partial store is loaded
 * again, a kept graph is reused with no load, a changed graph file is loaded. The tests run in
 * order: the reload test puts the orchard graph back as it was; run 2 follows run 1.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Driver } from 'neo4j-driver';
import { loadConfig } from '../core/config.ts';
import type { Trajectory } from '../core/types.ts';
import { loadCypherBenchData } from '../oracles/cypher/dataset.ts';
import { createDriver } from '../oracles/cypher/driver.ts';
import { ensureGraph, LOADER_VERSION, sourceMarker, sourceMarkers } from '../oracles/cypher/load-graph.ts';
import { harborGraph, orchardGraph, writeCypherBenchFolder } from '../testing/layouts/cypher.ts';
import { acquireNeo4j, neo4jUri } from '../oracles/cypher/server/acquire.ts';
import { requestFromBroker, startBroker } from '../oracles/cypher/server/broker.ts';
import { claimGraphStore, storeDirName } from '../oracles/cypher/server/graph-store.ts';
import { startLauncher } from '../oracles/cypher/server/launcher.ts';
import { launcherNeo4jVersion } from '../oracles/cypher/server/jars.ts';
import { readSimpleKG, simpleKGSourceHash } from '../oracles/cypher/simplekg.ts';
import { readResultsFile } from '../reports/results-file.ts';
import { witnessBench } from '../testing/bench-child.ts';
import { servedCypherBenchSpec } from '../oracles/cypher/spec.ts';

const folder = writeCypherBenchFolder(mkdtempSync(join(tmpdir(), 'witness-cb-served-')));
const uris: Record<string, string> = {};
let orchardDriver: Driver;

beforeAll(async () => {
  for (const [graph, file] of Object.entries(folder.graphFiles)) {
    uris[graph] = await neo4jUri(file);
  }
  orchardDriver = createDriver(uris.orchard as string);
}, 600_000);

afterAll(async () => {
  await orchardDriver?.close();
});

const outcomes = (trajectories: Trajectory[]) =>
  Object.fromEntries(trajectories.map((t) => [`${t.taskId} · ${t.strategy}`, t.outcome.status]));

describe('CypherBench on its official layout', () => {
  it('each graph has a server of its own; every question is prepared and judged on its graph’s server', async () => {
    expect(uris.orchard).not.toBe(uris.harbor);
    const data = loadCypherBenchData(folder.dir);
    const served = await servedCypherBenchSpec(data, async (graph) => {
      const neo = await acquireNeo4j(graph.file);
      return neo.ok ? { ok: true, uri: neo.uri } : neo;
    });
    if (!served.ok) throw new Error(served.reason);
    const { oracle, tasks } = served.spec;
    try {
      expect(tasks.issues.map((i) => i.item).sort()).toEqual(['question bad-1', 'question ghost-1']);
      for (const task of tasks.tasks) {
        const prepared = await oracle.prepare(task);
        const right = await oracle.check(prepared, { source: task.gold, extraction: 'code-block' });
        expect(right.pass, task.id).toBe(true);
        // The other graph's labels are not on this server: such a query finds nothing.
        const wrong = await oracle.check(prepared, {
          source: task.id.startsWith('orchard') ? 'MATCH (s:Ship) RETURN s.name' : 'MATCH (f:Farmer) RETURN f.name',
          extraction: 'code-block',
        });
        expect(wrong.pass, task.id).toBe(false);
        expect(oracle.promptVariables(task).schema).toContain(task.id.startsWith('orchard') ? 'Farmer' : 'Ship');
      }
      await expect(oracle.prepare({ ...tasks.tasks[0]!, id: 'stray', context: { graph: 'ghost' } })).rejects.toThrow(
        'question stray: graph "ghost" is not one of the loaded graphs (orchard, harbor)',
      );
    } finally {
      await oracle.dispose?.();
    }
  }, 120_000);

  it('a second start reuses the graph by its source marker; a changed file (same counts and eids) is reloaded', async () => {
    const original = readSimpleKG(folder.graphFiles.orchard);
    const marker = `witness_source_v${LOADER_VERSION}_${simpleKGSourceHash(original)}`;
    expect(await sourceMarkers(orchardDriver)).toEqual([marker]);
    expect(await ensureGraph(orchardDriver, readSimpleKG(folder.graphFiles.orchard))).toBe('reused');

    // One property value changed: counts and eids stay, so only the source hash tells them apart.
    const changedFile = join(mkdtempSync(join(tmpdir(), 'witness-cb-changed-')), 'orchard_simplekg.json');
    const graph = orchardGraph() as { entities: { properties: Record<string, unknown> }[] };
    graph.entities[0]!.properties.born = 1962;
    writeFileSync(changedFile, JSON.stringify(graph));
    const changed = readSimpleKG(changedFile);
    await expect(ensureGraph(orchardDriver, changed)).rejects.toThrow(/never overwrites a server it did not start/);
    try {
      expect(await ensureGraph(orchardDriver, changed, { replace: true })).toBe('replaced');
      const born = await orchardDriver.executeQuery("MATCH (f:Farmer {name: 'Ada Reyes'}) RETURN f.born AS b");
      expect(born.records[0]?.get('b').toNumber()).toBe(1962);
      expect(await sourceMarkers(orchardDriver)).toEqual([
        `witness_source_v${LOADER_VERSION}_${simpleKGSourceHash(changed)}`,
      ]);
      expect(await ensureGraph(orchardDriver, changed)).toBe('reused');
    } finally {
      expect(await ensureGraph(orchardDriver, original, { replace: true })).toBe('replaced');
    }
    expect(await sourceMarkers(orchardDriver)).toEqual([marker]);
  }, 120_000);

  it('a broker on a NEO4J_URI server reuses the graph it holds and refuses a second graph with the reason', async () => {
    const lines: string[] = [];
    const broker = await startBroker({
      neo4j: () => ({ uri: uris.orchard as string }),
      log: (line) => lines.push(line),
      start: async () => ({
        uri: uris.orchard as string,
        way: 'uri',
        startupMs: 0,
        describe: `the server at NEO4J_URI=${uris.orchard}`,
        stop: async () => {},
      }),
    });
    try {
      expect(await requestFromBroker(broker.url, folder.graphFiles.orchard)).toMatchObject({
        ok: true,
        uri: uris.orchard,
      });
      expect(lines).toContain('Witness: graph orchard reused (8 entities, 5 relations)');
      const second = await requestFromBroker(broker.url, folder.graphFiles.harbor);
      expect(second.ok).toBe(false);
      expect(second.reason).toMatch(
        /already holds .*orchard_simplekg\.json: a Neo4j server holds one graph; unset NEO4J_URI so Witness starts one server per graph/,
      );
    } finally {
      await broker.close();
    }
  });
});

/** The key of a graph file's kept database. */
const keyOf = (file: string) => {
  const kg = readSimpleKG(file);
  return {
    graph: kg.schema.name,
    sourceHash: simpleKGSourceHash(kg),
    loaderVersion: LOADER_VERSION,
    neo4jVersion: launcherNeo4jVersion(),
  };
};
/** The store folder a graph file's kept database has. */
const keptStoreName = (file: string) => storeDirName(keyOf(file));

/** A pid no process has any more. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((done) => child.once('exit', done));
  return child.pid as number;
}

describe('CypherBench graphs kept across runs (two witness bench processes, no NEO4J_URI)', () => {
  const project = mkdtempSync(join(tmpdir(), 'witness-cb-kept-'));
  const data = writeCypherBenchFolder(join(project, 'data'));
  const stores = join(project, 'graphs');
  const env = { WITNESS_NEO4J: 'launcher', NEO4J_URI: '' };

  it('run 1 (witness.config.json: suites.cypherbench.data, neo4j.graphStore): a partial orchard store left by a SIGKILLed load is loaded again, harbor is loaded; the broken items are named errors', async () => {
    // A run killed (SIGKILL) in the middle of loading orchard into its kept store: the marker index
    // and some nodes committed, no complete marker, the lock of a process that is gone.
    const kg = readSimpleKG(data.graphFiles.orchard);
    const claim = claimGraphStore(stores, keyOf(data.graphFiles.orchard));
    if (!claim.ok) throw new Error(claim.reason);
    const partial = claim.store.dir;
    claim.store.markLoading();
    const { java, heapMb } = loadConfig().config.neo4j;
    const killed = await startLauncher({
      home: claim.store.home,
      ...(java ? { java } : {}),
      ...(heapMb ? { heapMb } : {}),
    });
    const driver = createDriver(killed.uri);
    try {
      await driver.executeQuery(`CREATE INDEX ${sourceMarker(simpleKGSourceHash(kg))} FOR (n:Farmer) ON (n.eid)`);
      await driver.executeQuery("UNWIND range(1, 3) AS i CREATE (:Farmer {eid: 'F' + i})");
    } finally {
      await driver.close();
    }
    process.kill(killed.pid as number, 'SIGKILL');
    await killed.stop();
    writeFileSync(join(partial, 'lock'), `${await deadPid()}\n`);
    expect(readdirSync(claim.store.home).length).toBeGreaterThan(0);
    writeFileSync(
      join(project, 'witness.config.json'),
      JSON.stringify({ suites: { cypherbench: { data: 'data' } }, neo4j: { graphStore: 'graphs' } }),
    );
    const run = await witnessBench(
      {
        ...env,
        // The config file names the graph store: not the tests' own, which this environment carries.
        WITNESS_NEO4J_GRAPH_STORE: undefined,
        WITNESS_CONFIG: join(project, 'witness.config.json'),
        WITNESS_RUN_ID: 'cb-kept-1',
      },
      ['suites/cypherbench.eval.ts', '-t', '(zero-shot)$'],
    );
    // The two broken items are invalid data (listed, out of the rates), so the run passes; the rest ran.
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stderr).toContain(
      `Witness: kept store ${partial} holds no complete load of graph orchard (interrupted?); loading it again`,
    );
    expect(run.stderr).toContain(
      `Witness: graph orchard loaded (8 entities, 5 relations) into the kept store ${partial}`,
    );
    expect(run.stderr).toMatch(
      /Witness: graph harbor loaded \(5 entities, 3 relations\) into the kept store .*harbor-/,
    );
    expect(JSON.parse(readFileSync(join(partial, 'complete.json'), 'utf8'))).toMatchObject({ graph: 'orchard' });
    expect(readdirSync(stores).sort()).toEqual(
      [keptStoreName(data.graphFiles.harbor), keptStoreName(data.graphFiles.orchard)].sort(),
    );
    for (const store of readdirSync(stores)) expect(existsSync(join(stores, store, 'lock')), store).toBe(false);

    const results = await readResultsFile(join(run.dir, 'out', 'results.json'));
    const byTask = Object.fromEntries(results.trajectories.map((t) => [t.taskId, t]));
    expect(Object.keys(byTask).sort()).toEqual([
      'harbor-1',
      'harbor-2',
      'orchard-1',
      'orchard-2',
      'orchard-3',
      'question bad-1',
      'question ghost-1',
    ]);
    for (const id of ['harbor-1', 'harbor-2', 'orchard-1', 'orchard-2', 'orchard-3'])
      expect(['harness-error', 'invalid-data'], id).not.toContain(byTask[id]?.outcome.status);
    const error = (id: string) => {
      const outcome = byTask[id]?.outcome;
      return outcome?.status === 'invalid-data' ? outcome.error : '';
    };
    expect(error('question ghost-1')).toMatch(
      /^question ghost-1: graph ghost has no SimpleKG file in .*data \(looked for graphs\/simplekg\/ghost_simplekg\.json/,
    );
    expect(error('question bad-1')).toBe('question bad-1: gold_cypher is missing or not a string');
  }, 300_000);

  it('run 2 (WITNESS_CYPHERBENCH_DATA, WITNESS_NEO4J_GRAPH_STORE): orchard is reused with no load; harbor, whose file changed, is loaded into a store of its own', async () => {
    const oldHarbor = keptStoreName(data.graphFiles.harbor);
    const harbor = harborGraph() as { entities: { properties: Record<string, unknown> }[] };
    harbor.entities[0]!.properties.tonnage = 1300; // Gull: no question asks about it
    writeFileSync(data.graphFiles.harbor, JSON.stringify(harbor));
    const newHarbor = keptStoreName(data.graphFiles.harbor);
    expect(newHarbor).not.toBe(oldHarbor);
    const run = await witnessBench(
      { ...env, WITNESS_CYPHERBENCH_DATA: data.dir, WITNESS_NEO4J_GRAPH_STORE: stores, WITNESS_RUN_ID: 'cb-kept-2' },
      ['suites/cypherbench.eval.ts', '-t', '(zero-shot)$'],
    );
    // As in run 1, the broken items are invalid data, not a failure of the run.
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const orchardStore = join(stores, keptStoreName(data.graphFiles.orchard));
    expect(run.stderr).toContain(
      `Witness: graph orchard reused (8 entities, 5 relations) from the kept store ${orchardStore}`,
    );
    expect(run.stderr).not.toMatch(/graph orchard (loaded|replaced)/);
    expect(run.stderr).toContain(
      `Witness: graph harbor loaded (5 entities, 3 relations) into the kept store ${join(stores, newHarbor)}`,
    );
    expect(readdirSync(stores).sort()).toEqual([keptStoreName(data.graphFiles.orchard), newHarbor, oldHarbor].sort());
    const results = await readResultsFile(join(run.dir, 'out', 'results.json'));
    for (const t of results.trajectories.filter((t) => !t.taskId.startsWith('question')))
      expect(t.outcome.status, t.taskId).toMatch(/^(solved|unsolved)$/);
  }, 300_000);
});
