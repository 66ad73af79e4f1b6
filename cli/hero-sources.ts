/**
 * Where HERO-O's data comes from, per suite (the split protocol over it is
 * optimizers/hero/split-protocol.ts): the suite's own optimization and evaluation splits when its
 * configured data has them (BIRD's TRAIN and DEV: `heroSplits` of its descriptor), else a seeded
 * partition of its tasks, disjoint by the descriptor's `heroGroupedBy` (BIRD's databases,
 * CypherBench's graphs) when there are several.
 */
import type { WitnessConfig } from '../core/config.ts';
import type { HeroSources } from '../core/suite-descriptor.ts';
import { suiteNamed } from '../oracles/suites.ts';

/** The optimization and evaluation data of a suite, as configured (`suites.<name>.data`). */
export async function heroSources(name: string, config: WitnessConfig): Promise<HeroSources> {
  const suite = suiteNamed(name);
  const data = config.suites[suite.name].data ?? null;
  const own = data && suite.heroSplits ? await suite.heroSplits(data) : null;
  const groupedBy = suite.heroGroupedBy;
  if (own) return { ...own, groupedBy, data };
  const optimization = await suite.tasks(config);
  return { optimization, evaluation: null, optimizationSplit: null, evaluationSplit: null, groupedBy, data };
}
