import { fileURLToPath } from 'node:url';
import { defineBenchmark } from '../core/suite.ts';
import { loadBigCodeBench } from '../oracles/python/bigcodebench/loader.ts';
import { bigCodeBenchOracle } from '../oracles/python/bigcodebench/oracle.ts';
import { pickStrategies } from '../strategies/index.ts';

// BigCodeBench-style tasks written for Witness (standard library, numpy, pandas) × the six feedback
// strategies; each test method of TestCases is one case. The original's per-task limit is
// max(240 s, reference time) + 1 s; the fixtures' suites run in well under a second, so 20 s keeps a
// looping mutant from stalling the run (another data file gets the original's 240 s).
defineBenchmark({
  name: 'bigcodebench',
  // WITNESS_BIGCODEBENCH_DATA points the suite at another file in the official format (e.g. the real dataset).
  tasks: loadBigCodeBench(process.env.WITNESS_BIGCODEBENCH_DATA ?? fileURLToPath(new URL('../fixtures/bigcodebench/bigcodebench.jsonl', import.meta.url))),
  oracle: bigCodeBenchOracle(process.env.WITNESS_BIGCODEBENCH_DATA ? {} : { timeLimitS: 20 }),
  strategies: pickStrategies(),
  prompt: fileURLToPath(new URL('../prompts/bigcodebench.md', import.meta.url)),
});
