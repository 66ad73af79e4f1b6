/**
 * BIRD-SQL: EX in BIRD's `set` mode so published numbers reproduce, on the fixture
 * databases or `suites.bird.data` (WITNESS_BIRD_DATA) — a BIRD folder (dev, mini-dev or train
 * layout) or its questions file; the split (`dev`, `mini-dev`, `train`) picks among those the
 * folder holds. VES times each correct query with 10 interleaved runs here (BIRD uses 100) so the
 * suite stays fast; `suites.bird.vesIterations` (WITNESS_VES_ITERATIONS) overrides it (0 turns
 * timing off). HERO-O optimizes on the TRAIN questions and evaluates on DEV when the folder has both.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { WitnessConfig } from '../../core/config.ts';
import { packagePath } from '../../core/package-root.ts';
import { splitOf, type BenchmarkSpec, type OwnHeroSplits, type SpecOptions } from '../../core/suite-descriptor.ts';
import type { LoadedTasks } from '../../core/types.ts';
import { BIRD_FIXTURES, loadBird } from './loader.ts';
import { sqlOracle } from './oracle.ts';

const PROMPT = packagePath('prompts', 'bird.md');

/** The BIRD suite of this configuration. */
export function birdSpec(config: WitnessConfig, options: SpecOptions = {}): BenchmarkSpec {
  const { data, vesIterations } = config.suites.bird;
  const split = splitOf(config, options);
  return {
    name: 'bird',
    tasks: loadBird(data ?? BIRD_FIXTURES, split === undefined ? {} : { split }),
    oracle: sqlOracle({ mode: 'set', ves: vesIterations > 0 ? { iterations: vesIterations } : false }),
    prompt: PROMPT,
  };
}

const TRAIN_DATABASES = ['train_databases', 'train_databases/train_databases'];
const DEV_QUESTIONS = ['dev.json', 'mini_dev_sqlite.json', 'mini_dev_sqlite.jsonl', 'dev.jsonl'];

/** BIRD's TRAIN part of a folder (train.json + train_databases/), or null when it has none. */
function birdTrain(dir: string): LoadedTasks | null {
  const questions = join(dir, 'train.json');
  const databases = TRAIN_DATABASES.map((d) => join(dir, d)).find((d) => existsSync(d) && statSync(d).isDirectory());
  if (!existsSync(questions)) return null;
  if (!databases)
    throw new Error(`${dir} has train.json but no train_databases/ folder (looked for ${TRAIN_DATABASES.join(', ')})`);
  return loadBird(dir, { questions, databases });
}

/** TRAIN for optimization and DEV for evaluation when the folder has both; TRAIN alone holds out whole databases. */
export function birdHeroSplits(data: string): OwnHeroSplits | null {
  if (!statSync(data).isDirectory()) return null;
  const train = birdTrain(data);
  if (!train) return null;
  const hasDev = DEV_QUESTIONS.some((f) => existsSync(join(data, f)));
  return {
    optimization: train,
    evaluation: hasDev ? loadBird(data) : null,
    optimizationSplit: 'train',
    evaluationSplit: hasDev ? 'dev' : null,
  };
}
