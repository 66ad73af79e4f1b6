/**
 * BigCodeBench tasks from its JSON Lines file (`BigCodeBench.jsonl[.gz]`): task_id,
 * instruct_prompt (what the model sees, Instruct split), complete_prompt, code_prompt,
 * canonical_solution, test (a unittest module with class TestCases), entry_point, libs (a Python
 * list literal). The reference program is code_prompt + canonical_solution. A broken line becomes an
 * issue naming file and line.
 */
import { basename } from 'node:path';
import type { LoadedTasks, Task } from '../../../core/types.ts';
import { readJsonl, stringFields } from '../jsonl.ts';

export const BIGCODEBENCH_FIELDS = ['task_id', 'instruct_prompt', 'complete_prompt', 'code_prompt', 'canonical_solution', 'test', 'entry_point', 'libs'] as const;

/** `"['random', 'itertools']"` → ['random', 'itertools'] (the libs field is a Python list literal). */
export function parseLibs(text: string): string[] | null {
  const trimmed = text.trim();
  if (!/^\[.*\]$/s.test(trimmed)) return null;
  const libs = [...trimmed.matchAll(/'([^'\\]*)'|"([^"\\]*)"/g)].map((m) => (m[1] ?? m[2] ?? '').trim()).filter(Boolean);
  return [...new Set(libs)];
}

export function loadBigCodeBench(path: string, benchmark = 'bigcodebench'): LoadedTasks {
  const { records, issues: parseIssues } = readJsonl(path);
  const name = basename(path);
  const issues = parseIssues.map((i) => ({ item: `${name}:${i.line}`, message: i.message }));
  const tasks: Task[] = [];
  const seen = new Set<string>();
  for (const { line, value } of records) {
    const item = `${name}:${line}`;
    const raw = { ...value, libs: Array.isArray(value.libs) ? JSON.stringify(value.libs) : value.libs };
    const { fields, missing } = stringFields(raw, BIGCODEBENCH_FIELDS);
    if (missing.length) {
      issues.push({ item, message: `missing or non-string field(s): ${missing.join(', ')}` });
      continue;
    }
    const libs = parseLibs(fields.libs);
    if (!libs) {
      issues.push({ item, message: `libs of ${fields.task_id} is not a list literal: ${fields.libs.slice(0, 80)}` });
      continue;
    }
    if (!/class\s+TestCases\b/.test(fields.test)) {
      issues.push({ item, message: `the test of ${fields.task_id} defines no class TestCases` });
      continue;
    }
    if (seen.has(fields.task_id)) {
      issues.push({ item, message: `task_id ${fields.task_id} appears twice` });
      continue;
    }
    seen.add(fields.task_id);
    tasks.push({
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
      meta: { source: name, line },
    });
  }
  return { tasks, issues };
}
