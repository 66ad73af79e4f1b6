/**
 * What a suite's refining strategies are built from: HERO-T uses the learned prompt and verified
 * examples of `witness optimize hero --suite NAME` when its report exists
 * (.witness/hero/NAME/hero-report.json), otherwise the training split's verified golds, which
 * ReAct retrieves from too; Dynamic Cheatsheet needs nothing.
 */
import { join } from 'node:path';
import { WITNESS_DIR } from '../core/paths.ts';
import { verifiedTrainExamples } from '../strategies/hero/examples.ts';
import type { StrategyInputs } from '../strategies/index.ts';
import type { BenchmarkSpec } from './registry.ts';

/** The inputs of the built-in refining strategies for one benchmark. */
export function strategyInputs(spec: BenchmarkSpec): StrategyInputs {
  return {
    examples: () => verifiedTrainExamples(spec.tasks.tasks, spec.oracle),
    heroReport: join(WITNESS_DIR, 'hero', spec.name, 'hero-report.json'),
  };
}
