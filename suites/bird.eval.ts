import { fileURLToPath } from 'node:url';
import { defineBenchmark } from '../core/suite.ts';
import { BIRD_FIXTURES, loadBird } from '../oracles/sql/bird.ts';
import { sqlOracle } from '../oracles/sql/oracle.ts';
import { pickStrategies } from '../strategies/index.ts';

// BIRD-SQL on the fixture databases: every question × the six feedback strategies. EX in BIRD's
// `set` mode, so published numbers reproduce. VES times each correct query with 10 interleaved runs
// here (BIRD uses 100) so the suite stays fast; WITNESS_VES_ITERATIONS overrides it.
const iterations = Number(process.env.WITNESS_VES_ITERATIONS ?? 10);
if (!Number.isInteger(iterations) || iterations < 0) throw new Error(`WITNESS_VES_ITERATIONS must be a non-negative integer, got ${process.env.WITNESS_VES_ITERATIONS}`);

defineBenchmark({
  name: 'bird',
  tasks: loadBird(BIRD_FIXTURES),
  oracle: sqlOracle({ mode: 'set', ves: iterations > 0 ? { iterations } : false }),
  strategies: pickStrategies(),
  prompt: fileURLToPath(new URL('../prompts/bird.md', import.meta.url)),
});
