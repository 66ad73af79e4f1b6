import { defineBenchmark } from '../core/suite.ts';
import { SKYWAYS_GRAPH_FILE } from '../oracles/cypher/fixture-paths.ts';
import { acquireNeo4j } from '../oracles/cypher/server/acquire.ts';
import { buildStrategies } from '../strategies/index.ts';
import { strategyInputs } from './strategy-inputs.ts';
import { declareNotRun } from './not-run.ts';
import { cypherBenchSpec } from './registry.ts';

// CypherBench on the skyways fixture against a real Neo4j 5.20 (started for this run, or NEO4J_URI):
// every question × the six feedback strategies, HERO-T and its baselines. Without Neo4j the suite
// is reported as not run, with the reason.
const neo4j = await acquireNeo4j(SKYWAYS_GRAPH_FILE);

if (neo4j.ok) {
  const spec = cypherBenchSpec(neo4j.uri);
  defineBenchmark({ ...spec, strategies: buildStrategies(strategyInputs(spec)) });
} else {
  declareNotRun('cypherbench', neo4j.reason);
}
