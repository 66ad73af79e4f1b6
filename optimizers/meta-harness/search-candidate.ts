/**
 * One candidate of the search, start to finish: validate (validation.json), evaluate the valid ones
 * on the search pool (traces/, spend.json, scores.json), then its evolution.jsonl row and the new
 * frontier.json. A candidate already fully evaluated (a resumed search) is not run again; a
 * missing evolution row (a kill between scores.json and the row) is appended from what is stored.
 */
import type { ChatModel } from '../../core/models/model.ts';
import type { Oracle, PreparedTask } from '../../core/oracle.ts';
import type { PromptTemplate } from '../../core/prompt.ts';
import { callCost } from '../../core/cost.ts';
import type { Price, Task } from '../../core/types.ts';
import type { HarnessBudgets, SandboxLimits } from '../../strategies/harness/budgets.ts';
import { evaluateHarness, type HarnessEpisode } from './evaluate.ts';
import { paretoFrontier } from './frontier.ts';
import type { MetaHarnessStore } from './store.ts';
import type { EvolutionRow, ScoresRecord, ValidationRecord } from './store-records.ts';
import { validateHarness, type ValidationOutcome } from './validate.ts';

/** What evaluating candidates needs, shared by every candidate of a search. */
export interface CandidateContext<P extends PreparedTask> {
  store: MetaHarnessStore;
  oracle: Oracle<P>;
  prompt: PromptTemplate;
  model: ChatModel;
  /** The search pool. */
  tasks: readonly Task[];
  trials: number;
  seed: number;
  price: Price | null;
  budgets?: Partial<HarnessBudgets>;
  limits?: Partial<SandboxLimits>;
  concurrency?: number;
}

/** What a candidate cost (search-pool evaluation only), stored as spend.json. */
export interface CandidateSpend {
  tokens: number;
  usd: number;
}

/** Episodes' tokens and USD at the model's price (0 USD without one). */
export function spendOf(episodes: readonly HarnessEpisode[], price: Price | null): CandidateSpend {
  let tokens = 0;
  let usd = 0;
  for (const e of episodes) {
    tokens += e.tokens.total;
    if (price) usd += callCost(price, { promptTokens: e.tokens.prompt, completionTokens: e.tokens.completion });
  }
  return { tokens, usd };
}

/** validation.json's form of a validation outcome: one check per kind, with its first problems. */
export function validationRecord(outcome: ValidationOutcome): ValidationRecord {
  const c = outcome.checks;
  const check = (name: string, ok: boolean, detail: string[]) => ({
    name,
    ok,
    ...(ok ? {} : { message: detail.slice(0, 5).join('; ') || 'failed' }),
  });
  return {
    ok: outcome.valid,
    checks: [
      check('compile', c.compile.ok, c.compile.errors),
      check('typecheck', c.typecheck.ok, c.typecheck.errors),
      check(
        'imports',
        c.imports.ok,
        c.imports.findings.map((f) => `line ${f.line}: ${f.rule}: ${f.text}`),
      ),
      check('leaks', c.leaks.ok, [...c.leaks.taskIds.map((t) => `task id ${t}`), ...c.leaks.literals]),
      check(
        'smoke',
        c.smoke.ran && c.smoke.ok,
        c.smoke.ran
          ? c.smoke.episodes.flatMap((e) => [
              ...(e.failure ? [`${e.taskId}: ${e.failure}`] : []),
              ...(e.harnessError ? [`${e.taskId}: harness error: ${e.harnessError}`] : []),
            ])
          : ['not run: a static check failed'],
      ),
    ],
  };
}

/** A trace file name for a task id and trial (the id's other characters become '_'). */
export function traceName(taskId: string, trial: number, index: number): string {
  const safe = taskId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60) || 'task';
  return `${/^[A-Za-z0-9]/.test(safe) ? '' : 't'}${safe}-${index}-t${trial}`;
}

/** scores.json of an evaluation. */
export function scoresRecord(episodes: readonly HarnessEpisode[]): ScoresRecord {
  const n = episodes.length;
  const mean = (pick: (e: HarnessEpisode) => number) => (n === 0 ? 0 : episodes.reduce((s, e) => s + pick(e), 0) / n);
  return {
    passAtFinal: n === 0 ? 0 : episodes.filter((e) => e.pass).length / n,
    meanTokens: mean((e) => e.tokens.total),
    meanCalls: mean((e) => e.calls),
    meanTimeMs: mean((e) => e.durationMs),
    tasks: episodes.map((e) => ({
      taskId: e.taskId,
      trial: e.trial,
      pass: e.pass,
      tokens: e.tokens.total,
      calls: e.calls,
      timeMs: e.durationMs,
      ...(e.failure ? { error: `${e.failure.kind}: ${e.failure.message}` } : {}),
      ...(e.harnessError ? { error: `harness error: ${e.harnessError}` } : {}),
    })),
  };
}

