/**
 * One BIRD question's execution, as BIRD's `evaluation.py` does it: the predicted query, then the
 * gold, on one database under one combined deadline (the gold gets what the prediction left of it).
 * As in BIRD, a prediction that fails or does not finish ends the pair: the question scores 0
 * whatever the gold gives, so the gold is not run — it is only prepared, so that a gold SQLite
 * rejects is still named. Beyond BIRD, when the gold did not finish within what the prediction
 * left (or its process died), it runs again on its own under the whole deadline, so a gold that
 * never ends, or one over the caps, is named as the dataset's problem instead of passing for the
 * prediction's timeout. Scores stay BIRD's: a pair over the deadline scores 0 either way. Gold
 * results kept from earlier runs are reused (the prediction gets what the gold's recorded time left
 * of the deadline), and a prediction that is a deterministic gold written differently
 * (same-query.ts) runs once, under half of it, unless `shortcut` is off.
 */
import type { GoldCache } from './gold-cache.ts';
import type { QueryLimits } from './limits.ts';
import { formatSeconds, type ExecFailure, type ExecResult, type SqlPool } from './pool.ts';
import { sameDeterministicQuery } from './same-query.ts';

export interface PairOutcome {
  pred: ExecResult;
  /**
   * The gold's own outcome: a failure here is the dataset's (or the configuration's), never the
   * prediction's. Null only when the prediction failed: the gold was prepared (it would run) and not
   * run, as in BIRD.
   */
  gold: ExecResult | null;
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

// A failure that depends only on the query and the database (a timeout, a crash, the caps do not).
const ownFailure = (r: ExecResult) => !r.ok && (r.kind === 'syntax' || r.kind === 'unsafe' || r.kind === 'too-complex');

/** Runs a prediction and its gold on `path` (see the module comment). */
export async function executePair(
  { pool, cache, timeoutMs, limits, shortcut = true }: BirdExecution,
  goldSql: string,
  predSql: string,
  path: string,
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
    const gold = await pool.run({ path }, goldSql, timeoutMs, limits, { continues: true });
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
    if (same) return { pred: cached, gold: cached, spentMs: 0, reused: true };
    // A prediction of a gold mostly takes about as long as the gold (pipeline-depth.ts).
    const pred = await pool.run({ path }, predSql, left, limits, { expectedMs: cached.ms });
    if (!pred.ok && pred.kind === 'timeout') return late(pred.ms);
    // Not run for this question, a gold that fails only while running says nothing here (as when nothing is kept).
    const gold = !pred.ok && !cached.ok && !ownFailure(cached) ? null : cached;
    return { pred, gold, spentMs: pred.ms, reused: true };
  }
  if (same) {
    const once = await pool.run({ path }, goldSql, timeoutMs / 2, limits);
    if (once.ok || ownFailure(once)) {
      if (key) cache?.put(key, once);
      return { pred: once, gold: once, spentMs: once.ms, reused: false };
    }
    const gold = await alone();
    const twice =
      gold.ok && once.kind === 'timeout'
        ? { combinedTimeout: combined(`the predicted query is the gold and takes ${formatSeconds(gold.ms)}`, gold) }
        : {};
    return { pred: once, gold, ...twice, spentMs: once.ms + gold.ms, reused: false };
  }
  // Two requests, not one: the gold is not run after a failed prediction, and the two may run on different processes.
  const pred = await pool.run({ path }, predSql, timeoutMs, limits);
  if (!pred.ok) {
    const rejected = await pool.prepare({ path }, goldSql, timeoutMs, limits);
    if (rejected && key) cache?.put(key, rejected);
    return { pred, gold: rejected, spentMs: pred.ms, reused: false };
  }
  const paired = await pool.run({ path }, goldSql, Math.max(1, timeoutMs - pred.ms), limits, {
    expectedMs: pred.ms,
    continues: true,
  });
  if (paired.ok || ownFailure(paired)) {
    if (key) cache?.put(key, paired);
    return { pred, gold: paired, spentMs: pred.ms + paired.ms, reused: false };
  }
  const gold = await alone();
  const late =
    gold.ok && paired.kind === 'timeout'
      ? { combinedTimeout: combined(`the predicted query took ${formatSeconds(pred.ms)}`, gold) }
      : {};
  return { pred, gold, ...late, spentMs: pred.ms + gold.ms, reused: false };
}
