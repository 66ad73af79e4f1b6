/**
 * Where HERO-O's data comes from, per suite, and the split file that fixes its pools. BIRD: the
 * TRAIN questions (`train.json` + `train_databases/`) for optimization, pools disjoint by database,
 * and DEV (`dev.json` + `dev_databases/`) for evaluation when the folder has both; with one
 * questions file, whole databases are held out for evaluation. The other suites: a seeded
 * partition of their tasks (CypherBench disjoint by graph when there are several).
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { WitnessConfig } from '../core/config.ts';
import type { SuiteName } from '../core/config-sections.ts';
import type { LoadedTasks, Task } from '../core/types.ts';
import { idsChecksum, SPLIT_FILE_SCHEMA, type HeroSplitFile } from '../optimizers/hero/split-file.ts';
import { heroSplit } from '../optimizers/hero/splits.ts';
import type { HeroPools } from '../strategies/hero/pools.ts';
import { loadBird } from '../oracles/sql/loader.ts';
import { specTasks } from './registry.ts';

export interface HeroSources {
  optimization: LoadedTasks;
  /** The suite's own evaluation split, or null when a seeded share is held out. */
  evaluation: LoadedTasks | null;
  optimizationSplit: string | null;
  evaluationSplit: string | null;
  /** The task field pools are disjoint by, or null. */
  groupedBy: 'db_id' | 'graph' | null;
  data: string | null;
}

const TRAIN_DATABASES = ['train_databases', 'train_databases/train_databases'];

/** BIRD's TRAIN part of a folder (train.json + train_databases/), or null when it has none. */
function birdTrain(dir: string): LoadedTasks | null {
  const questions = join(dir, 'train.json');
  const databases = TRAIN_DATABASES.map((d) => join(dir, d)).find((d) => existsSync(d) && statSync(d).isDirectory());
  if (!existsSync(questions)) return null;
  if (!databases)
    throw new Error(`${dir} has train.json but no train_databases/ folder (looked for ${TRAIN_DATABASES.join(', ')})`);
  return loadBird(dir, { questions, databases });
}

/** The optimization and evaluation data of a suite, as configured (`suites.<name>.data`). */
export async function heroSources(suite: string, config: WitnessConfig): Promise<HeroSources> {
  const data = config.suites[suite as SuiteName]?.data ?? null;
  if (suite === 'bird' && data && statSync(data).isDirectory()) {
    const train = birdTrain(data);
    const hasDev = ['dev.json', 'mini_dev_sqlite.json', 'mini_dev_sqlite.jsonl', 'dev.jsonl'].some((f) =>
      existsSync(join(data, f)),
    );
    if (train)
      return {
        optimization: train,
        evaluation: hasDev ? loadBird(data) : null,
        optimizationSplit: 'train',
        evaluationSplit: hasDev ? 'dev' : null,
        groupedBy: 'db_id',
        data,
      };
  }
  const tasks = await specTasks(suite);
  const groupedBy = suite === 'bird' ? 'db_id' : suite === 'cypherbench' ? 'graph' : null;
  return { optimization: tasks, evaluation: null, optimizationSplit: null, evaluationSplit: null, groupedBy, data };
}

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
