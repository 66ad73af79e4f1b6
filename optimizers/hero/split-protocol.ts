/**
 * HERO's split protocol over a suite's data: diagnosis, update and selection pools drawn by seed
 * from the optimization tasks (disjoint by database or graph where the data has several groups),
 * and the evaluation split, whole or a seeded share held out; written as a split file and read
 * back as pools. Where the data comes from is the caller's (cli/hero-sources.ts).
 */
import type { HeroSources } from '../../core/suite-descriptor.ts';
import type { Task } from '../../core/types.ts';
import type { HeroPools } from '../../strategies/hero/pools.ts';
import { idsChecksum, SPLIT_FILE_SCHEMA, type HeroSplitFile } from './split-file.ts';
import { heroSplit } from './splits.ts';

const groupOf = (task: Task, key: HeroSources['groupedBy']) => {
  const value = key ? task.context?.[key] : undefined;
  return typeof value === 'string' ? { group: value } : {};
};

/** The protocol in words, as the split file records it. */
function protocolText(sources: HeroSources, file: Pick<HeroSplitFile, 'pools'>): string {
  const by = file.pools.groups ? `disjoint by ${sources.groupedBy}` : 'by task';
  const evaluation = sources.evaluation
    ? `evaluation on the ${sources.evaluationSplit} split, whole`
    : `evaluation on a seeded share held out of the same data${file.pools.groups || sources.groupedBy ? ` (whole ${sources.groupedBy} groups when there are several)` : ''}`;
  return (
    `HERO split: diagnosis / update / selection pools drawn by seed from the ${sources.optimizationSplit ?? 'suite'}'s tasks, ${by}` +
    `${file.pools.sharedSelection ? '; too few for three pools, so the update pool doubles as the selection pool' : ''}; ${evaluation}.`
  );
}

/** Draws the split of a suite's data and returns it as a split file. */
export function buildSplitFile(
  suite: string,
  sources: HeroSources,
  options: { seed: number; evaluationFraction?: number },
): HeroSplitFile {
  const items = (tasks: Task[]) => tasks.map((t) => ({ id: t.id, ...groupOf(t, sources.groupedBy) }));
  const optimization = sources.optimization.tasks;
  const pools = heroSplit(
    items(optimization),
    sources.evaluation ? items(sources.evaluation.tasks) : null,
    options.evaluationFraction === undefined
      ? { seed: options.seed }
      : { seed: options.seed, evaluationFraction: options.evaluationFraction },
  );
  const source = (split: string | null, ids: string[]) => ({ split, tasks: ids.length, checksum: idsChecksum(ids) });
  return {
    schema: SPLIT_FILE_SCHEMA,
    version: 1,
    suite,
    data: sources.data,
    seed: options.seed,
    groupedBy: pools.groups ? sources.groupedBy : null,
    protocol: protocolText(sources, { pools }),
    optimization: source(
      sources.optimizationSplit,
      optimization.map((t) => t.id),
    ),
    evaluation: source(sources.evaluationSplit, pools.evaluation),
    pools,
  };
}

/** The pools of a split file as tasks (evaluation tasks in `test`), for optimizePrompt. */
export function poolsOf(file: HeroSplitFile, sources: HeroSources): HeroPools<Task> {
  const byId = new Map(sources.optimization.tasks.map((t) => [t.id, t]));
  const evaluationById = sources.evaluation ? new Map(sources.evaluation.tasks.map((t) => [t.id, t])) : byId;
  const take = (ids: string[], from: Map<string, Task>, pool: string) =>
    ids.map((id) => {
      const task = from.get(id);
      if (!task) throw new Error(`the split file's ${pool} pool names task ${id}, which the data does not have`);
      return task;
    });
  return {
    diagnosis: take(file.pools.diagnosis, byId, 'diagnosis'),
    update: take(file.pools.update, byId, 'update'),
    selection: take(file.pools.selection, byId, 'selection'),
    test: take(file.pools.evaluation, evaluationById, 'evaluation'),
    sharedSelection: file.pools.sharedSelection,
  };
}
