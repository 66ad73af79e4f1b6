/** Zero-shot: the model answers the task's prompt once; that program is the answer. */
import { defineHarness } from 'witness-harness';

export default defineHarness({
  name: 'zero-shot',
  async solve(ctx) {
    const { program } = await ctx.model.answer();
    return { program };
  },
});
