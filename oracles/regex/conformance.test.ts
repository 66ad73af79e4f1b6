/** The regex oracle on NL-RX fixtures, through the shared oracle conformance suite. */
import { fileURLToPath } from 'node:url';
import { describeOracleConformance } from '../../testing/oracle-conformance.ts';
import { MAX_ANSWER_LENGTH } from './candidate.ts';
import { loadNlRx } from './loader.ts';
import { regexOracle } from './oracle.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/nl-rx', import.meta.url));
/** Intersection, two literals in order, intersection with a complement: golds with room for probes. */
const TASK_IDS = ['8', '12', '17'];

describeOracleConformance('regex', async () => {
  const { tasks } = loadNlRx(FIXTURES);
  return {
    oracle: regexOracle(),
    tasks: tasks.filter((t) => TASK_IDS.includes(t.id)),
    hostile: { huge: 'a'.repeat(MAX_ANSWER_LENGTH + 1), broken: 'dog(.*' },
    wrongCandidate: () => 'qqqq',
    // The hidden tests' inputs (the longer ones: short strings may also be description words or generic probes).
    goldOnlyMarkers: (prepared) => prepared.cases.map((c) => c.input).filter((input) => input.length >= 6),
    maxProbes: 64,
    hostileMs: 5_000,
  };
});
