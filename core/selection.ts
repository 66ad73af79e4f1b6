/**
 * Which part of a benchmark a run covers (`witness bench --strategies/--tasks/--exclude-tasks/--limit`,
 * or WITNESS_STRATEGIES / WITNESS_TASKS / WITNESS_EXCLUDE_TASKS / WITNESS_LIMIT): pure functions,
 * used both by the suites (core/suite.ts) and by the dry run, so a dry run counts exactly what the
 * run would do.
 */
import { deriveSeed, Rng } from './random.ts';
import type { LoadedTasks } from './types.ts';

/** What to run of a benchmark; every field may be left out (then: everything). */
export interface Selection {
  /** Strategy names; each must be one of the benchmark's. */
  strategies?: readonly string[];
  /** Task ids; each must be one of the benchmark's. */
  tasks?: readonly string[];
  /** Task ids (or items a loader could not read) to leave out; each must be one of the benchmark's. */
  excludeTasks?: readonly string[];
  /** A seeded sample of this many tasks (of the listed ones when `tasks` is given too). */
  limit?: number;
}

/** A comma-separated list without blanks or repeats, in the order given; an empty list is an error naming `where`. */
export function parseNameList(text: string, where: string): string[] {
  const names = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 0)
    throw new Error(`${where}: expected a comma-separated list of names, got ${JSON.stringify(text)}`);
  return names;
}

/** Task ids from a file's text: one per line; blank lines and lines starting with `#` are ignored; no id is an error unless `allowEmpty`. */
export function parseIdLines(text: string, where: string, allowEmpty = false): string[] {
  const ids = [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#')),
    ),
  ];
  if (ids.length === 0 && !allowEmpty) throw new Error(`${where}: no task ids in the file (one id per line)`);
  return ids;
}

const preview = (items: readonly string[], n = 8) =>
  items.length > n ? `${items.slice(0, n).join(', ')}, … (${items.length} in all)` : items.join(', ');

/** The selected strategies, in the benchmark's order; a name the benchmark does not have is an error listing its strategies. */
export function selectStrategies<S extends { name: string }>(
  strategies: readonly S[],
  names: readonly string[] | undefined,
  benchmark: string,
): S[] {
  if (!names) return [...strategies];
  const known = strategies.map((s) => s.name);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0)
    throw new Error(
      `benchmark ${benchmark}: unknown ${unknown.length === 1 ? 'strategy' : 'strategies'} ${unknown.map((n) => `"${n}"`).join(', ')} (its strategies: ${known.join(', ')})`,
    );
  return strategies.filter((s) => names.includes(s.name));
}

/**
 * The selected tasks, in dataset order: the listed ids (an id the benchmark does not have is an
 * error naming it), then, with `limit`, a sample of that many drawn with the run seed. The sample
 * depends only on the seed, the benchmark's name and the set of ids (not their order), so it is
 * the same on every run, in every worker and on every shard.
 */
export function selectTasks<T extends { id: string }>(
  tasks: readonly T[],
  selection: Pick<Selection, 'tasks' | 'limit'>,
  seed: number,
  benchmark: string,
): T[] {
  let chosen: readonly T[] = tasks;
  if (selection.tasks) {
    const known = new Set(tasks.map((t) => t.id));
    const unknown = selection.tasks.filter((id) => !known.has(id));
    if (unknown.length > 0)
      throw new Error(
        `benchmark ${benchmark}: unknown task ${unknown.length === 1 ? 'id' : 'ids'} ${preview(unknown.map((id) => `"${id}"`))} (it has ${tasks.length} tasks: ${preview(tasks.map((t) => t.id))})`,
      );
    const wanted = new Set(selection.tasks);
    chosen = tasks.filter((t) => wanted.has(t.id));
  }
  const limit = selection.limit;
  if (limit === undefined || limit >= chosen.length) return [...chosen];
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`task limit must be a positive integer, got ${limit}`);
  const ids = chosen.map((t) => t.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const sample = new Set(new Rng(deriveSeed(seed, 'task-sample', benchmark)).shuffle(ids).slice(0, limit));
  return chosen.filter((t) => sample.has(t.id));
}

/**
 * The run's part of a loaded benchmark: the tasks `selectTasks` picks once the excluded ids are
 * left out, and the unreadable items that are not excluded (they are reported whatever else is
 * selected). An excluded id that is neither a task nor an unreadable item is an error naming it.
 */
export function selectLoaded(
  loaded: LoadedTasks,
  selection: Pick<Selection, 'tasks' | 'excludeTasks' | 'limit'>,
  seed: number,
  benchmark: string,
): LoadedTasks {
  const excluded = new Set(selection.excludeTasks ?? []);
  const known = new Set([...loaded.tasks.map((t) => t.id), ...loaded.issues.map((i) => i.item)]);
  const unknown = [...excluded].filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new Error(
      `benchmark ${benchmark}: cannot exclude unknown task ${unknown.length === 1 ? 'id' : 'ids'} ${preview(unknown.map((id) => `"${id}"`))} (is the list of another benchmark, split or data folder?)`,
    );
  const listed = selectTasks(loaded.tasks, { ...(selection.tasks ? { tasks: selection.tasks } : {}) }, seed, benchmark);
  const kept = listed.filter((t) => !excluded.has(t.id));
  return {
    tasks: selectTasks(kept, { ...(selection.limit !== undefined ? { limit: selection.limit } : {}) }, seed, benchmark),
    issues: loaded.issues.filter((i) => !excluded.has(i.item)),
  };
}
