/**
 * The Meta-Harness search (docs/meta-harness.md#the-search): evaluate the seed harnesses, then per
 * iteration let the proposer write k candidates into pre-created folders, validate and evaluate each
 * on the search pool (store: validation.json, traces/, scores.json, an evolution.jsonl row,
 * frontier.json), write a short iteration report; at the end, once the search is marked finished,
 * evaluate the frontier and the seeds on the held-out test split with paired statistics against the
 * baseline seed. A token / USD budget stops it cleanly between candidates; a resumed search skips
 * every finished evaluation (the store's evaluationState()) and every written candidate.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { budgetSpent, hasLimit, type Budget } from '../../core/budget.ts';
import type { PreparedTask } from '../../core/oracle.ts';
import type { Task } from '../../core/types.ts';
import type { Proposer } from './proposer.ts';
import { recordEvolution, runCandidate, type CandidateContext, type CandidateSpend } from './search-candidate.ts';
import { evaluateHeldOut, storedComparisons, type HeldOutComparison } from './search-heldout.ts';
import { renderIterationReport } from './search-report.ts';
import type { SourceSeed } from './seed-prompt.ts';
import { seedHarnessFile, SEED_NAMES, type SeedName } from './seeds.ts';
import type { EvolutionRow, FrontierRecord, HeldOutRecord } from './store-records.ts';

export interface SearchOptions {
  iterations: number;
  candidates: number;
  /** Seed harnesses evaluated first (default all five). */
  seeds?: readonly SeedName[];
  /** More seeds given as source (HERO-O's learned prompt: seed-prompt.ts), evaluated after the built-in ones. */
  sourceSeeds?: readonly SourceSeed[];
  /** The seed the held-out comparison is against (default zero-shot, else the first seed). */
  baseline?: SeedName;
  budget?: Budget;
}

export interface SearchInput<P extends PreparedTask> extends CandidateContext<P> {
  testTasks: readonly Task[];
  proposer: Proposer;
  skillFile: string;
  options: SearchOptions;
  onProgress?: (line: string) => void;
  /** What the proposer spent so far in this session, counted against the budget with the evaluations. */
  proposerSpend?: () => CandidateSpend;
}

export interface SearchResult {
  stoppedBy: 'iterations' | 'budget';
  spent: CandidateSpend;
  rows: EvolutionRow[];
  frontier: FrontierRecord | null;
  heldOut: HeldOutRecord | null;
  comparisons: HeldOutComparison[];
  baseline: string;
}

/** Default iterations × candidates, as the reference runs it. */
export const DEFAULT_SEARCH = { iterations: 10, candidates: 3 } as const;

export const seedId = (name: string) => `seed-${name}`;
export const candidateId = (iteration: number, index: number) => `i${iteration}-c${index + 1}`;

/** Copies a seed harness (a built-in one, or one given as source) into the store with its proposal (once). */
function writeSeed<P extends PreparedTask>(ctx: CandidateContext<P>, seed: SeedName | SourceSeed): string {
  const name = typeof seed === 'string' ? seed : seed.name;
  const id = seedId(name);
  const file = ctx.store.harnessFile(id);
  if (!existsSync(file)) {
    mkdirSync(ctx.store.candidateDir(id), { recursive: true });
    if (typeof seed === 'string') copyFileSync(seedHarnessFile(seed), file);
    else writeFileSync(file, seed.source);
    ctx.store.writeProposal({
      id,
      iteration: 0,
      parent: null,
      hypothesis: typeof seed === 'string' ? `the built-in ${name} strategy, as a harness` : seed.hypothesis,
      mechanism: typeof seed === 'string' ? `seed: ${name}` : seed.mechanism,
      proposer: 'seed',
    });
  }
  return id;
}

