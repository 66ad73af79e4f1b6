/**
 * HERO-O's pools, drawn by seed from a benchmark's tasks: a train/test split first (the test part
 * is what HERO-T and the final evaluation run on), then three disjoint pools from the train part —
 * diagnosis (evidence for proposing updates), update (deciding acceptance), selection (choosing the
 * final prompt). When the train part is too small for three pools of `minPoolSize`, the update pool
 * doubles as the selection pool and `sharedSelection` says so (the report repeats it).
 */
import { Rng } from '../../core/random.ts';

export interface PoolOptions {
  seed: number;
  /** Share of the tasks used for optimization (default 0.5); the rest is the test split. */
  trainFraction?: number;
  /** Smallest pool worth having (default 4). */
  minPoolSize?: number;
}

export interface HeroPools<T> {
  diagnosis: T[];
  update: T[];
  selection: T[];
  test: T[];
  /** True when the train part was too small for three pools and update doubles as selection. */
  sharedSelection: boolean;
}

export function drawPools<T extends { id: string }>(tasks: readonly T[], options: PoolOptions): HeroPools<T> {
  const ids = new Set<string>();
  for (const t of tasks) {
    if (ids.has(t.id)) throw new Error(`HERO pools: task id "${t.id}" appears twice`);
    ids.add(t.id);
  }
  const fraction = options.trainFraction ?? 0.5;
  if (!(fraction > 0 && fraction < 1))
    throw new Error(`HERO pools: trainFraction must be between 0 and 1, got ${fraction}`);
  const minPool = options.minPoolSize ?? 4;
  // Sort by id first so the draw depends only on the seed and the task set, not on input order.
  const ordered = [...tasks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const shuffled = new Rng(options.seed).shuffle(ordered);
  const trainSize = Math.max(2, Math.round(shuffled.length * fraction));
  if (shuffled.length < 3) throw new Error(`HERO pools: need at least 3 tasks, got ${shuffled.length}`);
  const train = shuffled.slice(0, trainSize);
  const test = shuffled.slice(trainSize);
  if (train.length >= 3 * minPool) {
    const third = Math.floor(train.length / 3);
    return {
      diagnosis: train.slice(0, third),
      update: train.slice(third, 2 * third),
      selection: train.slice(2 * third),
      test,
      sharedSelection: false,
    };
  }
  const half = Math.ceil(train.length / 2);
  const update = train.slice(half);
  return { diagnosis: train.slice(0, half), update, selection: update, test, sharedSelection: true };
}
