import { runConfig } from '../core/run-config.ts';
import { defineBenchmark } from '../core/suite.ts';
import { acquireNeo4j } from '../oracles/cypher/server/acquire.ts';
import { checkedCypherBenchData, cypherBenchData, servedCypherBenchSpec } from '../oracles/cypher/spec.ts';
import { suiteStrategies } from './strategy-inputs.ts';
import { declareNotRun } from './not-run.ts';

// CypherBench against a real Neo4j 5.20 (one server per graph, started for this run, or NEO4J_URI):
// every question × the six feedback strategies, HERO-T and its baselines. The data is the skyways
// fixture unless suites.cypherbench.data (WITNESS_CYPHERBENCH_DATA) names a folder in the official
// layout; only the graphs the split's questions use are loaded, and an unknown task id fails the
// file before any Neo4j starts. Without Neo4j the suite is reported as not run, with the reason.
const { config } = runConfig();
const served = await servedCypherBenchSpec(
  checkedCypherBenchData(cypherBenchData(config), config),
  (graph) => acquireNeo4j(graph.file),
  config.neo4j,
);

if (served.ok) {
  defineBenchmark({ ...served.spec, strategies: suiteStrategies(served.spec, config.run.strategies) });
} else {
  declareNotRun('cypherbench', served.reason);
}
