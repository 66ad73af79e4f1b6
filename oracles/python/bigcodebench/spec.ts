/**
 * BigCodeBench-style tasks: each TestCases method is one case. `suites.bigcodebench.data`
 * (WITNESS_BIGCODEBENCH_DATA) is a file in the official format or a folder holding the subset's
 * file (`subset`: full or hard), then with the original's max(240 s or `timeoutPerTaskS`,
 * reference) + 1 s limit; the fixtures get 20 s. The split (`instruct` or `complete`) is the
 * option's, else `run.split`, else `suites.bigcodebench.split`, else `instruct`.
 */
import type { WitnessConfig } from '../../../core/config.ts';
import { configuredSandbox } from '../sandbox/select.ts';
import { packagePath } from '../../../core/package-root.ts';
import { splitOf, type BenchmarkSpec, type SpecOptions } from '../../../core/suite-descriptor.ts';
import { bigCodeBenchFile, bigCodeBenchSplit, loadBigCodeBench } from './loader.ts';
import { bigCodeBenchOracle } from './oracle.ts';

const PROMPT = packagePath('prompts', 'bigcodebench.md');

/** The BigCodeBench suite of this configuration. */
export function bigCodeBenchSpec(config: WitnessConfig, options: SpecOptions = {}): BenchmarkSpec {
  const { data, timeoutPerTaskS, subset } = config.suites.bigcodebench;
  const split = bigCodeBenchSplit(splitOf(config, options) ?? config.suites.bigcodebench.split ?? 'instruct');
  if (!data && subset !== 'full')
    throw new Error(
      `bigcodebench: the ${subset} subset needs its data (suites.bigcodebench.data or WITNESS_BIGCODEBENCH_DATA); the fixtures are one set`,
    );
  const sandbox = { sandbox: configuredSandbox(config.python) };
  const file = data ? bigCodeBenchFile(data, subset) : packagePath('fixtures', 'bigcodebench', 'bigcodebench.jsonl');
  return {
    name: 'bigcodebench',
    tasks: loadBigCodeBench(file, 'bigcodebench', split),
    oracle: bigCodeBenchOracle({ ...sandbox, timeLimitS: data ? timeoutPerTaskS : 20 }),
    prompt: PROMPT,
  };
}
