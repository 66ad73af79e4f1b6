/**
 * `npx tsx oracles/cypher/server/serve.ts [graph.json]`: starts Neo4j 5.20 the way the tests do
 * (NEO4J_URI, else Docker, else the Java launcher), loads a SimpleKG graph when given, prints
 * `READY <bolt uri> <jvm pid or ->`, and serves until stdin closes or SIGINT/SIGTERM arrives.
 * Handy for exploring a fixture graph with cypher-shell or the driver.
 */
import { createDriver } from '../driver.ts';
import { ensureGraph } from '../load-graph.ts';
import { readSimpleKG } from '../simplekg.ts';
import { startNeo4j } from './start.ts';

const server = await startNeo4j();
const graph = process.argv[2];
if (graph) {
  const driver = createDriver(server.uri);
  try {
    const outcome = await ensureGraph(driver, readSimpleKG(graph), { replace: server.way !== 'uri' });
    process.stderr.write(`graph ${graph}: ${outcome}\n`);
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
