/**
 * Per-trajectory metrics that need the candidates' texts or the per-case results: fixes and breaks
 * between solve turns, and structural stability. The episode records them once on a trajectory's
 * metric record (core/meta.ts); the group metrics of reports/metrics.ts read them from there.
 */
import { editDistance } from './edit-distance.ts';
import { recordedTokenizer, tokenizeProgram, type TokenizerName } from './tokenizers.ts';
import type { CaseResult, Trajectory, Turn } from './types.ts';

export interface FixBreak {
  fixes: number;
  breaks: number;
}

/**
 * The per-trajectory metrics that need the candidates' texts or the per-case results, computed
 * once from the full trajectory. A metric record (core/meta.ts: the copy on task meta, without
 * candidates or cases) carries them under `metrics`; the functions below read them from there.
 */
export interface RecordedMetrics extends FixBreak {
  stability: number | null;
}

const isCount = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The recorded metrics of a metric record, or undefined for a trajectory with turns in full (or a malformed record). */
export function recordedMetrics(t: Trajectory): RecordedMetrics | undefined {
  const value: unknown = (t as Trajectory & { metrics?: unknown }).metrics;
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Record<string, unknown>;
  const stability = m.stability;
  const stable = stability === null || (typeof stability === 'number' && Number.isFinite(stability));
  return isCount(m.fixes) && isCount(m.breaks) && stable ? (value as RecordedMetrics) : undefined;
}

/** The solve-phase turns in turn order. */
export function solveTurns(t: Trajectory): Turn[] {
  return t.turns.filter((turn) => turn.phase === 'solve').sort((a, b) => a.index - b.index);
}

/**
 * Fixes and breaks from one verdict to the next, matched by case id over `caseIds` plus every id
 * either verdict mentions. fix = fail→pass, break = pass→fail. A case absent from a verdict (a
 * syntax-error, model-error or no-artifact turn that ran nothing) counts as failing there.
 */
export function transitionFixesBreaks(
  caseIds: readonly string[],
  previous: readonly CaseResult[],
  next: readonly CaseResult[],
): FixBreak {
  const passedBefore = new Set(previous.filter((c) => c.pass).map((c) => c.id));
  const passedAfter = new Set(next.filter((c) => c.pass).map((c) => c.id));
  const ids = new Set([...caseIds, ...previous.map((c) => c.id), ...next.map((c) => c.id)]);
  let fixes = 0;
  let breaks = 0;
  for (const id of ids) {
    const before = passedBefore.has(id);
    const after = passedAfter.has(id);
    if (!before && after) fixes++;
    else if (before && !after) breaks++;
  }
  return { fixes, breaks };
}

/** Σ fixes and Σ breaks over consecutive solve turns t−1 → t of one trajectory. */
export function fixesAndBreaks(t: Trajectory): FixBreak {
  const recorded = recordedMetrics(t);
  if (recorded) return { fixes: recorded.fixes, breaks: recorded.breaks };
  const turns = solveTurns(t);
  const total = { fixes: 0, breaks: 0 };
  for (let i = 1; i < turns.length; i++) {
    const step = transitionFixesBreaks(
      t.caseIds,
      (turns[i - 1] as Turn).verdict.cases,
      (turns[i] as Turn).verdict.cases,
    );
    total.fixes += step.fixes;
    total.breaks += step.breaks;
  }
  return total;
}

/**
 * S = 1 − editDistance(tokens_a, tokens_b) / max(|tokens_a|, |tokens_b|, 1), with tokens from
 * `tokenizeProgram(tokenizer, ·)` and token-level Levenshtein distance. 1 = identical.
 */
export function pairStability(tokenizer: TokenizerName, a: string, b: string): number {
  const ta = tokenizeProgram(tokenizer, a);
  const tb = tokenizeProgram(tokenizer, b);
  return 1 - editDistance(ta, tb) / Math.max(ta.length, tb.length, 1);
}

/**
 * Structural stability of one trajectory: the mean of `pairStability` over adjacent solve turns
 * t−1 → t whose candidates both exist (non-null); null when there is no such pair.
 */
export function trajectoryStability(t: Trajectory): number | null {
  const recorded = recordedMetrics(t);
  if (recorded) return recorded.stability;
  const turns = solveTurns(t);
  const tokenizer = recordedTokenizer(t.oracle);
  let sum = 0;
  let pairs = 0;
  for (let i = 1; i < turns.length; i++) {
    const a = (turns[i - 1] as Turn).candidate;
    const b = (turns[i] as Turn).candidate;
    if (a === null || b === null) continue;
    sum += pairStability(tokenizer, a.source, b.source);
    pairs++;
  }
  return pairs === 0 ? null : sum / pairs;
}