/** Runs (or resumes) a search in `input.store`. */
export async function runSearch<P extends PreparedTask>(input: SearchInput<P>): Promise<SearchResult> {
  const { store, options } = input;
  const progress = input.onProgress ?? (() => {});
  const seeds = options.seeds ?? SEED_NAMES;
  const baselineName = options.baseline ?? (seeds.includes('zero-shot') ? 'zero-shot' : (seeds[0] as SeedName));
  const spent: CandidateSpend = { tokens: 0, usd: 0 };
  const total = (): CandidateSpend => {
    const proposer = input.proposerSpend?.() ?? { tokens: 0, usd: 0 };
    return { tokens: spent.tokens + proposer.tokens, usd: spent.usd + proposer.usd };
  };
  const overBudget = () => hasLimit(options.budget) && budgetSpent({ ...total(), calls: 0 }, options.budget);
  let stoppedBy: SearchResult['stoppedBy'] = 'iterations';

  const evaluate = async (id: string, iteration: number): Promise<boolean> => {
    if (!store.evaluationState().evaluated.includes(id) && overBudget()) return false;
    const { row, spend, reused } = await runCandidate(input, id, iteration);
    spent.tokens += spend.tokens;
    spent.usd += spend.usd;
    const score =
      row.passAtFinal === null
        ? row.outcome
        : `Pass@final ${row.passAtFinal.toFixed(3)}, ${row.meanTokens?.toFixed(0)} tokens`;
    progress(
      `${reused ? 'kept' : row.passAtFinal === null ? 'rejected' : 'evaluated'} ${id}: ${score}${row.onFrontier ? ' (frontier)' : ''}`,
    );
    return true;
  };

  const emptyReasons = new Map<string, string | null>();
  search: {
    for (const seed of [...seeds, ...(options.sourceSeeds ?? [])])
      if (!(await evaluate(writeSeed(input, seed), 0))) {
        stoppedBy = 'budget';
        break search;
      }
    store.writeReport(0, renderIterationReport(store, 0));
    for (let iteration = 1; iteration <= options.iterations; iteration++) {
      if (overBudget()) {
        stoppedBy = 'budget';
        break search;
      }
      const ids = Array.from({ length: options.candidates }, (_, i) => candidateId(iteration, i));
      const finished = new Set(store.readEvolution().map((r) => r.id));
      const written = (id: string) => store.harnessState(id) !== 'missing';
      const missing = ids.filter((id) => !finished.has(id) && !written(id));
      if (missing.length > 0) {
        for (const id of missing) mkdirSync(store.candidateDir(id), { recursive: true });
        progress(`iteration ${iteration}: ${input.proposer.name} proposer writes ${missing.join(', ')}`);
        let proposerError: string | null = null;
        try {
          const { transcript } = await input.proposer.propose({
            iteration,
            k: missing.length,
            store,
            skillFile: input.skillFile,
            candidateIds: missing,
          });
          store.writeProposerTranscript(iteration, 'transcript', { proposer: input.proposer.name, transcript });
        } catch (error) {
          // A failing proposer (a model error, a crashed agent) costs this iteration's candidates, not the search.
          proposerError = (error as Error).message;
          store.writeProposerTranscript(iteration, 'transcript', {
            proposer: input.proposer.name,
            error: proposerError,
          });
          progress(`iteration ${iteration}: the proposer failed: ${proposerError}`);
        }
        for (const id of missing) emptyReasons.set(id, proposerError);
      }
      for (const id of ids) {
        if (finished.has(id) && !written(id)) continue;
        if (!written(id)) {
          writePlaceholderProposal(input, id, iteration, '(none written)');
          const why = emptyReasons.get(id);
          recordEvolution(
            store,
            id,
            iteration,
            why ? `failed: the proposer failed: ${why}`.slice(0, 600) : 'failed: the proposer wrote no harness.ts',
          );
          progress(`${id}: the proposer left it empty`);
          continue;
        }
        if (store.harnessState(id) === 'not-a-file') {
          // A proposer made harness.ts a folder (or a link): the candidate is unusable, the search goes on.
          writePlaceholderProposal(input, id, iteration, '(harness.ts is not a file)');
          recordEvolution(store, id, iteration, 'failed: harness.ts is not a regular file (a folder or a link)');
          progress(`${id}: harness.ts is not a regular file`);
          continue;
        }
        const problem = proposalProblem(input, id);
        if (problem) {
          writePlaceholderProposal(input, id, iteration, `(proposal.json was unusable: ${problem})`);
          progress(`${id}: proposal.json unusable (${problem}); kept aside as proposal.invalid.json`);
        }
        if (!(await evaluate(id, iteration))) {
          stoppedBy = 'budget';
          break search;
        }
      }
      store.writeReport(iteration, renderIterationReport(store, iteration));
    }
  }
  if (stoppedBy === 'budget')
    progress(`budget spent (${total().tokens} tokens, $${total().usd.toFixed(4)}): the search stops`);
  if (!store.searchFinished) store.markSearchFinished();

  const frontier = store.readFrontier();
  const rows = store.readEvolution();
  const baseline = seedId(baselineName);
  let heldOut = store.readHeldOut();
  let comparisons = heldOut ? storedComparisons(heldOut) : [];
  const baselineScored = rows.some((r) => r.id === baseline && r.outcome === 'evaluated');
  if (!heldOut && frontier && baselineScored && input.testTasks.length > 0) {
    const seedIds = rows.filter((r) => r.iteration === 0 && r.outcome === 'evaluated').map((r) => r.id);
    const ids = [...new Set([baseline, ...seedIds, ...frontier.members.map((m) => m.id)])];
    progress(`held-out: ${ids.length} harnesses on ${input.testTasks.length} test tasks`);
    const result = await evaluateHeldOut(input, input.testTasks, ids, baseline);
    heldOut = result;
    comparisons = result.comparisons;
  }
  return { stoppedBy, spent: total(), rows, frontier, heldOut, comparisons, baseline };
}

/** Why a written candidate's proposal.json cannot be used (missing, not JSON, wrong fields or id), or null. */
function proposalProblem<P extends PreparedTask>(ctx: CandidateContext<P>, id: string): string | null {
  if (!existsSync(join(ctx.store.candidateDir(id), 'proposal.json'))) return 'missing';
  try {
    ctx.store.readProposal(id);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A proposal for a folder whose own is missing or unusable (that one is kept as proposal.invalid.json). */
function writePlaceholderProposal<P extends PreparedTask>(
  ctx: CandidateContext<P>,
  id: string,
  iteration: number,
  hypothesis: string,
): void {
  const file = join(ctx.store.candidateDir(id), 'proposal.json');
  if (existsSync(file)) {
    if (proposalProblem(ctx, id) === null) return;
    renameSync(file, join(ctx.store.candidateDir(id), 'proposal.invalid.json'));
  }
  ctx.store.writeProposal({ id, iteration, parent: null, hypothesis, mechanism: '(unknown)', proposer: 'unknown' });
}
