import { fileURLToPath } from 'node:url';
import { defineBenchmark } from '../core/suite.ts';
import { loadDsCodeBench } from '../oracles/python/dscodebench/loader.ts';
import { dsCodeBenchOracle } from '../oracles/python/dscodebench/oracle.ts';
import { pickStrategies } from '../strategies/index.ts';

// DSCodeBench-style tasks written for Witness (standard library, numpy, pandas) × the six feedback
// strategies. Each check runs candidate and reference on the same 200 inputs of seed 42 in the
// Python sandbox. The original allows a candidate 200 s for its 200 calls; the fixtures need well
// under a second, so 20 s keeps a looping mutant from stalling the run (another data file gets the
// original's 200 s).
defineBenchmark({
  name: 'dscodebench',
  // WITNESS_DSCODEBENCH_DATA points the suite at another file in the official format (e.g. the real dataset).
  tasks: loadDsCodeBench(process.env.WITNESS_DSCODEBENCH_DATA ?? fileURLToPath(new URL('../fixtures/dscodebench/dscodebench.jsonl', import.meta.url))),
  oracle: dsCodeBenchOracle(process.env.WITNESS_DSCODEBENCH_DATA ? {} : { candidateDeadlineMs: 20_000 }),
  strategies: pickStrategies(),
  prompt: fileURLToPath(new URL('../prompts/dscodebench.md', import.meta.url)),
});
