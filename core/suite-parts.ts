/**
 * One benchmark file, run by several vitest workers at once: vitest runs a file in one worker
 * process, so a suite of 10,000 tasks would use one core. The bench project is declared once per
 * part (vitest.config.ts: `bench`, `bench-2`, … one per core, at most 4), each worker told its
 * part by WITNESS_SUITE_PART, and the number of parts the run selected is provided by the global
 * setup (core/suite-parts-setup.ts), so `--project bench` alone runs everything in one part. Each
 * part runs every n-th task of the concurrent strategies; a sequential strategy (a memory carried
 * from task to task) and the dataset's unreadable items stay whole in part 1. The run id, the
 * store, resume, `--shard` and the reporter are those of any run: the parts are only more workers.
 */

/** The name of the bench project's part `index` (1-based); part 1 is `bench`. */
export const benchPartName = (index: number): string => (index === 1 ? 'bench' : `bench-${index}`);

/** Whether a vitest project is one of the bench parts. */
export const isBenchPart = (projectName: string): boolean => /^bench(?:-\d+)?$/.test(projectName);

export interface SuitePart {
  /** 1-based. */
  index: number;
  count: number;
}

/** The part of `count` whose index WITNESS_SUITE_PART names; the whole suite when it names none of them. */
export function partOf(indexVariable: string | undefined, count: number): SuitePart {
  const index = Number(indexVariable ?? 1);
  return Number.isInteger(index) && index >= 1 && index <= count ? { index, count } : { index: 1, count: 1 };
}

/** The items one part runs: every `count`-th from its index (whole, in part 1, for a sequential strategy). */
export function itemsOfPart<T>(items: readonly T[], part: SuitePart, sequential = false): T[] {
  if (part.count === 1 || sequential) return part.index === 1 ? [...items] : [];
  return items.filter((_, i) => i % part.count === part.index - 1);
}
