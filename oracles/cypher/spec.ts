/**
 * CypherBench: the questions of a split and the graphs they use, from
 * `suites.cypherbench.data` (WITNESS_CYPHERBENCH_DATA) in the official layout, else the skyways
 * fixture; split `test` (default) or `train`. Broken questions and graphs are issues; a folder that
 * is not usable throws. Each graph runs on a Neo4j of its own; HERO-O keeps its pools disjoint by graph.
 */
import type { WitnessConfig } from '../../core/config.ts';
import { packagePath } from '../../core/package-root.ts';
import { selectTasks } from '../../core/selection.ts';
import { splitOf, type BenchmarkSpec, type SpecOptions } from '../../core/suite-descriptor.ts';
import type { LoadedTasks } from '../../core/types.ts';
import { loadCypherBenchData, withoutUnservedGraphs, type CypherBenchData, type CypherBenchGraph } from './dataset.ts';
import { createDriver, type Neo4jAuth } from './driver.ts';
import { SKYWAYS_DATA_DIR } from './fixture-paths.ts';
import { resolveCypherBenchLayout } from './layout.ts';
import { loadCypherBenchQuestions } from './loader.ts';
import { ensureGraph } from './load-graph.ts';
import { servedCypherOracle } from './routed.ts';
import type { Neo4jServer } from './server/server.ts';
import { startNeo4j } from './server/start.ts';

const PROMPT = packagePath('prompts', 'cypherbench.md');

/** The questions of the configured data and split and the graphs they use. */
export function cypherBenchData(config: WitnessConfig, options: SpecOptions = {}): CypherBenchData {
  return loadCypherBenchData(config.suites.cypherbench.data ?? SKYWAYS_DATA_DIR, splitOf(config, options));
}

/** The data, once the run's task ids (`run.tasks`) are known to be in it: an unknown id throws here, before any server starts, with the message the suite gives. */
export function checkedCypherBenchData(data: CypherBenchData, config: WitnessConfig): CypherBenchData {
  selectTasks(data.tasks, config.run, config.seed, 'cypherbench');
  return data;
}

/** A graph's server as a caller obtained it: its Bolt URI, or why there is none. */
export type GraphServer = { ok: true; uri: string } | { ok: false; reason: string };

/**
 * CypherBench on its graphs' servers: `serve` gets each graph onto a Neo4j (loaded or reused
 * by checksum). Questions of a graph that could not be served become issues with the reason;
 * when no graph could be served, the reason comes back instead of a spec.
 */
export async function servedCypherBenchSpec(
  data: CypherBenchData,
  serve: (graph: CypherBenchGraph) => Promise<GraphServer>,
  auth: Neo4jAuth = {},
): Promise<{ ok: true; spec: BenchmarkSpec } | { ok: false; reason: string }> {
  const served: { kg: CypherBenchGraph['kg']; uri: string }[] = [];
  const unserved = new Map<string, string>();
  for (const graph of data.graphs) {
    const server = await serve(graph);
    if (server.ok) served.push({ kg: graph.kg, uri: server.uri });
    else unserved.set(graph.name, server.reason);
  }
  const [firstReason] = unserved.values();
  if (served.length === 0 && firstReason !== undefined) return { ok: false, reason: firstReason };
  return {
    ok: true,
    spec: {
      name: 'cypherbench',
      tasks: withoutUnservedGraphs(data, unserved),
      oracle: servedCypherOracle(served, { auth }),
      prompt: PROMPT,
    },
  };
}

/** CypherBench outside vitest: starts a Neo4j per graph (`neo4j.uri`, Docker or the launcher), loads or reuses it, stops them on dispose. */
export async function startedCypherBenchSpec(config: WitnessConfig, options: SpecOptions = {}): Promise<BenchmarkSpec> {
  const { neo4j } = config;
  const servers: Neo4jServer[] = [];
  const stopAll = () => Promise.all(servers.map((s) => s.stop())).then(() => undefined);
  const serve = async (graph: CypherBenchGraph): Promise<GraphServer> => {
    if (servers[0]?.way === 'uri')
      return { ok: false, reason: `NEO4J_URI=${servers[0].uri} holds one graph; unset it to run several graphs` };
    const server = await startNeo4j({ neo4j });
    servers.push(server);
    const driver = createDriver(server.uri, neo4j);
    try {
      await ensureGraph(driver, graph.kg, { replace: server.way !== 'uri' });
      return { ok: true, uri: server.uri };
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    } finally {
      await driver.close();
    }
  };
  try {
    const served = await servedCypherBenchSpec(cypherBenchData(config, options), serve, neo4j);
    if (!served.ok) throw new Error(`cypherbench: ${served.reason}`);
    return { ...served.spec, dispose: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The questions alone, without Neo4j or reading the graphs: what `witness bench --dry-run` counts. */
export function cypherBenchTasks(config: WitnessConfig, options: SpecOptions = {}): LoadedTasks {
  const layout = resolveCypherBenchLayout(config.suites.cypherbench.data ?? SKYWAYS_DATA_DIR, splitOf(config, options));
  return loadCypherBenchQuestions(layout.questionsFile);
}
