/**
 * A host for the leftovers test (`job-folder.test.ts`): with TMPDIR set to argv[2], it runs one
 * episode of a harness that idles after its answer, and waits — to be killed with SIGKILL, leaving
 * its staged folder behind. Run with `node --import tsx`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inlinePrompt } from '../../core/prompt.ts';
import { createSimModel } from '../../core/models/sim.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { evaluateHarness } from '../../optimizers/meta-harness/evaluate.ts';

const dir = process.argv[2] as string;
process.env.TMPDIR = dir;
const file = join(dir, 'idles.ts');
writeFileSync(
  file,
  "import { defineHarness } from 'witness-harness';\nexport default defineHarness({ name: 'idles', async solve(ctx) {\n  await ctx.model.answer();\n  return await new Promise<never>(() => setInterval(() => {}, 1000));\n} });\n",
);
await evaluateHarness({
  harnessFile: file,
  oracle: regexOracle(),
  tasks: [{ id: 'dog-lines', benchmark: 'orphan', description: "lines containing 'dog'", gold: '.*dog.*' }],
  model: createSimModel({ seed: 1 }),
  prompt: inlinePrompt('--- user ---\nWrite a regex for: {{description}}\n'),
  budgets: { wallMs: 120_000 },
});
