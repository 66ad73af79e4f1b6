/**
 * Repeated episodes (trials): the unbiased pass@k estimator and per-task agreement, so flaky tasks
 * show. A task's n = its counted trajectories (harness errors excluded), c = how many of them
 * solved it within the turn budget. Pure functions.
 */
import type { Trajectory } from '../core/types.ts';
import { countedTrajectories, solvedFinal } from './metrics.ts';
import { passAtK } from '../core/pass-at-k.ts';

/** The unbiased estimator lives in core (the Python evaluators use it too). */
export { passAtK };

export interface TaskRepeats {
  taskId: string;
  /** Counted episodes of the task. */
  n: number;
  /** Of those, the ones that solved it. */
  c: number;
}

/** n and c per task over the counted trajectories of a group, by task id. */
export function taskRepeats(group: readonly Trajectory[]): TaskRepeats[] {
  const byTask = new Map<string, TaskRepeats>();
  for (const t of countedTrajectories(group)) {
    const entry = byTask.get(t.taskId) ?? { taskId: t.taskId, n: 0, c: 0 };
    entry.n++;
    entry.c += solvedFinal(t);
    byTask.set(t.taskId, entry);
  }
  return [...byTask.values()].sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
}

export interface PassAtK {
  k: number;
  value: number;
}

/** The ks worth showing up to `maxK`: 1, 2, 3, 5, 10, 20, 50, 100 and `maxK` itself. */
export function shownKs(maxK: number): number[] {
  return [...new Set([1, 2, 3, 5, 10, 20, 50, 100, maxK])].filter((k) => k >= 1 && k <= maxK).sort((a, b) => a - b);
}

/** Mean pass@k over tasks for each shown k ≤ the smallest n of any task (BigCodeBench's rule); empty for no tasks. */
export function groupPassAtK(repeats: readonly TaskRepeats[]): PassAtK[] {
  if (repeats.length === 0) return [];
  const minN = Math.min(...repeats.map((r) => r.n));
  return shownKs(minN).map((k) => ({
    k,
    value: repeats.reduce((sum, r) => sum + passAtK(r.n, r.c, k), 0) / repeats.length,
  }));
}

/** Share of a task's episodes that agree with its majority outcome: max(c, n − c) / n. */
export function taskAgreement(r: TaskRepeats): number {
  return Math.max(r.c, r.n - r.c) / r.n;
}

export interface Agreement {
  /** Tasks with at least two episodes. */
  tasks: number;
  /** Mean per-task agreement over those tasks; null when there are none. */
  mean: number | null;
  /** Tasks some episodes solved and others did not. */
  flaky: TaskRepeats[];
}

/** Per-task agreement of repeated episodes and the flaky tasks. */
export function repeatAgreement(repeats: readonly TaskRepeats[]): Agreement {
  const repeated = repeats.filter((r) => r.n >= 2);
  return {
    tasks: repeated.length,
    mean: repeated.length === 0 ? null : repeated.reduce((sum, r) => sum + taskAgreement(r), 0) / repeated.length,
    flaky: repeated.filter((r) => r.c > 0 && r.c < r.n),
  };
}
