/**
 * Self-verify: answer, run the program through the observer, and on an execution error (or an
 * empty result) ask the model for a repair, up to three repairs; keep the last program that ran.
 */
import { BudgetExceededError, defineHarness, ModelCallFailedError } from 'witness-harness';

const MAX_REPAIRS = 3;

export default defineHarness({
  name: 'self-verify',
  async solve(ctx) {
    const first = await ctx.model.answer();
    let program = first.program;
    if (program === null) return { program: null };
    let lastGood: string | null = null;
    try {
      for (let repair = 0; repair <= MAX_REPAIRS; repair++) {
        const observation = await ctx.exec.observe(program);
        const empty = observation.ok && observation.shape?.rows === 0;
        if (observation.ok && !empty) return { program, rationale: 'it executes' };
        if (observation.ok) lastGood ??= program;
        if (repair === MAX_REPAIRS) break;
        const reply = await ctx.model.chat([
          {
            role: 'system',
            content: `You repair ${ctx.task.language} programs. Reply with the corrected program in one fenced code block.`,
          },
          {
            role: 'user',
            content:
              `Task: ${ctx.task.description}\n\nProgram:\n\`\`\`${ctx.task.language}\n${program}\n\`\`\`\n\n` +
              `Running it showed:\n${ctx.exec.format(observation)}\n\nFix the program.`,
          },
        ]);
        if (reply.program === null || reply.program.trim() === program.trim()) break;
        program = reply.program;
      }
    } catch (error) {
      if (!(error instanceof BudgetExceededError || error instanceof ModelCallFailedError)) throw error;
      ctx.log(`budget: ${error.message}`);
    }
    return { program: lastGood ?? program, rationale: 'repairs exhausted' };
  },
});