/** Appends the candidate's evolution row (if it has none) and rewrites frontier.json. */
export function recordEvolution(store: MetaHarnessStore, id: string, iteration: number, outcome: string): EvolutionRow {
  const rows = store.readEvolution();
  const existing = rows.find((r) => r.id === id);
  if (existing) return existing;
  const proposal = store.readProposal(id);
  const scores = outcome === 'evaluated' ? store.readScores(id) : null;
  const scored = rows.filter((r) => r.outcome === 'evaluated' && r.passAtFinal !== null);
  const best = scored.length > 0 ? Math.max(...scored.map((r) => r.passAtFinal as number)) : null;
  const points = [
    ...scored.map((r) => ({ id: r.id, passAtFinal: r.passAtFinal as number, meanTokens: r.meanTokens as number })),
    ...(scores ? [{ id, passAtFinal: scores.passAtFinal, meanTokens: scores.meanTokens }] : []),
  ];
  const frontier = paretoFrontier(points);
  const row: EvolutionRow = {
    iteration,
    id,
    parent: proposal.parent,
    hypothesis: proposal.hypothesis,
    mechanism: proposal.mechanism,
    outcome,
    passAtFinal: scores?.passAtFinal ?? null,
    meanTokens: scores?.meanTokens ?? null,
    deltaVsBest: scores && best !== null ? scores.passAtFinal - best : null,
    onFrontier: frontier.some((m) => m.id === id),
  };
  store.writeFrontier({ iteration, members: frontier });
  store.appendEvolution(row);
  return row;
}

/** The outcome text of a stored, finished candidate: 'evaluated' or 'invalid: …'. */
function storedOutcome(validation: ValidationRecord): string {
  if (validation.ok) return 'evaluated';
  const failed = validation.checks.filter((c) => !c.ok);
  return `invalid: ${failed.map((c) => `${c.name}: ${c.message ?? 'failed'}`).join(' | ')}`.slice(0, 600);
}

/** Validates and evaluates one candidate whose harness.ts and proposal.json are written; returns its row and spend. */
export async function runCandidate<P extends PreparedTask>(
  ctx: CandidateContext<P>,
  id: string,
  iteration: number,
): Promise<{ row: EvolutionRow; spend: CandidateSpend; reused: boolean }> {
  const { store } = ctx;
  const done = store.evaluationState().evaluated.includes(id);
  if (done) {
    const row = recordEvolution(store, id, iteration, storedOutcome(store.readValidation(id)));
    return { row, spend: store.readSpend(id), reused: true };
  }
  const harnessFile = store.harnessFile(id);
  const extra = {
    ...(ctx.budgets ? { budgets: ctx.budgets } : {}),
    ...(ctx.limits ? { limits: ctx.limits } : {}),
  };
  const validation = validationRecord(
    await validateHarness({
      harnessFile,
      oracle: ctx.oracle,
      pool: ctx.tasks,
      model: ctx.model,
      prompt: ctx.prompt,
      ...extra,
    }),
  );
  if (!validation.ok) {
    store.writeValidation(id, validation);
    return {
      row: recordEvolution(store, id, iteration, storedOutcome(validation)),
      spend: { tokens: 0, usd: 0 },
      reused: false,
    };
  }
  const evaluation = await evaluateHarness({
    harnessFile,
    oracle: ctx.oracle,
    tasks: ctx.tasks,
    model: ctx.model,
    prompt: ctx.prompt,
    trials: ctx.trials,
    seed: ctx.seed,
    runId: id,
    ...(ctx.concurrency ? { concurrency: ctx.concurrency } : {}),
    ...extra,
  });
  evaluation.episodes.forEach((e, i) => store.writeTrace(id, traceName(e.taskId, e.trial, i), e.trajectory));
  const spend = spendOf(evaluation.episodes, ctx.price);
  store.writeSpend(id, spend);
  store.writeScores(id, scoresRecord(evaluation.episodes));
  // validation.json last: evaluationState() counts a candidate done only once it and scores.json exist.
  store.writeValidation(id, validation);
  return { row: recordEvolution(store, id, iteration, 'evaluated'), spend, reused: false };
}
