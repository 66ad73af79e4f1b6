import { fileURLToPath } from 'node:url';
import { defineBenchmark } from '../core/suite.ts';
import { loadNlRx } from '../oracles/regex/nlrx.ts';
import { regexOracle } from '../oracles/regex/oracle.ts';
import { pickStrategies } from '../strategies/index.ts';

// A-CEGIS on the NL-RX fixture tasks: every task × the six feedback strategies of the ablation grid.
defineBenchmark({
  name: 'nl-rx',
  tasks: loadNlRx(fileURLToPath(new URL('../fixtures/nl-rx', import.meta.url))),
  oracle: regexOracle(),
  strategies: pickStrategies(),
  prompt: fileURLToPath(new URL('../prompts/nl-rx.md', import.meta.url)),
});
