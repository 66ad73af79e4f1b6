import { describe, it } from 'vitest';
import { defineBenchmark } from '../core/suite.ts';
import { SKYWAYS_GRAPH_FILE, SKYWAYS_QUESTIONS_FILE } from '../oracles/cypher/fixture-paths.ts';
import { cypherOracle } from '../oracles/cypher/oracle.ts';
import { loadCypherBenchQuestions } from '../oracles/cypher/questions.ts';
import { acquireNeo4j } from '../oracles/cypher/server/acquire.ts';
import { readSimpleKG } from '../oracles/cypher/simplekg.ts';
import { pickStrategies } from '../strategies/index.ts';

// CypherBench on the skyways fixture against a real Neo4j 5.20 (started for this run, or NEO4J_URI):
// every question × the six feedback strategies. Without Neo4j the suite is reported as not run.
const neo4j = await acquireNeo4j(SKYWAYS_GRAPH_FILE);

if (neo4j.ok) {
  defineBenchmark({
    name: 'cypherbench',
    tasks: loadCypherBenchQuestions(SKYWAYS_QUESTIONS_FILE),
    oracle: cypherOracle({ uri: neo4j.uri, graphs: [readSimpleKG(SKYWAYS_GRAPH_FILE)] }),
    strategies: pickStrategies(),
    prompt: new URL('../prompts/cypherbench.md', import.meta.url).pathname,
  });
} else {
  console.warn(`cypherbench: not run.\n${neo4j.reason}`);
  describe('cypherbench', () => {
    it.skip(`not run: ${neo4j.reason.split('\n').map((l) => l.trim()).join(' ')}`, () => {});
  });
}
