/** Where the shipped CypherBench fixture lives (fixtures/cypherbench). */
import { packagePath } from '../../core/package-root.ts';

/** The skyways graph in SimpleKG format. */
export const SKYWAYS_GRAPH_FILE = packagePath('fixtures', 'cypherbench', 'graphs', 'skyways_simplekg.json');
/** The skyways questions in CypherBench's item format. */
export const SKYWAYS_QUESTIONS_FILE = packagePath('fixtures', 'cypherbench', 'test.json');
/** The fixture as a CypherBench data folder (test.json + graphs/), the suite's default data. */
export const SKYWAYS_DATA_DIR = packagePath('fixtures', 'cypherbench');
