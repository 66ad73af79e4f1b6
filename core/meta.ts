/**
 * The vitest task-meta channel. Each benchmark test stores under `meta.witness` a metric record of
 * its trajectory — the trajectory's fields and turns with every number and flag the metrics,
 * summaries, gates, curves and the report's task index read, but no texts (messages, replies,
 * candidates, feedback, witnesses, oracle details) and no per-case results, plus the metrics that
 * need those (`metrics`: fixes, breaks, stability) computed from the full trajectory — and under
 * `meta.witnessStored` where the full trajectory is in the run store; from its declaration on, it
 * carries under `meta.witnessPlanned` the episode it is planned to record. The main vitest process
 * keeps every test's meta until the run ends (and the blob reporter writes it, and a
 * `--merge-reports` parses it), so the record's size is what bounds a large run's memory; reports
 * read full trajectories from the store only where they show texts. Older blobs whose meta holds a
 * full or a compact trajectory (turns with passing cases and candidates) are read as before.
 */
import { fixesAndBreaks, type RecordedMetrics, trajectoryStability } from './trajectory-metrics.ts';
import type { EpisodePlan } from './episode.ts';
import type { StoredAt } from './store.ts';
import type { Trajectory, Turn, Verdict } from './types.ts';

/** Where a test's full trajectory is: the store folder as seen by the worker, the run, and the byte range. */
export interface StoredRef extends StoredAt {
  storeDir: string;
  runId: string;
}

/** A trajectory as task meta carries it: see the module comment. */
export type MetricRecord = Trajectory & { metrics: RecordedMetrics };

declare module '@vitest/runner' {
  interface TaskMeta {
    witness?: Trajectory;
    witnessStored?: StoredRef;
    witnessPlanned?: EpisodePlan;
  }
}

export const META_KEY = 'witness';
export const STORED_META_KEY = 'witnessStored';
/** Set when a benchmark test is declared: the episode it is planned to record (see reports/ledger.ts). */
export const PLANNED_META_KEY = 'witnessPlanned';
/** Key in a record's verdict `detail`: [failing cases, all cases] of the full verdict. */
export const COMPACT_CASES = 'compactCases';

/** Verdict details the metrics read (VES timings); every other detail stays in the store. */
const METRIC_DETAILS = ['ves', 'timeRatio'] as const;

function recordVerdict(verdict: Verdict): Verdict {
  const detail = verdict.detail;
  const kept = detail ? METRIC_DETAILS.filter((k) => detail[k] !== undefined) : [];
  const failed = verdict.cases.filter((c) => !c.pass).length;
  return {
    pass: verdict.pass,
    cases: [],
    witnesses: [],
    ...(verdict.error ? { error: { kind: verdict.error.kind, message: '' } } : {}),
    timings: { totalMs: verdict.timings.totalMs },
    detail: {
      ...(detail ? Object.fromEntries(kept.map((k) => [k, detail[k] ?? null])) : {}),
      // How many cases there were and how many failed, for the page's task index.
      [COMPACT_CASES]: [failed, verdict.cases.length],
    },
  };
}

function recordTurn(turn: Turn): Turn {
  return {
    index: turn.index,
    phase: turn.phase,
    messages: [],
    // Only whether there was a reply counts (spend): the text stays in the store.
    reply: turn.reply === null ? null : '',
    candidate: null,
    verdict: recordVerdict(turn.verdict),
    usage: turn.usage,
    latencyMs: turn.latencyMs,
    cached: turn.cached,
    ...(turn.modelError !== undefined ? { modelError: turn.modelError.slice(0, 200) } : {}),
    ...(turn.calls ? { calls: turn.calls } : {}),
  };
}

/**
 * The metric record of a trajectory for task meta: same schema, every metric of it equal to the
 * full one's (reports/compact.test.ts checks this on random trajectories), a small fraction of the size.
 */
export function compactTrajectory(t: Trajectory): MetricRecord {
  const { refinement: _refinement, ...rest } = t;
  const hardening = t.outcome.hardening;
  return {
    ...rest,
    caseIds: [],
    turns: t.turns.map(recordTurn),
    outcome: {
      ...t.outcome,
      ...(hardening ? { hardening: { ...hardening, added: [] } } : {}),
    },
    metrics: { ...fixesAndBreaks(t), stability: trajectoryStability(t) },
  };
}
