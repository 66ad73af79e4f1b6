/**
 * For test files and suites: the Neo4j of this vitest run, from the broker the global setup
 * provides (started on first request, shared, stopped at the end of the run). Without the global
 * setup, the run's configured `neo4j.uri` (NEO4J_URI; core/run-config.ts) is used directly. Never throws: failures come back with the reason, so CI
 * tests can fail with it and `npm run bench` can report the suite as not run with it.
 */
import { inject } from 'vitest';
import { runConfig } from '../../../core/run-config.ts';
import { createDriver } from '../driver.ts';
import { ensureGraph } from '../load-graph.ts';
import { readSimpleKG } from '../simplekg.ts';
import { requestFromBroker } from './broker.ts';

export type Acquired = { ok: true; uri: string; way: string; pid?: number } | { ok: false; reason: string };

/** For tests: the URI of this run's Neo4j (holding the graph at `graphFile` when given); throws with the reason when there is none. */
export async function neo4jUri(graphFile?: string): Promise<string> {
  const neo = await acquireNeo4j(graphFile);
  if (!neo.ok) throw new Error(neo.reason);
  return neo.uri;
}

/** This run's Neo4j, holding the SimpleKG graph at `graphFile` when given. */
export async function acquireNeo4j(graphFile?: string): Promise<Acquired> {
  const broker = inject('witnessNeo4jBroker');
  if (broker) {
    const reply = await requestFromBroker(broker, graphFile);
    if (reply.ok && reply.uri)
      return { ok: true, uri: reply.uri, way: reply.way ?? 'unknown', ...(reply.pid ? { pid: reply.pid } : {}) };
    return { ok: false, reason: reply.reason ?? 'the Neo4j broker gave no reason' };
  }
  const { neo4j } = runConfig().config;
  const uri = neo4j.uri;
  if (!uri) {
    return {
      ok: false,
      reason:
        'no Neo4j: this vitest configuration has no Witness global setup (oracles/cypher/server/global-setup.ts) and NEO4J_URI is not set',
    };
  }
  if (graphFile) {
    const driver = createDriver(uri, neo4j);
    try {
      await ensureGraph(driver, readSimpleKG(graphFile));
    } catch (error) {
      return { ok: false, reason: `NEO4J_URI=${uri}: ${(error as Error).message}` };
    } finally {
      await driver.close();
    }
  }
  return { ok: true, uri, way: 'uri' };
}
