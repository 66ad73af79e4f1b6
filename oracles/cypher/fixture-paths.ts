/** Where the shipped CypherBench fixture lives (fixtures/cypherbench). */
import { fileURLToPath } from 'node:url';

/** The skyways graph in SimpleKG format. */
export const SKYWAYS_GRAPH_FILE = fileURLToPath(
  new URL('../../fixtures/cypherbench/graphs/skyways_simplekg.json', import.meta.url),
);
/** The skyways questions in CypherBench's item format. */
export const SKYWAYS_QUESTIONS_FILE = fileURLToPath(new URL('../../fixtures/cypherbench/test.json', import.meta.url));
/** The fixture as a CypherBench data folder (test.json + graphs/), the suite's default data. */
export const SKYWAYS_DATA_DIR = fileURLToPath(new URL('../../fixtures/cypherbench', import.meta.url));
