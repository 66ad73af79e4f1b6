/**
 * Cheatsheet: a memory across tasks. Each task is answered with the cheatsheet — general rules a
 * curator call keeps, and up to three earlier solutions that executed cleanly, the most similar
 * statements first — added to the instructions; then the program is run through the observer, a
 * clean run is remembered as a verified solution, and the curator rewrites the rules.
 */
import { BudgetExceededError, defineHarness, ModelCallFailedError, type JsonObject } from 'witness-harness';

const KEEP_SOLUTIONS = 30;
const SHOW_SOLUTIONS = 3;
const MAX_RULE_LINES = 20;

interface Solved {
  statement: string;
  program: string;
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);

function similar(statement: string, solved: Solved[]): Solved[] {
  const mine = words(statement);
  const score = (s: Solved) => [...words(s.statement)].filter((w) => mine.has(w)).length;
  return [...solved].sort((a, b) => score(b) - score(a)).slice(0, SHOW_SOLUTIONS);
}

function readMemory(memory: JsonObject): { rules: string; solved: Solved[] } {
  const rules = typeof memory.rules === 'string' ? memory.rules : '';
  const solved = Array.isArray(memory.solved)
    ? memory.solved.flatMap((s) =>
        s &&
        typeof s === 'object' &&
        !Array.isArray(s) &&
        typeof s.statement === 'string' &&
        typeof s.program === 'string'
          ? [{ statement: s.statement, program: s.program }]
          : [],
      )
    : [];
  return { rules, solved };
}

export default defineHarness({
  name: 'cheatsheet',
  memory: true,
  async solve(ctx) {
    const { rules, solved } = readMemory(ctx.memory);
    const examples = similar(ctx.task.description, solved)
      .map((s) => `Task: ${s.statement}\n${s.program}`)
      .join('\n\n');
    const sheet = [
      rules && `Rules from earlier tasks:\n${rules}`,
      examples && `Earlier solutions that ran cleanly:\n${examples}`,
    ]
      .filter(Boolean)
      .join('\n\n');
    const { program } = await ctx.model.answer(sheet ? { system: sheet } : {});
    if (program === null) return { program: null };
    try {
      const observation = await ctx.exec.observe(program);
      if (observation.ok && observation.shape?.rows !== 0) {
        solved.push({ statement: ctx.task.description, program });
        ctx.memory.solved = solved.slice(-KEEP_SOLUTIONS).map((s) => ({ ...s }));
      }
      const curated = await ctx.model.chat(
        [
          {
            role: 'system',
            content:
              'You keep a cheatsheet of reusable strategies. Reply with the whole updated cheatsheet in a ```cheatsheet block.',
          },
          {
            role: 'user',
            content:
              `Current cheatsheet${rules ? '' : ' (empty so far)'}:\n\`\`\`cheatsheet\n${rules}\n\`\`\`\n\nTask: ${ctx.task.description}\n` +
              `Program:\n${program}\n\nRunning it showed:\n${ctx.exec.format(observation)}`,
          },
        ],
        { purpose: 'memory' },
      );
      const block = /```cheatsheet\n([\s\S]*?)```/.exec(curated.text)?.[1]?.trim();
      if (block) ctx.memory.rules = block.split('\n').slice(0, MAX_RULE_LINES).join('\n');
    } catch (error) {
      if (!(error instanceof BudgetExceededError || error instanceof ModelCallFailedError)) throw error;
      ctx.log(`budget: ${error.message}`);
    }
    return { program };
  },
});
