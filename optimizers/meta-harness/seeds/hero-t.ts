/**
 * HERO-T-like: observation-driven refinement with an evidence gate. Answer; gather evidence (run
 * the program, probe the environment; up to three actions); let the model propose one revision;
 * accept it only if it changes the program, executes without error, returns a non-empty result,
 * and a judge call finds every change supported by the evidence. Otherwise keep the answer.
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

async function propose(ctx: HarnessContext, program: string, evidence: string[]) {
  const fence = (p: string) => `\`\`\`${ctx.task.language}\n${p}\n\`\`\``;
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content:
        `You refine a ${ctx.task.language} program using evidence. Reply with one JSON object: ` +
        '{"action": "execute"}, {"action": "probe"}, {"action": "revise", "rationale": "…"} followed by the full program in a fenced block, ' +
        'or {"action": "keep", "rationale": "…"}. Change only what the evidence supports.',
    },
    { role: 'user', content: `Task: ${ctx.task.description}\n\nProgram:\n${fence(program)}` },
  ];
  let actions = 0;
  for (let step = 0; step < ACTIONS + 2; step++) {
    const reply = await ctx.model.chat(messages);
    messages.push({ role: 'assistant', content: reply.text });
    const action = parseJsonObject(reply.text);
    const rationale = typeof action?.rationale === 'string' ? action.rationale : '';
    if (action?.action === 'keep') return null;
    if (action?.action === 'revise') return reply.program ? { program: reply.program, rationale } : null;
    let seen: string;
    if (actions >= ACTIONS) seen = 'No evidence actions are left: revise or keep.';
    else if (action?.action === 'execute') {
      actions++;
      seen = ctx.exec.format(await ctx.exec.observe(program));
      evidence.push(`[execute] ${seen}`);
    } else if (action?.action === 'probe') {
      actions++;
      seen = (await ctx.exec.describe()).slice(0, 1500);
      evidence.push(`[probe] ${seen}`);
    } else seen = 'Not a valid action; reply with one JSON object.';
    messages.push({ role: 'user', content: `${seen}\n\nEvidence actions left: ${ACTIONS - actions}.` });
  }
  return null;
}

async function gate(ctx: HarnessContext, program: string, revision: string, rationale: string, evidence: string[]) {
  if (revision.trim() === program.trim()) return 'unchanged';
  const observed = await ctx.exec.observe(revision);
  if (!observed.ok) return `does not execute: ${observed.error?.message ?? ''}`;
  if (observed.shape?.rows === 0) return 'empty result';
  evidence.push(`[execute revision] ${ctx.exec.format(observed)}`);
  const verdict = await ctx.model.chat(
    [
      {
        role: 'system',
        content:
          'You review a proposed revision. End with VERDICT: SUPPORTED if every change is supported by the evidence, else VERDICT: UNSUPPORTED.',
      },
      {
        role: 'user',
        content: `Task: ${ctx.task.description}\n\nEvidence:\n${evidence.join('\n\n') || '(none)'}\n\nCurrent:\n${program}\n\nRevision:\n${revision}\n\nRationale: ${rationale || '(none)'}`,
      },
    ],
    { purpose: 'judge' },
  );
  const match = /VERDICT:\s*(SUPPORTED|UNSUPPORTED)/i.exec(verdict.text);
  return match?.[1]?.toUpperCase() === 'SUPPORTED' ? null : 'the judge found it unsupported';
}

export default defineHarness({
  name: 'hero-t',
  async solve(ctx) {
    const { program } = await ctx.model.answer();
    if (program === null) return { program: null };
    const evidence: string[] = [];
    try {
      const proposal = await propose(ctx, program, evidence);
      if (!proposal) return { program, rationale: 'kept' };
      const rejected = await gate(ctx, program, proposal.program, proposal.rationale, evidence);
      ctx.log({ gate: rejected ?? 'accepted' });
      return rejected ? { program, rationale: `revision rejected: ${rejected}` } : proposal;
    } catch (error) {
      if (error instanceof BudgetExceededError || error instanceof ModelCallFailedError)
        return { program, rationale: error.message };
      throw error;
    }
  },
});
