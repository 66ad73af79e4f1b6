/**
 * `npx tsx oracles/cypher/server/serve.ts [graph.json]`: starts Neo4j 5.20 the way the tests do
 * (NEO4J_URI, else Docker, else the Java launcher; a graph on its kept store when graphs are kept),
 * loads a SimpleKG graph when given, prints
 * `READY <bolt uri> <jvm pid or ->`, and serves until stdin closes or SIGINT/SIGTERM arrives.
 * Handy for exploring a fixture graph with cypher-shell or the driver.
 */
import { loadConfig } from '../../../core/config.ts';
import { createDriver } from '../driver.ts';
import { ensureGraph } from '../load-graph.ts';
import { readSimpleKG } from '../simplekg.ts';
import { startForGraph } from './kept-start.ts';
import { startNeo4j } from './start.ts';

const graph = process.argv[2];
const log = (line: string) => process.stderr.write(`${line}\n`);
const kg = graph ? readSimpleKG(graph) : undefined;
const { neo4j } = loadConfig().config;
const { server, store } = kg
  ? await startForGraph(startNeo4j, { neo4j, log }, kg)
  : { server: await startNeo4j({ neo4j }), store: undefined };
if (kg) {
  const driver = createDriver(server.uri, neo4j);
  try {
    const outcome = await ensureGraph(driver, kg, {
      replace: server.way !== 'uri',
      ...(store ? { beforeLoad: store.markLoading } : {}),
    });
    store?.markComplete();
    log(`graph ${graph}: ${outcome}${store ? ` (kept store ${store.dir})` : ''}`);
  } finally {
    await driver.close();
  }
}
process.stdout.write(`READY ${server.uri} ${server.pid ?? '-'}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.stop();
  process.stdout.write('STOPPED\n');
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
