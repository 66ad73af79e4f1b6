/**
 * The end of a search: every frontier member and the seeds evaluated on the held-out test split,
 * and each compared with the baseline seed by the gate's paired statistics (fixes / breaks, exact
 * sign test over tasks, cluster-bootstrap interval of Δ Pass@final). Written to the store's
 * held-out folder, which the proposer never sees, only once the search is marked finished.
 */
import type { JsonObject, Task } from '../../core/types.ts';
import type { PreparedTask } from '../../core/oracle.ts';
import { comparePairs, type Pair } from '../../reports/paired.ts';
import type { InstanceOutcome } from '../../reports/outcomes.ts';
import { evaluateHarness, type HarnessEpisode } from './evaluate.ts';
import { scoresRecord, type CandidateContext } from './search-candidate.ts';
import type { HeldOutRecord } from './store-records.ts';

/** One candidate against the baseline on the test split. */
export interface HeldOutComparison {
  id: string;
  baseline: string;
  n: number;
  tasks: number;
  baselineRate: number | null;
  candidateRate: number | null;
  delta: number | null;
  interval: { low: number; high: number } | null;
  fixes: string[];
  breaks: string[];
  sign: { n: number; fixes: number; breaks: number; pWorse: number; pBetter: number };
}

function outcome(e: HarnessEpisode, benchmark: string, model: string): InstanceOutcome {
  return {
    benchmark,
    // One strategy label on both sides: the harnesses are compared task by task, trial by trial.
    strategy: 'meta-harness',
    taskId: e.taskId,
    trial: e.trial,
    model,
    runId: '',
    promptHash: '',
    status: e.harnessError ? 'harness-error' : e.pass ? 'solved' : 'unsolved',
    solvedAtTurn: e.pass ? 1 : null,
    hardening: null,
  };
}

/** Paired statistics of `candidate` against `baseline` (same tasks and trials), the gate's way. */
export function compareHeldOut(
  id: string,
  baselineId: string,
  baseline: readonly HarnessEpisode[],
  candidate: readonly HarnessEpisode[],
  seed: number,
): HeldOutComparison {
  const key = (e: HarnessEpisode) => `${e.taskId}\u0000${e.trial}`;
  const byKey = new Map(baseline.map((e) => [key(e), e]));
  const pairs: Pair[] = candidate.flatMap((c) => {
    const b = byKey.get(key(c));
    if (!b || b.harnessError || c.harnessError) return [];
    return [{ baseline: outcome(b, 'test', 'model'), candidate: outcome(c, 'test', 'model') }];
  });
  const result = comparePairs(pairs, 'passFinal', { seed });
  return {
    id,
    baseline: baselineId,
    n: result.n,
    tasks: result.tasks,
    baselineRate: result.baselineRate,
    candidateRate: result.candidateRate,
    delta: result.delta,
    interval: result.interval,
    fixes: result.fixes.map((f) => `${f.taskId}#${f.trial}`),
    breaks: result.breaks.map((f) => `${f.taskId}#${f.trial}`),
    sign: {
      n: result.sign.n,
      fixes: result.sign.fixes,
      breaks: result.sign.breaks,
      pWorse: result.sign.pWorse,
      pBetter: result.sign.pBetter,
    },
  };
}

/** Evaluates `ids` on the test split and writes the held-out record (the store must be marked finished). */
export async function evaluateHeldOut<P extends PreparedTask>(
  ctx: CandidateContext<P>,
  testTasks: readonly Task[],
  ids: readonly string[],
  baselineId: string,
): Promise<HeldOutRecord & { comparisons: HeldOutComparison[] }> {
  const episodes = new Map<string, HarnessEpisode[]>();
  for (const id of ids) {
    const evaluation = await evaluateHarness({
      harnessFile: ctx.store.harnessFile(id),
      oracle: ctx.oracle,
      tasks: testTasks,
      model: ctx.model,
      prompt: ctx.prompt,
      trials: ctx.trials,
      seed: ctx.seed,
      runId: `${id}-test`,
      ...(ctx.concurrency ? { concurrency: ctx.concurrency } : {}),
      ...(ctx.budgets ? { budgets: ctx.budgets } : {}),
      ...(ctx.limits ? { limits: ctx.limits } : {}),
    });
    episodes.set(id, evaluation.episodes);
  }
  const base = episodes.get(baselineId) ?? [];
  const comparisons = ids
    .filter((id) => id !== baselineId)
    .map((id) => compareHeldOut(id, baselineId, base, episodes.get(id) ?? [], ctx.seed));
  const record: HeldOutRecord = {
    results: ids.map((id) => ({ id, scores: scoresRecord(episodes.get(id) ?? []) })),
    comparison: { baseline: baselineId, metric: 'passFinal', against: comparisons as unknown as JsonObject[] },
  };
  ctx.store.writeHeldOut(record);
  return { ...record, comparisons };
}

/** The comparisons stored in a held-out record (as evaluateHeldOut wrote them). */
export function storedComparisons(record: HeldOutRecord): HeldOutComparison[] {
  const against = record.comparison?.against;
  return Array.isArray(against) ? (against as unknown as HeldOutComparison[]) : [];
}
