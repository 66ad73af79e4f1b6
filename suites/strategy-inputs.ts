/**
 * What a suite's refining strategies are built from: HERO-T uses the learned prompt and verified
 * examples of `witness optimize hero --suite NAME` when its report exists
 * (.witness/hero/NAME/hero-report.json), otherwise the training split's verified golds, which
 * ReAct retrieves from too; Dynamic Cheatsheet needs nothing.
 */
import { join } from 'node:path';
import { WITNESS_DIR } from '../core/paths.ts';
import { verifiedTrainExamples } from '../strategies/hero/examples.ts';
import type { Strategy } from '../core/strategy.ts';
import { harnessStrategy } from '../strategies/harness/strategy.ts';
import { buildStrategies, type StrategyInputs } from '../strategies/index.ts';
import { HARNESS_STRATEGY_PREFIX, harnessStrategyNames } from '../core/strategy-names.ts';
import type { BenchmarkSpec } from '../core/suite-descriptor.ts';

/** The inputs of the built-in refining strategies for one benchmark. */
export function strategyInputs(spec: BenchmarkSpec): StrategyInputs {
  return {
    examples: () => verifiedTrainExamples(spec.tasks.tasks, spec.oracle),
    heroReport: join(WITNESS_DIR, 'hero', spec.name, 'hero-report.json'),
  };
}

/**
 * A built-in suite's strategies: all the built-in ones, then each `harness:<path>` the run selects
 * (WITNESS_STRATEGIES, `witness bench --strategies`), named as selected, so a harness found by
 * `witness optimize meta-harness` is a row of the suite's leaderboard.
 */
export function suiteStrategies(spec: BenchmarkSpec, selected: readonly string[] | undefined): Strategy[] {
  return [
    ...buildStrategies(strategyInputs(spec)),
    ...harnessStrategyNames(selected).map((name) =>
      harnessStrategy(name.slice(HARNESS_STRATEGY_PREFIX.length), { name }),
    ),
  ];
}
