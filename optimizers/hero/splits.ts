/**
 * HERO's split protocol as a pure policy: fixed, seeded, disjoint diagnosis / update / selection
 * pools from the optimization data, and a held-out evaluation split. When the data has its own
 * evaluation split (BIRD's DEV, a `test` file) it is used whole; otherwise a seeded share of the
 * tasks is held out. With a group per task (BIRD: the database), whole groups are dealt out, so no
 * database is in two pools or in a pool and the evaluation split.
 *
 * Sizes: by task, the optimization part is cut into ⌊n/3⌋, ⌊n/3⌋ and the rest; by group, each group
 * (in seeded order) goes to the pool with the fewest tasks so far, so pool sizes differ by at most
 * the largest group. With fewer than 3 × `minPoolSize` optimization tasks (or only 2 groups) the
 * update pool doubles as the selection pool (`sharedSelection`).
 */
import { deriveSeed, Rng } from '../../core/random.ts';

export interface SplitItem {
  id: string;
  /** What must not be shared between pools (BIRD: the database); leave out to split by task. */
  group?: string;
}

export interface SplitOptions {
  seed: number;
  /** Share of the tasks held out for evaluation when there is no evaluation split (default 0.5). */
  evaluationFraction?: number;
  /** Smallest pool worth having (default 4). */
  minPoolSize?: number;
}

export interface HeroSplit {
  diagnosis: string[];
  update: string[];
  selection: string[];
  evaluation: string[];
  /** True when the optimization part was too small for three pools and update doubles as selection. */
  sharedSelection: boolean;
  /** The groups of each pool when the split is by group; null when it is by task. */
  groups: { diagnosis: string[]; update: string[]; selection: string[]; evaluation: string[] } | null;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function checkUnique(items: readonly SplitItem[], what: string): void {
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) throw new Error(`HERO split: task id "${item.id}" appears twice in the ${what} data`);
    seen.add(item.id);
  }
}

/** Groups of the items in seeded order (each group's ids sorted), or null when some item has no group. */
function seededGroups(items: readonly SplitItem[], rng: Rng): { name: string; ids: string[] }[] | null {
  if (items.length === 0 || items.some((i) => i.group === undefined)) return null;
  const groups = new Map<string, string[]>();
  for (const item of items) groups.set(item.group as string, [...(groups.get(item.group as string) ?? []), item.id]);
  const names = rng.shuffle([...groups.keys()].sort(byId));
  return names.map((name) => ({ name, ids: (groups.get(name) as string[]).sort(byId) }));
}

/** Deals groups, in order, each to the bin with the fewest ids so far (ties: the first). */
function deal(groups: readonly { name: string; ids: string[] }[], bins: number) {
  const out = Array.from({ length: bins }, () => ({ names: [] as string[], ids: [] as string[] }));
  for (const group of groups) {
    const target = out.reduce((best, bin) => (bin.ids.length < best.ids.length ? bin : best));
    target.names.push(group.name);
    target.ids.push(...group.ids);
  }
  return out;
}

/** Whole groups held out, in seeded order, until the share is reached; at least 2 tasks and a group stay. */
function heldOutGroups(groups: readonly { name: string; ids: string[] }[], total: number, fraction: number) {
  const target = Math.round(total * fraction);
  const out: { name: string; ids: string[] }[] = [];
  let count = 0;
  for (const group of groups.slice(0, -1)) {
    if (count >= target || total - count - group.ids.length < 2) break;
    out.push(group);
    count += group.ids.length;
  }
  return out;
}

/** Splits optimization data into HERO's pools and an evaluation split (given, or held out by seed). */
export function heroSplit(
  optimization: readonly SplitItem[],
  evaluation: readonly SplitItem[] | null,
  options: SplitOptions,
): HeroSplit {
  checkUnique(optimization, 'optimization');
  if (evaluation) checkUnique(evaluation, 'evaluation');
  const fraction = options.evaluationFraction ?? 0.5;
  if (!(fraction > 0 && fraction < 1))
    throw new Error(`HERO split: evaluationFraction must be between 0 and 1, got ${fraction}`);
  const minPool = options.minPoolSize ?? 4;
  const rng = (label: string) => new Rng(deriveSeed(options.seed, 'hero-split', label));

  let train: readonly SplitItem[] = optimization;
  let held: string[];
  let heldGroups: string[] | null = null;
  const groups = seededGroups(optimization, rng('evaluation'));
  if (evaluation) {
    held = evaluation.map((e) => e.id);
  } else if (groups && groups.length >= 2 && heldOutGroups(groups, optimization.length, fraction).length > 0) {
    const out = heldOutGroups(groups, optimization.length, fraction);
    held = out.flatMap((g) => g.ids);
    heldGroups = out.map((g) => g.name);
    const heldSet = new Set(held);
    train = optimization.filter((i) => !heldSet.has(i.id));
  } else {
    if (optimization.length < 3) throw new Error(`HERO split: need at least 3 tasks, got ${optimization.length}`);
    const shuffled = rng('evaluation').shuffle(optimization.map((i) => i.id).sort(byId));
    const trainSize = Math.max(2, Math.round(shuffled.length * (1 - fraction)));
    held = shuffled.slice(trainSize);
    const trainSet = new Set(shuffled.slice(0, trainSize));
    train = optimization.filter((i) => trainSet.has(i.id));
  }
  if (train.length < 2) throw new Error(`HERO split: need at least 2 optimization tasks, got ${train.length}`);

  const poolGroups = seededGroups(train, rng('pools'));
  const three = train.length >= 3 * minPool;
  if (poolGroups && poolGroups.length >= 2) {
    const bins = deal(poolGroups, three && poolGroups.length >= 3 ? 3 : 2);
    const [diagnosis, update, selection] = [bins[0]!, bins[1]!, bins[2] ?? bins[1]!];
    const evaluationGroups = heldGroups ?? [...new Set((evaluation ?? []).flatMap((e) => (e.group ? [e.group] : [])))];
    return {
      diagnosis: diagnosis.ids,
      update: update.ids,
      selection: selection.ids,
      evaluation: held,
      sharedSelection: bins.length === 2,
      groups: {
        diagnosis: diagnosis.names,
        update: update.names,
        selection: selection.names,
        evaluation: evaluationGroups.sort(byId),
      },
    };
  }
  const ids = rng('pools').shuffle(train.map((i) => i.id).sort(byId));
  if (three) {
    const third = Math.floor(ids.length / 3);
    return {
      diagnosis: ids.slice(0, third),
      update: ids.slice(third, 2 * third),
      selection: ids.slice(2 * third),
      evaluation: held,
      sharedSelection: false,
      groups: null,
    };
  }
  const half = Math.ceil(ids.length / 2);
  const update = ids.slice(half);
  return {
    diagnosis: ids.slice(0, half),
    update,
    selection: update,
    evaluation: held,
    sharedSelection: true,
    groups: null,
  };
}
