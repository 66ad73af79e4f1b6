/**
 * ReAct-style: answer, then think and act for up to three evidence actions — execute the program
 * and observe, or probe the environment — and finally revise or keep; a revision is adopted as
 * proposed (no gate). One JSON action per model reply.
 */
import {
  BudgetExceededError,
  defineHarness,
  ModelCallFailedError,
  parseJsonObject,
  type ChatMessage,
  type HarnessContext,
} from 'witness-harness';

const ACTIONS = 3;

async function react(ctx: HarnessContext, program: string): Promise<string> {
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content:
        `You refine a ${ctx.task.language} program. Think, then reply with exactly one JSON object: ` +
        '{"action": "execute"} runs the program and shows its output, {"action": "probe"} describes the environment, ' +
        '{"action": "revise", "rationale": "…"} followed by the full revised program in a fenced block, or {"action": "keep", "rationale": "…"}.',
    },
    {
      role: 'user',
      content: `Task: ${ctx.task.description}\n\nProgram:\n\`\`\`${ctx.task.language}\n${program}\n\`\`\`\n\nYou have ${ACTIONS} evidence actions.`,
    },
  ];
  let actions = 0;
  for (let step = 0; step < ACTIONS + 2; step++) {
    const reply = await ctx.model.chat(messages);
    messages.push({ role: 'assistant', content: reply.text });
    const chosen = parseJsonObject(reply.text)?.action;
    if (chosen === 'keep') return program;
    if (chosen === 'revise') return reply.program ?? program;
    let evidence: string;
    if (actions >= ACTIONS) evidence = 'No evidence actions are left: reply with revise or keep.';
    else if (chosen === 'execute') {
      actions++;
      evidence = ctx.exec.format(await ctx.exec.observe(program));
    } else if (chosen === 'probe') {
      actions++;
      evidence = (await ctx.exec.describe()).slice(0, 1500);
    } else evidence = 'That was not a valid action. Reply with exactly one JSON object.';
    messages.push({ role: 'user', content: `${evidence}\n\nEvidence actions left: ${ACTIONS - actions}.` });
  }
  return program;
}

export default defineHarness({
  name: 'react',
  async solve(ctx) {
    const { program } = await ctx.model.answer();
    if (program === null) return { program: null };
    try {
      return { program: await react(ctx, program) };
    } catch (error) {
      if (error instanceof BudgetExceededError || error instanceof ModelCallFailedError)
        return { program, rationale: error.message };
      throw error;
    }
  },
});
