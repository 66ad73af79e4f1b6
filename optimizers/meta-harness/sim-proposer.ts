/**
 * The sim proposer: a seeded, offline stand-in for the proposer agent, so the whole search runs
 * with no model key. Like the agent it reads the store — evolution.jsonl (who scored what),
 * each candidate's harness.ts (its recipe line) and proposal.json, the parent's scores.json and the
 * traces of its failed episodes (statement, final program, the verdict's error and counterexamples)
 * — and writes k candidates, each the parent with one documented seed mechanism changed: a prompt
 * rule for the most frequent symptom of its failures, verification through the observer, a repair
 * budget, retrieval of verified examples, a memory of execution errors. It never reads the steering
 * catalog, the held-out folder or the gold programs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deriveSeed, Rng } from '../../core/random.ts';
import type { Proposer, ProposeInput } from './proposer.ts';
import { rankSymptoms, viewTrace, type DiagnosisLanguage, type Symptom, type TraceView } from './sim-diagnosis.ts';
import { describeRecipe, readRecipe, recipeKey, renderHarness, SEED_RECIPES, type Recipe } from './sim-recipe.ts';
import type { MetaHarnessStore } from './store.ts';
import type { EvolutionRow } from './store-records.ts';

export interface SimProposerOptions {
  seed: number;
  /** 'regex' enables the regex symptoms, 'bird' or 'sql' the SQL ones; anything else diagnoses execution errors and wrong results. */
  language: string;
}

interface Parent {
  row: EvolutionRow;
  recipe: Recipe;
}

interface Change {
  mechanism: string;
  recipe: Recipe;
  hypothesis: string;
}

/** The recipe of a stored candidate: its recipe line, or the seed's mechanisms; null for a module the sim cannot read. */
function recipeOf(store: MetaHarnessStore, id: string, log: unknown[]): Recipe | null {
  let source: string;
  let proposal: ReturnType<MetaHarnessStore['readProposal']>;
  try {
    source = store.readHarness(id);
    proposal = store.readProposal(id);
  } catch (error) {
    log.push({ action: 'skip', candidate: id, reason: (error as Error).message });
    return null;
  }
  log.push({ action: 'read', file: `candidates/${id}/harness.ts` });
  const own = readRecipe(source);
  if (own) return own;
  const seed = proposal.proposer === 'seed' ? SEED_RECIPES[id.replace(/^seed-/, '')] : undefined;
  return seed ?? null;
}

/** The failed traces of a candidate, as the diagnosis reads them. */
function failedViews(store: MetaHarnessStore, id: string, log: unknown[]): TraceView[] {
  const scores = store.readScores(id);
  log.push({
    action: 'read',
    file: `candidates/${id}/scores.json`,
    failed: scores.tasks.filter((t) => !t.pass).length,
  });
  const views: TraceView[] = [];
  for (const name of store.listTraces(id)) {
    const file = join(store.tracesDir(id), `${name}.json`);
    const view = viewTrace(JSON.parse(readFileSync(file, 'utf8')) as unknown);
    log.push({ action: 'read', file: `candidates/${id}/traces/${name}.json` });
    if (view && !view.pass) views.push(view);
  }
  return views;
}

