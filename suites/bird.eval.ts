import { fileURLToPath } from 'node:url';
import type { Oracle, PreparedTask } from '../core/oracle.ts';
import { defineBenchmark } from '../core/suite.ts';
import { BIRD_FIXTURES, loadBird } from '../oracles/sql/bird.ts';
import { sqlOracle } from '../oracles/sql/oracle.ts';
import { verifiedTrainExamples } from '../strategies/hero/examples.ts';
import { dynamicCheatsheet, heroT, reactRefiner } from '../strategies/hero/index.ts';
import { pickStrategies } from '../strategies/index.ts';

// BIRD-SQL on the fixture databases: every question × the six feedback strategies, plus HERO-T and
// its baselines (ReAct-style refinement, Dynamic Cheatsheet), which see the database through the
// oracle's observer. EX in BIRD's `set` mode, so published numbers reproduce. VES times each correct
// query with 10 interleaved runs here (BIRD uses 100) so the suite stays fast;
// WITNESS_VES_ITERATIONS overrides it (0 turns timing off).
const iterations = Number(process.env.WITNESS_VES_ITERATIONS ?? 10);
if (!Number.isInteger(iterations) || iterations < 0) throw new Error(`WITNESS_VES_ITERATIONS must be a non-negative integer, got ${process.env.WITNESS_VES_ITERATIONS}`);

const tasks = loadBird(BIRD_FIXTURES);
const oracle = sqlOracle({ mode: 'set', ves: iterations > 0 ? { iterations } : false });
const examples = () => verifiedTrainExamples(tasks.tasks, oracle as unknown as Oracle<PreparedTask>);
defineBenchmark({
  name: 'bird',
  tasks,
  oracle,
  strategies: [...pickStrategies(), heroT({ report: '.witness/hero/bird/hero-report.json', examples }), reactRefiner({ examples }), dynamicCheatsheet()],
  prompt: fileURLToPath(new URL('../prompts/bird.md', import.meta.url)),
});
