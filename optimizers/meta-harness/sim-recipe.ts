/**
 * The sim proposer's candidates as recipes — which documented seed mechanisms a harness combines —
 * and the harness module each recipe renders to. The recipe is written into the module as its
 * first line (`// sim-recipe: {...}`), so a later iteration reads it back from harness.ts.
 */
import { ADVICE, type Symptom } from './sim-diagnosis.ts';

export interface Recipe {
  /** Prompt rules added to the instructions, by symptom. */
  rules: Symptom[];
  /** Repairs after an observed execution error (0: no verification through the observer). */
  repairs: number;
  /** Retrieve earlier verified solutions of similar statements as examples (a memory across tasks). */
  retrieve: boolean;
  /** Remember the execution errors of earlier tasks and show them as things to avoid. */
  notes: boolean;
}

export const EMPTY_RECIPE: Recipe = { rules: [], repairs: 0, retrieve: false, notes: false };

/** The seed harnesses' mechanisms as recipes (hero-t and react verify through the observer, as self-verify does). */
export const SEED_RECIPES: Readonly<Record<string, Recipe>> = {
  'zero-shot': EMPTY_RECIPE,
  'self-verify': { ...EMPTY_RECIPE, repairs: 3 },
  'hero-t': { ...EMPTY_RECIPE, repairs: 2 },
  react: { ...EMPTY_RECIPE, repairs: 2 },
  cheatsheet: { ...EMPTY_RECIPE, retrieve: true },
};

const MARK = '// sim-recipe: ';

/** A stable key of a recipe (two candidates with one key are the same harness). */
export function recipeKey(recipe: Recipe): string {
  return JSON.stringify({ ...recipe, rules: [...recipe.rules].sort() });
}

/** The recipe a sim-written harness carries on its first line, or null. */
export function readRecipe(source: string): Recipe | null {
  const line = source.split('\n', 1)[0] ?? '';
  if (!line.startsWith(MARK)) return null;
  try {
    const r = JSON.parse(line.slice(MARK.length)) as Recipe;
    const known = Object.keys(ADVICE);
    if (!Array.isArray(r.rules) || !r.rules.every((s) => known.includes(s))) return null;
    if (!Number.isInteger(r.repairs) || typeof r.retrieve !== 'boolean' || typeof r.notes !== 'boolean') return null;
    return r;
  } catch {
    return null;
  }
}

/** The harness module of a recipe. */
export function renderHarness(name: string, recipe: Recipe): string {
  const rules = recipe.rules.map((s) => ADVICE[s]);
  const memory = recipe.retrieve || recipe.notes;
  return `${MARK}${JSON.stringify(recipe)}
/**
 * ${name}: written by the sim proposer. Mechanisms: ${describeRecipe(recipe)}.
 */
import { BudgetExceededError, defineHarness, ModelCallFailedError, type JsonObject } from 'witness-harness';

const RULES: string[] = ${JSON.stringify(rules, null, 2)};
const REPAIRS: number = ${recipe.repairs};
const RETRIEVE: boolean = ${recipe.retrieve};
const NOTES: boolean = ${recipe.notes};
const SHOW = 3;
const KEEP = 30;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);

function similar(statement: string, solved: string[][]): string[][] {
  const mine = words(statement);
  const score = (s: string[]) => [...words(s[0] ?? '')].filter((w) => mine.has(w)).length;
  return [...solved].sort((a, b) => score(b) - score(a)).slice(0, SHOW);
}

function readSolved(memory: JsonObject): string[][] {
  const list = Array.isArray(memory.solved) ? memory.solved : [];
  return list.map(strings).filter((pair) => pair.length === 2);
}

export default defineHarness({
  name: ${JSON.stringify(name)},
  memory: ${memory},
  async solve(ctx) {
    const solved = RETRIEVE ? readSolved(ctx.memory) : [];
    const notes = NOTES ? strings(ctx.memory.notes) : [];
    const parts: string[] = [];
    if (RULES.length > 0) parts.push(\`Rules:\\n\${RULES.map((r) => \`- \${r}\`).join('\\n')}\`);
    const examples = similar(ctx.task.description, solved);
    if (examples.length > 0)
      parts.push(\`Earlier solutions that ran cleanly:\\n\${examples.map((s) => \`Task: \${s[0]}\\n\${s[1]}\`).join('\\n\\n')}\`);
    if (notes.length > 0) parts.push(\`Earlier programs failed to run with:\\n- \${notes.join('\\n- ')}\`);
    const first = await ctx.model.answer(parts.length > 0 ? { system: parts.join('\\n\\n') } : {});
    let program = first.program;
    if (program === null) return { program: null };
    if (REPAIRS === 0 && !memory()) return { program };
    try {
      for (let repair = 0; ; repair++) {
        const observation = await ctx.exec.observe(program);
        if (observation.ok) {
          if (RETRIEVE) ctx.memory.solved = [...solved, [ctx.task.description, program]].slice(-KEEP);
          break;
        }
        if (NOTES && observation.error)
          ctx.memory.notes = [...notes, \`\${observation.error.kind}: \${observation.error.message.slice(0, 120)}\`].slice(-5);
        if (repair >= REPAIRS) break;
        const reply = await ctx.model.chat([
          {
            role: 'system',
            content: \`You repair \${ctx.task.language} programs. Reply with the corrected program in one fenced code block.\`,
          },
          // The program as the model's own turn, so the conversation reads as a follow-up to its answer.
          { role: 'user', content: \`Task: \${ctx.task.description}\` },
          { role: 'assistant', content: \`\\\`\\\`\\\`\${ctx.task.language}\\n\${program}\\n\\\`\\\`\\\`\` },
          { role: 'user', content: \`Running it showed:\\n\${ctx.exec.format(observation)}\\n\\nFix the program.\` },
        ]);
        if (reply.program === null || reply.program.trim() === program.trim()) break;
        program = reply.program;
      }
    } catch (error) {
      if (!(error instanceof BudgetExceededError || error instanceof ModelCallFailedError)) throw error;
      ctx.log(\`budget: \${error.message}\`);
    }
    return { program };
  },
});

function memory(): boolean {
  return RETRIEVE || NOTES;
}
`;
}

/** The recipe in words. */
export function describeRecipe(recipe: Recipe): string {
  const parts = [
    recipe.rules.length > 0 ? `prompt rules for ${recipe.rules.join(', ')}` : '',
    recipe.repairs > 0 ? `verify through the observer with up to ${recipe.repairs} repairs` : '',
    recipe.retrieve ? 'retrieve verified examples' : '',
    recipe.notes ? 'a memory of execution errors' : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : 'answer once (zero-shot)';
}
