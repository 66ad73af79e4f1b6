/**
 * Merging trajectories from several results files — shards of one run, runs of several models, or
 * several runs of one model (say, before and after a prompt change). Exact repeats of a trajectory
 * (the same file given twice) count once. Runs that overlap — the same (benchmark, model, strategy,
 * task, trial) under different run ids — are different experiments, so their rows are told apart
 * by run id (the row's `variant`); shards never overlap, so they merge into one row.
 */
import type { Trajectory } from '../core/types.ts';
import type { ResultsFile } from './results-file.ts';

/** Identity of a trajectory: a test reported live and again after the run is counted once. */
export function trajectoryKey(t: Trajectory): string {
  return JSON.stringify([t.runId, t.benchmark, t.taskId, t.strategy, t.trial, t.model.name]);
}

/** A stable order (benchmark, model, strategy, task, trial, run) so live and merged runs write the same file. */
export function compareTrajectories(a: Trajectory, b: Trajectory): number {
  const ka = [a.benchmark, a.model.name, a.strategy, a.taskId];
  const kb = [b.benchmark, b.model.name, b.strategy, b.taskId];
  for (let i = 0; i < ka.length; i++) {
    const x = ka[i] as string;
    const y = kb[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.trial - b.trial || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0);
}

export interface Merged {
  trajectories: Trajectory[];
  /** The variant (run id) of a trajectory whose run overlaps another; undefined otherwise. */
  variantOf: (t: Trajectory) => string | undefined;
  /** What the merge did that a reader should know. */
  notes: string[];
}

/** Merges trajectories (in input order); see the module comment for the rules. */
export function mergeTrajectories(lists: readonly (readonly Trajectory[])[]): Merged {
  const byKey = new Map<string, Trajectory>();
  let repeats = 0;
  let replaced = 0;
  for (const list of lists) {
    for (const t of list) {
      const key = trajectoryKey(t);
      const seen = byKey.get(key);
      if (!seen) byKey.set(key, t);
      else if (JSON.stringify(seen) === JSON.stringify(t)) repeats++;
      else {
        // Two versions of one episode of one run (a rerun): the later one wins.
        replaced++;
        if (t.startedAt > seen.startedAt) byKey.set(key, t);
      }
    }
  }
  const trajectories = [...byKey.values()].sort(compareTrajectories);
  const runsOf = new Map<string, Set<string>>();
  for (const t of trajectories) {
    const item = JSON.stringify([t.benchmark, t.model.name, t.strategy, t.taskId, t.trial]);
    runsOf.set(item, (runsOf.get(item) ?? new Set()).add(t.runId));
  }
  const overlapping = new Map<string, Set<string>>();
  for (const [item, runs] of runsOf) {
    if (runs.size < 2) continue;
    const [benchmark, model] = JSON.parse(item) as [string, string];
    const section = JSON.stringify([benchmark, model]);
    overlapping.set(section, new Set([...(overlapping.get(section) ?? []), ...runs]));
  }
  const notes: string[] = [];
  if (repeats > 0)
    notes.push(
      `${repeats} repeated ${repeats === 1 ? 'trajectory' : 'trajectories'} (same run, task, strategy, trial) counted once`,
    );
  if (replaced > 0)
    notes.push(
      `${replaced} ${replaced === 1 ? 'trajectory was' : 'trajectories were'} recorded twice by one run with different contents; the later one is kept`,
    );
  for (const [section, runs] of overlapping) {
    const [benchmark, model] = JSON.parse(section) as [string, string];
    notes.push(
      `runs ${[...runs].sort().join(', ')} overlap on ${benchmark} · ${model}: shown as separate rows, one per run`,
    );
  }
  return {
    trajectories,
    variantOf: (t) => (overlapping.has(JSON.stringify([t.benchmark, t.model.name])) ? t.runId : undefined),
    notes,
  };
}

/** Merges parsed results files. */
export function mergeResults(files: readonly ResultsFile[]): Merged {
  return mergeTrajectories(files.map((f) => f.trajectories));
}
