/**
 * Where HERO-O's data comes from, per suite (the split protocol over it is
 * optimizers/hero/split-protocol.ts). BIRD: the
 * TRAIN questions (`train.json` + `train_databases/`) for optimization, pools disjoint by database,
 * and DEV (`dev.json` + `dev_databases/`) for evaluation when the folder has both; with one
 * questions file, whole databases are held out for evaluation. The other suites: a seeded
 * partition of their tasks (CypherBench disjoint by graph when there are several).
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { WitnessConfig } from '../core/config.ts';
import type { SuiteName } from '../core/config-sections.ts';
import type { LoadedTasks } from '../core/types.ts';
import type { HeroSources } from '../optimizers/hero/split-protocol.ts';
import { loadBird } from '../oracles/sql/loader.ts';
import { specTasks } from './registry.ts';

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
