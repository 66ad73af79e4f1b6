/**
 * BigCodeBench tasks from its JSON Lines file (`BigCodeBench.jsonl[.gz]`): task_id,
 * instruct_prompt (what the model sees, Instruct split), complete_prompt, code_prompt,
 * canonical_solution, test (a unittest module with class TestCases), entry_point, libs (a Python
 * list literal). The reference program is code_prompt + canonical_solution. A broken line becomes an
 * issue naming file and line.
 */
import type { LoadedTasks } from '../../../core/types.ts';
import { loadJsonlTasks } from '../jsonl.ts';

export const BIGCODEBENCH_FIELDS = [
  'task_id',
  'instruct_prompt',
  'complete_prompt',
  'code_prompt',
  'canonical_solution',
  'test',
  'entry_point',
  'libs',
] as const;

/** `"['random', 'itertools']"` → ['random', 'itertools'] (the libs field is a Python list literal). */
export function parseLibs(text: string): string[] | null {
  const trimmed = text.trim();
  if (!/^\[.*\]$/s.test(trimmed)) return null;
  const libs = [...trimmed.matchAll(/'([^'\\]*)'|"([^"\\]*)"/g)]
    .map((m) => (m[1] ?? m[2] ?? '').trim())
    .filter(Boolean);
  return [...new Set(libs)];
}

export function loadBigCodeBench(path: string, benchmark = 'bigcodebench'): LoadedTasks {
  // libs may also come as a JSON array; it is checked as the list literal the official file has.
  const libsAsText = (value: Record<string, unknown>) => ({
    ...value,
    libs: Array.isArray(value.libs) ? JSON.stringify(value.libs) : value.libs,
  });
  return loadJsonlTasks(
    path,
    BIGCODEBENCH_FIELDS,
    'task_id',
    (fields) => {
      const libs = parseLibs(fields.libs);
      if (!libs) return { problem: `libs of ${fields.task_id} is not a list literal: ${fields.libs.slice(0, 80)}` };
      if (!/class\s+TestCases\b/.test(fields.test))
        return { problem: `the test of ${fields.task_id} defines no class TestCases` };
      return {
        id: fields.task_id,
        benchmark,
        description: fields.instruct_prompt,
        gold: fields.code_prompt + fields.canonical_solution,
        context: {
          codePrompt: fields.code_prompt,
          completePrompt: fields.complete_prompt,
          entryPoint: fields.entry_point,
          libs,
          test: fields.test,
        },
      };
    },
    libsAsText,
  );
}
