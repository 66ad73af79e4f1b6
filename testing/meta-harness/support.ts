/** Test helpers of the Meta-Harness tests: regex tasks, a prompt, harness modules written to a folder, and a sandbox temporary folder per test file. */
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { inlinePrompt } from '../../core/prompt.ts';
import type { Task } from '../../core/types.ts';
import { processesWith, waitFor } from '../processes/scan.ts';

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

/**
 * A fresh folder for this test file, made the sandboxes' temporary folder (TMPDIR) while its tests
 * run, so the file finds exactly its own job folders and sandbox processes; removed afterwards.
 */
export function sandboxTempFolder(prefix: string): () => string {
  let dir = '';
  let saved: string | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    chmodSync(dir, 0o755);
    saved = process.env.TMPDIR;
    process.env.TMPDIR = dir;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });
  return () => dir;
}

/** What the sandboxes of `dir` left: their processes (after up to 5 s) and their job folders. */
export async function sandboxLeftovers(dir: string): Promise<{ processes: number[]; folders: string[] }> {
  const processes = await waitFor(
    () => processesWith(`${dir}/witness-harness-`),
    (pids) => pids.length === 0,
    5000,
  );
  return { processes, folders: readdirSync(dir).filter((name) => name.startsWith('witness-harness-')) };
}
