/** The Cypher oracle on the skyways fixture in this run's Neo4j, through the shared oracle conformance suite. */
import { describeOracleConformance } from '../../testing/oracle-conformance.ts';
import { SKYWAYS_GRAPH_FILE, SKYWAYS_QUESTIONS_FILE } from './fixture-paths.ts';
import { cypherOracle } from './oracle.ts';
import { loadCypherBenchQuestions } from './loader.ts';
import { neo4jUri } from './server/acquire.ts';
import { readSimpleKG } from './simplekg.ts';

/** An average, an earliest date, a sum of deaths: computed results the schema's sample values do not show. */
const TASK_IDS = ['skyways-019', 'skyways-022', 'skyways-018'];

describeOracleConformance(
  'cypher',
  async () => {
    const oracle = cypherOracle({
      uri: await neo4jUri(SKYWAYS_GRAPH_FILE),
      graphs: [readSimpleKG(SKYWAYS_GRAPH_FILE)],
      timeoutMs: 5_000,
    });
    const maxQueryBytes = Number(oracle.settings().maxQueryBytes);
    return {
      oracle,
      tasks: loadCypherBenchQuestions(SKYWAYS_QUESTIONS_FILE).tasks.filter((t) => TASK_IDS.includes(t.id)),
      hostile: { huge: `RETURN 1 // ${'x'.repeat(maxQueryBytes)}`, broken: 'MATCH (n:Airline RETURN n.name' },
      wrongCandidate: () => "RETURN 'nothing here' AS answer",
      goldOnlyMarkers: (prepared) =>
        prepared.goldResult.rows
          .flat()
          .map(String)
          .filter((cell) => cell.length >= 3),
      maxProbes: 4,
      hostileMs: 10_000,
    };
  },
  { setupTimeoutMs: 600_000 },
);
