/**
 * The vitest task-meta channel. Each benchmark test stores under `meta.witness` a compact copy of
 * its trajectory — every field the metrics, summaries, gates and the report's task index read,
 * without the texts (messages, replies, feedback, witnesses, oracle details) — and under
 * `meta.witnessStored` where the full trajectory is in the run store. The main vitest process
 * keeps every test's meta until the run ends (and the blob reporter writes it), so the compact
 * copy is what keeps a 10,000-episode run small; reports read the full trajectory from the store.
 */
import type { StoredAt } from './store.ts';
import type { Trajectory, Turn, Verdict } from './types.ts';

/** Where a test's full trajectory is: the store folder as seen by the worker, the run, and the byte range. */
export interface StoredRef extends StoredAt {
  storeDir: string;
  runId: string;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    witness?: Trajectory;
    witnessStored?: StoredRef;
  }
}

export const META_KEY = 'witness';
export const STORED_META_KEY = 'witnessStored';
/** Key in a compact verdict's `detail`: [failing cases, all cases] of the full verdict. */
export const COMPACT_CASES = 'compactCases';

/** Verdict details the metrics read (VES timings); every other detail stays in the store. */
const METRIC_DETAILS = ['ves', 'timeRatio'] as const;

/**
 * Fix/break counting (reports/metrics.ts) treats a case absent from a verdict as failing and
 * matches cases by id, so a verdict's passing cases under short ids (the same id for the same
 * case throughout one trajectory) count exactly as the full list does; how many cases there were
 * and how many failed is kept in `detail` for the page.
 */
function compactVerdict(verdict: Verdict, shortId: (id: string) => string): Verdict {
  const detail = verdict.detail;
  const kept = detail ? METRIC_DETAILS.filter((k) => detail[k] !== undefined) : [];
  const failed = verdict.cases.filter((c) => !c.pass).length;
  return {
    pass: verdict.pass,
    cases: verdict.cases.filter((c) => c.pass).map((c) => ({ id: shortId(c.id), pass: true })),
    witnesses: [],
    ...(verdict.error ? { error: { kind: verdict.error.kind, message: '' } } : {}),
    timings: { totalMs: verdict.timings.totalMs },
    detail: {
      ...(detail ? Object.fromEntries(kept.map((k) => [k, detail[k] ?? null])) : {}),
      [COMPACT_CASES]: [failed, verdict.cases.length],
    },
  };
}

function compactTurn(turn: Turn, shortId: (id: string) => string): Turn {
  return {
    index: turn.index,
    phase: turn.phase,
    messages: [],
    // Only whether there was a reply counts (spend): the text stays in the store.
    reply: turn.reply === null ? null : '',
    candidate: turn.candidate,
    verdict: compactVerdict(turn.verdict, shortId),
    usage: turn.usage,
    latencyMs: turn.latencyMs,
    cached: turn.cached,
    ...(turn.modelError !== undefined ? { modelError: turn.modelError.slice(0, 200) } : {}),
    ...(turn.calls ? { calls: turn.calls } : {}),
  };
}

/**
 * The compact copy of a trajectory for task meta: same schema and every metric of it equal to the
 * full one's (reports/compact.test.ts checks this on random trajectories), a fraction of the size.
 */
export function compactTrajectory(t: Trajectory): Trajectory {
  const { refinement: _refinement, ...rest } = t;
  const hardening = t.outcome.hardening;
  const ids = new Map<string, string>();
  const shortId = (id: string) => {
    let short = ids.get(id);
    if (short === undefined) ids.set(id, (short = ids.size.toString(36)));
    return short;
  };
  return {
    ...rest,
    caseIds: [],
    turns: t.turns.map((turn) => compactTurn(turn, shortId)),
    outcome: {
      ...t.outcome,
      ...(hardening ? { hardening: { ...hardening, added: [] } } : {}),
    },
  };
}
