/**
 * `witness data check --items`: every item of a suite's data posed as a run would pose it — the
 * loader's unreadable items, then each task through the suite's own oracle (`prepare`: its gold
 * run on its data) — and the ones the run would not pose: invalid data (the dataset's fault, left
 * out of the rates) or a harness error (a limit or a gap of Witness's, which fails the run). The
 * same classification as core/suite.ts, so the list is what a run would record. The invalid ones
 * can be written as an exclusion list for `witness bench --exclude-tasks @FILE`.
 */
import { writeFile } from 'node:fs/promises';
import { mapLimit } from '../core/map-limit.ts';
import { unposedStatus } from '../core/oracle.ts';
import type { LoadedTasks, OutcomeStatus } from '../core/types.ts';
import { printable } from '../reports/format.ts';
import type { BenchmarkSpec } from '../core/suite-descriptor.ts';

/** An item a run would not pose, and why. */
export interface UnposableItem {
  /** The task id, or the unreadable item's name: what `--exclude-tasks` takes. */
  id: string;
  kind: Extract<OutcomeStatus, 'invalid-data' | 'harness-error'>;
  reason: string;
}

export interface PosedItems {
  suite: string;
  /** The split posed (null: the suite's default). */
  split: string | null;
  /** Items posed: the tasks and the unreadable items. */
  items: number;
  /** The items a run would not pose, in dataset order (unreadable items first). */
  unposable: UnposableItem[];
}

/** Preparations in flight at once: engines (SQLite, the sandbox) run them in their own processes. */
const IN_FLIGHT = 4;

/** Poses every item of a loaded suite (see the module comment); `progress` hears of each task done. */
export async function poseItems(
  spec: Pick<BenchmarkSpec, 'name' | 'oracle'> & { tasks: LoadedTasks },
  split: string | null,
  progress?: (done: number, total: number) => void,
): Promise<PosedItems> {
  const { tasks, issues } = spec.tasks;
  const unreadable = issues.map((i): UnposableItem => ({
    id: i.item,
    kind: i.kind ?? 'invalid-data',
    reason: `${i.item}: ${i.message}`,
  }));
  let done = 0;
  const refused = await mapLimit(tasks, IN_FLIGHT, async (task): Promise<UnposableItem | null> => {
    try {
      await spec.oracle.prepare({ ...task, benchmark: spec.name });
      return null;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { id: task.id, kind: unposedStatus(error), reason };
    } finally {
      progress?.(++done, tasks.length);
    }
  });
  return {
    suite: spec.name,
    split,
    items: tasks.length + issues.length,
    unposable: [...unreadable, ...refused.filter((r): r is UnposableItem => r !== null)],
  };
}

/** The posed items as text: a count line, then one line per item a run would not pose. */
export function formatPosedItems(posed: PosedItems): string {
  const invalid = posed.unposable.filter((u) => u.kind === 'invalid-data');
  const harness = posed.unposable.filter((u) => u.kind === 'harness-error');
  const n = (x: number) => x.toLocaleString('en-US');
  return [
    `${posed.suite} items posed as a run would (split ${posed.split ?? 'default'}): ${n(posed.items)} items, ` +
      `${n(posed.items - posed.unposable.length)} posable, ${n(invalid.length)} invalid data (left out of the rates), ` +
      `${n(harness.length)} Witness cannot pose (harness errors: the run fails on them)`,
    ...invalid.map((u) => `invalid  ${printable(u.reason)}`),
    ...harness.map((u) => `harness  ${printable(u.reason)}`),
  ].join('\n');
}

/** Writes the invalid items as an exclusion list (`--exclude-tasks @FILE`, `run.excludeTasks`): each id under its reason as a comment. */
export async function writeExclusionList(path: string, posed: PosedItems): Promise<number> {
  const invalid = posed.unposable.filter((u) => u.kind === 'invalid-data');
  const oneLine = (text: string) => text.replace(/\s+/g, ' ');
  const lines = [
    `# ${invalid.length} items of ${posed.suite} (split ${posed.split ?? 'default'}) a run records as invalid data,`,
    '# written by `witness data check --write-invalid`; leave them out with `witness bench --exclude-tasks @FILE`.',
    ...invalid.flatMap((u) => [`# ${oneLine(u.reason)}`, u.id]),
  ];
  await writeFile(path, `${lines.join('\n')}\n`);
  return invalid.length;
}
