/** Test helpers of the Meta-Harness tests: regex tasks, a prompt, and harness modules written to a folder. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inlinePrompt } from '../../core/prompt.ts';
import type { Task } from '../../core/types.ts';

export const REGEX_TASKS: Task[] = [
  { id: 'dog-lines', benchmark: 'hostile', description: "lines containing the string 'dog'", gold: '.*dog.*' },
  { id: 'cat-start', benchmark: 'hostile', description: "lines starting with the string 'cat'", gold: 'cat.*' },
];

export const REGEX_PROMPT = inlinePrompt(
  '--- system ---\nYou write regexes.\n--- user ---\nWrite a regex for: {{description}}\n',
);

/** Writes `<dir>/<name>.ts`: a harness whose solve runs `body` after the model's answer (as a real candidate would), then returns the answer. */
export function writeHarness(dir: string, name: string, body: string, header = ''): string {
  const file = join(dir, `${name}.ts`);
  writeFileSync(
    file,
    `import { defineHarness } from 'witness-harness';\n${header}\nexport default defineHarness({\n  name: '${name}',\n  async solve(ctx) {\n    const first = await ctx.model.answer();\n${body}\n    return { program: first.program };\n  },\n});\n`,
  );
  return file;
}
