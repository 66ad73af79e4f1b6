/**
 * DSCodeBench-style tasks (standard library, numpy, pandas): candidate and reference on
 * the same 200 inputs of seed 42 in the Python sandbox. `suites.dscodebench.data`
 * (WITNESS_DSCODEBENCH_DATA) points at another file in the official format (`DSCodeBench.json`,
 * JSON Lines; then with the original's 200 s limit; the fixtures need well under a second, so 20 s
 * keeps a looping mutant from stalling the run).
 */
import type { WitnessConfig } from '../../../core/config.ts';
import { configuredSandbox } from '../sandbox/select.ts';
import { packagePath } from '../../../core/package-root.ts';
import { splitOf, type BenchmarkSpec, type SpecOptions } from '../../../core/suite-descriptor.ts';
import { loadDsCodeBench } from './loader.ts';
import { dsCodeBenchOracle } from './oracle.ts';

const PROMPT = packagePath('prompts', 'dscodebench.md');

/** DSCodeBench has one set of problems; `test` names it, so a run-wide `--split test` fits it too. */
const DSCODEBENCH_SPLITS = ['test'];

/** The DSCodeBench suite of this configuration. */
export function dsCodeBenchSpec(config: WitnessConfig, options: SpecOptions = {}): BenchmarkSpec {
  const split = splitOf(config, options);
  if (split !== undefined && !DSCODEBENCH_SPLITS.includes(split))
    throw new Error(`dscodebench: unknown split ${JSON.stringify(split)} (known: ${DSCODEBENCH_SPLITS.join(', ')})`);
  const data = config.suites.dscodebench.data;
  const sandbox = { sandbox: configuredSandbox(config.python) };
  return {
    name: 'dscodebench',
    tasks: loadDsCodeBench(data ?? packagePath('fixtures', 'dscodebench', 'dscodebench.jsonl')),
    oracle: dsCodeBenchOracle(data ? sandbox : { ...sandbox, candidateDeadlineMs: 20_000 }),
    prompt: PROMPT,
  };
}
