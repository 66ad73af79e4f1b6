/**
 * One BIRD question's execution, as BIRD's `evaluation.py` does it: the predicted query, then the
 * gold, on one database under one combined deadline, both in one SQLite process, which compares
 * the two results itself (SqlPool.score) so that no row travels. As in BIRD, a prediction that
 * fails or does not finish ends the pair: the question scores 0 whatever the gold gives, so the
 * gold is not run — it only passes the gate (prepared, not stepped), so that a gold SQLite
 * rejects is still named. Beyond
 * BIRD, when the gold did not finish within what the prediction left (or its process died), it
 * runs again on its own under the whole deadline, so a gold that never ends, or one over the caps,
 * is named as the dataset's problem instead of passing for the prediction's timeout. Scores stay
 * BIRD's: a pair over the deadline scores 0 either way. Gold results kept from earlier runs are
 * reused (the prediction gets what the gold's recorded time left of the deadline), and a
 * prediction that is a deterministic gold written differently (same-query.ts) runs once, under
 * half of it, unless `shortcut` is off.
 */
import type { GoldCache } from './gold-cache.ts';
import type { QueryLimits } from './limits.ts';
import { formatSeconds, type CountedResult, type ExecFailure, type ExecResult, type SqlPool } from './pool.ts';
import { resultsEqual, type CompareMode } from './result-equality.mjs';
import { sameDeterministicQuery } from './same-query.ts';

/** A statement's outcome in a pair: with its rows (run here, or kept in the gold cache) or counted where it was compared. */
export type PairResult = ExecResult | CountedResult;

/** How many rows a statement of a pair returned. */
export const rowCountOf = (result: Extract<PairResult, { ok: true }>): number =>
  'rowCount' in result ? result.rowCount : result.rows.length;

export interface PairOutcome {
  pred: PairResult;
  /**
   * The gold's own outcome: a failure here is the dataset's (or the configuration's), never the
   * prediction's. Null only when the prediction failed: the gold was prepared (it would run) and not
   * run, as in BIRD.
   */
  gold: PairResult | null;
  /** Set when both ran: whether the prediction's result equals the gold's (BIRD's EX in the `set` mode). */
  equal?: boolean;
  /** Set when prediction and gold together passed the deadline though the gold alone finishes (BIRD scores 0): why. */
  combinedTimeout?: string;
  /** SQLite time spent here, and whether the gold came from the cache. */
  spentMs: number;
  reused: boolean;
}

export interface BirdExecution {
  pool: SqlPool;
  cache: GoldCache | undefined;
  timeoutMs: number;
  limits: QueryLimits;
  /** Run a prediction that is the gold once (default true); off, both always run, as in BIRD. */
  shortcut?: boolean;
}

/** How results are compared: the mode, and whether the gold sorts its rows (`ordered` only). */
export interface PairComparison {
  mode: CompareMode;
  goldOrdered: boolean;
}

// A failure that depends only on the query and the database (a timeout, a crash, the caps do not).
const ownFailure = (r: PairResult) => !r.ok && (r.kind === 'syntax' || r.kind === 'unsafe' || r.kind === 'too-complex');

