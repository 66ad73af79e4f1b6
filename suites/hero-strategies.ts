/**
 * HERO-T and its baselines for a suite: HERO-T uses the learned prompt and verified examples of
 * `witness optimize hero --suite NAME` when its report exists (.witness/hero/NAME/hero-report.json),
 * otherwise the training split's verified golds; ReAct and Dynamic Cheatsheet share the budgets.
 */
import { join } from 'node:path';
import { WITNESS_DIR } from '../core/paths.ts';
import type { Strategy } from '../core/strategy.ts';
import { verifiedTrainExamples } from '../strategies/hero/examples.ts';
import { dynamicCheatsheet, heroT, reactRefiner } from '../strategies/hero/index.ts';
import type { BenchmarkSpec } from './registry.ts';

export function heroStrategies(spec: BenchmarkSpec): Strategy[] {
  const examples = () => verifiedTrainExamples(spec.tasks.tasks, spec.oracle);
  return [heroT({ report: join(WITNESS_DIR, 'hero', spec.name, 'hero-report.json'), examples }), reactRefiner({ examples }), dynamicCheatsheet()];
}
