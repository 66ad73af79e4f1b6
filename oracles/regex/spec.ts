/**
 * NL-RX as a suite, with the regex oracle (ECMAScript answers, brics golds): the fixture tasks, or
 * `suites['nl-rx'].data` (WITNESS_NLRX_DATA, NLRX_TURK_DIR) — the raw 10,000 pairs (split `all`) or
 * DeepRegex's tokenized `train` / `val` / `test` split files.
 */
import type { WitnessConfig } from '../../core/config.ts';
import { packagePath } from '../../core/package-root.ts';
import { splitOf, type BenchmarkSpec, type SpecOptions } from '../../core/suite-descriptor.ts';
import { loadNlRx } from './loader.ts';
import { regexOracle } from './oracle.ts';

const PROMPT = packagePath('prompts', 'nl-rx.md');

/** The NL-RX suite of this configuration. */
export function nlRxSpec(config: WitnessConfig, options: SpecOptions = {}): BenchmarkSpec {
  const data = config.suites['nl-rx'].data ?? packagePath('fixtures', 'nl-rx');
  const split = splitOf(config, options);
  return {
    name: 'nl-rx',
    tasks: loadNlRx(data, split === undefined ? {} : { split }),
    oracle: regexOracle(),
    prompt: PROMPT,
  };
}