/** The single-mechanism changes of a parent, best guess first. */
function changesOf(parent: Parent, symptoms: { symptom: Symptom; count: number }[], rng: Rng): Change[] {
  const r = parent.recipe;
  const from = parent.row.id;
  const uncovered = symptoms.filter((s) => !r.rules.includes(s.symptom));
  const rules = uncovered.map(({ symptom, count }) => ({
    mechanism: 'prompt rule',
    recipe: { ...r, rules: [...r.rules, symptom] },
    hypothesis: `${count} failed trace(s) of ${from} show the symptom "${symptom}"; a rule addressing it should make that mistake rarer.`,
  }));
  const errors = symptoms.find((s) => s.symptom === 'does-not-run')?.count ?? 0;
  const others: Change[] = [];
  if (r.repairs === 0)
    others.push({
      mechanism: 'verify through the observer',
      recipe: { ...r, repairs: 2 },
      hypothesis: `${errors} failed trace(s) of ${from} did not run; running the program and repairing what the observer shows should fix them.`,
    });
  else
    others.push({
      mechanism: 'budget',
      recipe: { ...r, repairs: errors > 0 ? Math.min(3, r.repairs + 1) : Math.max(1, r.repairs - 1) },
      hypothesis:
        errors > 0
          ? `${errors} trace(s) of ${from} still end with an execution error: one more repair may fix them.`
          : `no failed trace of ${from} ends with an execution error: one repair fewer should save tokens at no loss.`,
    });
  if (!r.retrieve)
    others.push({
      mechanism: 'retrieve verified examples',
      recipe: { ...r, retrieve: true },
      hypothesis: `showing earlier solutions of similar statements that ran cleanly may steer ${from}'s answers.`,
    });
  if (!r.notes && errors > 0)
    others.push({
      mechanism: 'memory',
      recipe: { ...r, notes: true },
      hypothesis: `remembering the execution errors of earlier tasks may keep ${from} from repeating them.`,
    });
  // The most frequent symptom's rule leads; the other changes follow in seeded order.
  return [...rules.slice(0, 1), ...rng.shuffle([...rules.slice(1), ...others])];
}

/** Evaluated candidates, best first (Pass@final ↓, tokens ↑, earlier first). */
function ranked(rows: readonly EvolutionRow[]): EvolutionRow[] {
  return rows
    .filter((r) => r.outcome === 'evaluated' && r.passAtFinal !== null)
    .map((r, i) => ({ r, i }))
    .sort(
      (a, b) =>
        (b.r.passAtFinal as number) - (a.r.passAtFinal as number) ||
        (a.r.meanTokens as number) - (b.r.meanTokens as number) ||
        a.i - b.i,
    )
    .map(({ r }) => r);
}

/** The seeded sim proposer (simulated = true). */
export function createSimProposer(options: SimProposerOptions): Proposer {
  const language: DiagnosisLanguage =
    options.language === 'regex'
      ? 'regex'
      : options.language === 'bird' || options.language === 'sql'
        ? 'sql'
        : 'other';
  return {
    name: 'sim',
    simulated: true,
    async propose(input: ProposeInput) {
      const { store } = input;
      const log: unknown[] = [{ action: 'read', file: 'evolution.jsonl' }];
      const rows = store.readEvolution();
      const seen = new Set<string>();
      const parents: Parent[] = [];
      for (const row of ranked(rows)) {
        const recipe = recipeOf(store, row.id, log);
        if (recipe) parents.push({ row, recipe });
      }
      for (const id of store.listCandidates())
        if (rows.some((r) => r.id === id)) {
          const recipe = recipeOf(store, id, log);
          if (recipe) seen.add(recipeKey(recipe));
        }
      const rng = new Rng(deriveSeed(options.seed, 'sim-proposer', input.iteration));
      const plans: (Change & { parent: string })[] = [];
      // Copy the best candidate and change one mechanism; when its changes run out, the next best.
      for (const parent of parents) {
        if (plans.length >= input.candidateIds.length) break;
        const symptoms = rankSymptoms(failedViews(store, parent.row.id, log), language);
        log.push({ action: 'diagnose', candidate: parent.row.id, symptoms });
        for (const change of changesOf(parent, symptoms, rng)) {
          if (plans.length >= input.candidateIds.length) break;
          const key = recipeKey(change.recipe);
          if (seen.has(key)) continue;
          seen.add(key);
          plans.push({ ...change, parent: parent.row.id });
        }
      }
      input.candidateIds.forEach((id, i) => {
        const plan = plans[i];
        if (!plan) {
          log.push({ action: 'skip', candidate: id, reason: 'no untried single-mechanism change left' });
          return;
        }
        store.writeHarness(id, renderHarness(id, plan.recipe));
        store.writeProposal({
          id,
          iteration: input.iteration,
          parent: plan.parent,
          hypothesis: plan.hypothesis,
          mechanism: `${plan.mechanism} (${describeRecipe(plan.recipe)})`,
          proposer: 'sim',
        });
        log.push({ action: 'write', files: [`candidates/${id}/harness.ts`, `candidates/${id}/proposal.json`] });
      });
      return { transcript: log };
    },
  };
}
