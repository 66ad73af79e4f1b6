/**
 * The search's pools, by HERO's split protocol (optimizers/hero/split-protocol.ts): the search pool is the
 * optimization part (diagnosis, update and selection pools together) and the test pool the
 * held-out evaluation split, drawn by seed and disjoint (by database or graph where the suite has
 * several). `limit` keeps the first N tasks of each pool (a quick run).
 */
import type { Task } from '../../core/types.ts';
import type { HeroSplitFile } from '../hero/split-file.ts';
import type { HeroSources } from '../../core/suite-descriptor.ts';
import { buildSplitFile, poolsOf } from '../hero/split-protocol.ts';

export interface SearchPools {
  search: Task[];
  test: Task[];
  split: HeroSplitFile;
  /** Items of the data that could not be read (the run goes on without them). */
  issues: { item: string; message: string }[];
}

/** Draws the search and test pools of a suite's data (`heroSources` of the suite's configured data). */
export function searchPools(
  suite: string,
  sources: HeroSources,
  options: { seed: number; testFraction?: number; limit?: number },
): SearchPools {
  const split = buildSplitFile(suite, sources, {
    seed: options.seed,
    ...(options.testFraction === undefined ? {} : { evaluationFraction: options.testFraction }),
  });
  const pools = poolsOf(split, sources);
  const seen = new Set<string>();
  const search = [...pools.diagnosis, ...pools.update, ...pools.selection].filter(
    (t) => !seen.has(t.id) && seen.add(t.id),
  );
  const cut = (tasks: Task[]) => (options.limit === undefined ? tasks : tasks.slice(0, options.limit));
  const issues = [...sources.optimization.issues, ...(sources.evaluation?.issues ?? [])].map((i) => ({
    item: String(i.item),
    message: String((i as { message?: unknown }).message ?? ''),
  }));
  return { search: cut(search), test: cut(pools.test), split, issues };
}