/** Runs a prediction and its gold on `path` (see the module comment). */
export async function executePair(
  { pool, cache, timeoutMs, limits, shortcut = true }: BirdExecution,
  goldSql: string,
  predSql: string,
  path: string,
  { mode, goldOrdered }: PairComparison,
): Promise<PairOutcome> {
  const key = cache?.key(path, goldSql);
  const cached = key ? cache?.get(key) : undefined;
  const same = shortcut && sameDeterministicQuery(predSql, goldSql);
  const over = (ms: number): ExecFailure => ({
    ok: false,
    kind: 'timeout',
    message: `the query did not finish within ${formatSeconds(timeoutMs)}`,
    ms,
  });
  const T = formatSeconds(timeoutMs);
  const combined = (predicted: string, gold: ExecResult) =>
    `${predicted}, and with the gold (${formatSeconds(gold.ms)}) the pair passes BIRD's combined deadline of ${T}`;
  const alone = async () => {
    const gold = await pool.run({ path }, goldSql, timeoutMs, limits);
    if (key) cache?.put(key, gold);
    return gold;
  };

  if (cached) {
    if (cached.ok && cached.ms >= timeoutMs) return { pred: over(0), gold: over(cached.ms), spentMs: 0, reused: true };
    const left = timeoutMs - cached.ms * (same ? 2 : 1);
    const late = (ms: number) => ({
      pred: over(ms),
      gold: cached,
      combinedTimeout: combined(
        `the predicted query did not finish within the ${formatSeconds(Math.max(0, left))} the gold left`,
        cached,
      ),
      spentMs: ms,
      reused: true,
    });
    if (left <= 0) return late(0);
    if (same) return { pred: cached, gold: cached, ...(cached.ok ? { equal: true } : {}), spentMs: 0, reused: true };
    // A prediction of a gold mostly takes about as long as the gold (pipeline-depth.ts).
    const pred = await pool.run({ path }, predSql, left, limits, { expectedMs: cached.ms });
    if (!pred.ok && pred.kind === 'timeout') return late(pred.ms);
    // Not run for this question, a gold that fails only while running says nothing here (as when nothing is kept).
    const gold = !pred.ok && !cached.ok && !ownFailure(cached) ? null : cached;
    const equal = pred.ok && cached.ok ? { equal: resultsEqual(pred.rows, cached.rows, mode, goldOrdered) } : {};
    return { pred, gold, ...equal, spentMs: pred.ms, reused: true };
  }
  if (same) {
    const once = await pool.run({ path }, goldSql, timeoutMs / 2, limits);
    if (once.ok || ownFailure(once)) {
      if (key) cache?.put(key, once);
      return { pred: once, gold: once, ...(once.ok ? { equal: true } : {}), spentMs: once.ms, reused: false };
    }
    const gold = await alone();
    const twice =
      gold.ok && once.kind === 'timeout'
        ? { combinedTimeout: combined(`the predicted query is the gold and takes ${formatSeconds(gold.ms)}`, gold) }
        : {};
    return { pred: once, gold, ...twice, spentMs: once.ms + gold.ms, reused: false };
  }
  // One request: the prediction, then (if it ran) the gold, compared in the SQLite process that read them.
  const scored = await pool.score(
    { path },
    predSql,
    goldSql,
    timeoutMs,
    {
      mode,
      goldOrdered,
      keepGold: key !== undefined,
    },
    limits,
  );
  if (!scored) return executeApart();
  const { pred, gold: paired } = scored;
  if (!pred.ok || !paired) {
    const rejected = await pool.prepare({ path }, goldSql, timeoutMs, limits);
    if (rejected && key) cache?.put(key, rejected);
    return { pred, gold: rejected, spentMs: pred.ms, reused: false };
  }
  if (paired.ok || ownFailure(paired)) {
    if (key && scored.goldBlob) cache?.putSerialized(key, scored.goldBlob, paired.ms);
    else if (key && !paired.ok) cache?.put(key, paired);
    const equal = scored.equal === undefined ? {} : { equal: scored.equal };
    return { pred, gold: paired, ...equal, spentMs: pred.ms + paired.ms, reused: false };
  }
  const gold = await alone();
  if (gold.ok && paired.kind === 'timeout') {
    const late = combined(`the predicted query took ${formatSeconds(pred.ms)}`, gold);
    return { pred, gold, combinedTimeout: late, spentMs: pred.ms + gold.ms, reused: false };
  }
  // The process died in the pair (its memory held both results) though the gold runs alone: apart.
  if (gold.ok) return executeApart();
  return { pred, gold, spentMs: pred.ms + gold.ms, reused: false };

  /** The two statements as two requests, compared here: for a text over the cap, or after the pair's process died. */
  async function executeApart(): Promise<PairOutcome> {
    const pred = await pool.run({ path }, predSql, timeoutMs, limits);
    if (!pred.ok) {
      const rejected = await pool.prepare({ path }, goldSql, timeoutMs, limits);
      return { pred, gold: rejected, spentMs: pred.ms, reused: false };
    }
    const paired = await pool.run({ path }, goldSql, Math.max(1, timeoutMs - pred.ms), limits);
    const compared = (gold: ExecResult) =>
      gold.ok ? { equal: resultsEqual(pred.rows, gold.rows, mode, goldOrdered) } : {};
    if (paired.ok || ownFailure(paired)) {
      if (key) cache?.put(key, paired);
      return { pred, gold: paired, ...compared(paired), spentMs: pred.ms + paired.ms, reused: false };
    }
    const gold = await alone();
    const late =
      gold.ok && paired.kind === 'timeout'
        ? { combinedTimeout: combined(`the predicted query took ${formatSeconds(pred.ms)}`, gold) }
        : compared(gold);
    return { pred, gold, ...late, spentMs: pred.ms + gold.ms, reused: false };
  }
}
