/**
 * Resuming a run: episodes already in the run store are reused as they are, the others run. A
 * resume must use the settings the run started with (model, seed, turn budget, hardening, prompt,
 * oracle), or its results would mix two experiments; more trials are allowed (they extend the run).
 * `rerun` redoes stored episodes that errored (harness error, model error or invalid data, which a
 * fixed dataset may have made posable) or failed (not solved).
 */
import type { RunStore, StoredAt, StoreEntry } from './store.ts';
import type { Json, Trajectory } from './types.ts';

export type RerunMode = 'errored' | 'failed';
export const RERUN_MODES: readonly RerunMode[] = ['errored', 'failed'];

/** Whether a stored trajectory is redone under a rerun mode. */
export function needsRerun(
  t: { outcome: Pick<Trajectory['outcome'], 'status'> },
  mode: RerunMode | undefined,
): boolean {
  if (mode === undefined) return false;
  const status = t.outcome.status;
  if (mode === 'errored') return status === 'harness-error' || status === 'model-error' || status === 'invalid-data';
  return status !== 'solved';
}

/** Settings that may differ between the sessions of one run. */
const MAY_CHANGE = new Set(['trials', 'startedAt']);

/** The first setting that differs, as an error message naming the run, benchmark, setting and both values; null when compatible. */
export function settingsConflict(
  runId: string,
  benchmark: string,
  stored: Record<string, Json>,
  current: Record<string, Json>,
): string | null {
  for (const key of new Set([...Object.keys(stored), ...Object.keys(current)])) {
    if (MAY_CHANGE.has(key)) continue;
    const before = JSON.stringify(stored[key] ?? null);
    const now = JSON.stringify(current[key] ?? null);
    if (before !== now) {
      return `cannot resume run ${runId}: benchmark ${benchmark} ran with ${key} ${before}, this session has ${now}; resume with the same settings or start a new run`;
    }
  }
  return null;
}

export interface ResumeStats {
  reused: number;
  /** Stored trajectories that will be redone because of `rerun`. */
  redo: number;
  /** Stored files and lines that could not be read (their episodes run again). */
  unreadable: string[];
  /** Torn last lines of interrupted writes, skipped (their episodes run again). */
  torn: string[];
}

/**
 * The finished episodes of a run, by store key, and which of them a rerun redoes. It holds only
 * where each trajectory is and its status; a reused trajectory is read from the store when asked for.
 */
export class ResumePlan {
  private constructor(
    private readonly store: RunStore,
    private readonly finished: Map<string, StoreEntry>,
    readonly rerun: RerunMode | undefined,
    readonly unreadable: string[],
    readonly torn: string[],
  ) {}

  /** Reads a run's store index (streaming); an unknown run is an error naming the store folder. */
  static load(store: RunStore, rerun: RerunMode | undefined): ResumePlan {
    if (!store.exists()) throw new Error(`cannot resume run ${store.runId}: there is no ${store.dir}`);
    const { entries, problems, notes } = store.index();
    return new ResumePlan(store, entries, rerun, problems, notes);
  }

  /** Where the stored trajectory a resume reuses for this episode is, or undefined when it must run. */
  reusableAt(key: string): StoredAt | undefined {
    const entry = this.finished.get(key);
    return entry && !needsRerun({ outcome: { status: entry.status } }, this.rerun) ? entry.at : undefined;
  }

  /** The stored trajectory to reuse for this episode, or undefined when it must run. */
  reusable(key: string): Trajectory | undefined {
    const at = this.reusableAt(key);
    return at && this.store.read(at);
  }

  /** Counts over the whole store (all benchmarks of the run). */
  stats(): ResumeStats {
    let redo = 0;
    for (const entry of this.finished.values())
      if (needsRerun({ outcome: { status: entry.status } }, this.rerun)) redo++;
    return { reused: this.finished.size - redo, redo, unreadable: [...this.unreadable], torn: [...this.torn] };
  }
}

/** Task-meta flag on tests whose trajectory came from the store instead of a new episode. */
export const RESUMED_META_KEY = 'witnessResumed';

declare module '@vitest/runner' {
  interface TaskMeta {
    witnessResumed?: boolean;
  }
}
