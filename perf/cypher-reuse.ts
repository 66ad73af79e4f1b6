/**
 * How much the source marker saves when a second start finds its graph already loaded: on a
 * generated SimpleKG graph (50,000 entities, 100,000 relations) in a fresh launcher, the time of the
 * reuse decision by marker (index list + the two counts Neo4j keeps) side by side with the full
 * comparison a database without a marker needs (counts and the hash of every eid), and the whole
 * `ensureGraph` on a second start. Prints figures and their ratio; no pass/fail on time.
 *
 *   npx tsx perf/cypher-reuse.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../core/config.ts';
import { createDriver } from '../oracles/cypher/driver.ts';
import { databaseFingerprint, ensureGraph, graphProblem } from '../oracles/cypher/load-graph.ts';
import { startLauncher } from '../oracles/cypher/server/launcher.ts';
import { readSimpleKG } from '../oracles/cypher/simplekg.ts';

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

const dir = mkdtempSync(join(tmpdir(), 'witness-perf-reuse-'));
const file = join(dir, 'people_simplekg.json');
writeGraph(file);
const { java, heapMb } = loadConfig().config.neo4j;
const server = await startLauncher({
  log: (line) => console.log(line),
  ...(java ? { java } : {}),
  ...(heapMb ? { heapMb } : {}),
});
const driver = createDriver(server.uri);
try {
  let started = performance.now();
  const first = await ensureGraph(driver, readSimpleKG(file));
  console.log(
    `first start: ${first} in ${(performance.now() - started).toFixed(0)} ms (${ENTITIES} entities, ${RELATIONS} relations)`,
  );
  const kg = readSimpleKG(file);
  // Warm both paths once.
  await graphProblem(driver, kg);
  await databaseFingerprint(driver);
  const byMarker = await median(7, () => graphProblem(driver, kg));
  const byScan = await median(3, () => databaseFingerprint(driver));
  started = performance.now();
  const second = await ensureGraph(driver, readSimpleKG(file));
  const secondMs = performance.now() - started;
  console.log(`reuse decision by marker         ${byMarker.toFixed(1)} ms (median of 7)`);
  console.log(`full comparison (counts + eids)   ${byScan.toFixed(1)} ms (median of 3)`);
  console.log(`ratio                             ${(byScan / byMarker).toFixed(1)}× faster by marker`);
  console.log(`second start: ${second} in ${secondMs.toFixed(0)} ms (reading and validating the file included)`);
} finally {
  await driver.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
