/** The SQL oracle on the BIRD fixtures, through the shared oracle conformance suite. */
import { describeOracleConformance } from '../../testing/oracle-conformance.ts';
import { BIRD_FIXTURES, loadBird } from './loader.ts';
import { DEFAULT_QUERY_LIMITS } from './limits.ts';
import { sqlOracle } from './oracle.ts';

/** Golds whose results (a rounded sum, a percentage, an average) appear nowhere in the schema or sample rows. */
const TASK_IDS = ['12', '13', '34'];

describeOracleConformance('sql', async () => {
  const { tasks } = loadBird(BIRD_FIXTURES);
  return {
    oracle: sqlOracle({ ves: { iterations: 2 }, perturbedCopies: 2, timeoutMs: 10_000 }),
    tasks: tasks.filter((t) => TASK_IDS.includes(t.id)),
    hostile: {
      huge: `SELECT 1 -- ${'x'.repeat(DEFAULT_QUERY_LIMITS.maxSqlBytes)}`,
      broken: 'SELEC name FROM stores WHERE',
    },
    wrongCandidate: () => "SELECT 'nothing here' AS answer",
    goldOnlyMarkers: (prepared) =>
      (prepared.cases[0]?.gold.rows ?? [])
        .flat()
        .map(String)
        .filter((cell) => cell.length >= 4),
    maxProbes: 8,
    hostileMs: 10_000,
  };
});
