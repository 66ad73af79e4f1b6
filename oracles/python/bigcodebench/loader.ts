/**
 * BigCodeBench tasks from its JSON Lines file (`BigCodeBench.jsonl[.gz]`, the hard subset
 * `BigCodeBench-Hard.jsonl[.gz]`): task_id, instruct_prompt, complete_prompt, code_prompt,
 * canonical_solution, test (a unittest module with class TestCases), entry_point, libs (a Python
 * list literal). What the model sees depends on the split, as BigCodeBench builds its chat prompt:
 * `instruct` = instruct_prompt; `complete` = complete_prompt in a code fence (the prompt template
 * adds the instruction prefix). The reference program is code_prompt + canonical_solution. A broken
 * line becomes an issue naming file and line.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedTasks } from '../../../core/types.ts';
import { loadJsonlTasks } from '../jsonl.ts';

export const BIGCODEBENCH_SPLIT_NAMES = ['instruct', 'complete'] as const;
export type BigCodeBenchSplit = (typeof BIGCODEBENCH_SPLIT_NAMES)[number];
export type BigCodeBenchSubset = 'full' | 'hard';

/** The file names of each subset in a data folder (matched ignoring case), as the release and its Hugging Face export name them. */
export const BIGCODEBENCH_FILES: Record<BigCodeBenchSubset, readonly string[]> = {
  full: ['BigCodeBench.jsonl', 'BigCodeBench.jsonl.gz'],
  hard: ['BigCodeBench-Hard.jsonl', 'BigCodeBench-Hard.jsonl.gz'],
};

/** A split name checked: `instruct` or `complete`, else an error listing them. */
export function bigCodeBenchSplit(split: string): BigCodeBenchSplit {
  if ((BIGCODEBENCH_SPLIT_NAMES as readonly string[]).includes(split)) return split as BigCodeBenchSplit;
  throw new Error(
    `bigcodebench: unknown split ${JSON.stringify(split)} (known: ${BIGCODEBENCH_SPLIT_NAMES.join(', ')})`,
  );
}

/**
 * The dataset file for `data`: the file itself, or in a folder the subset's file (see
 * BIGCODEBENCH_FILES). Throws naming what was looked for.
 */
export function bigCodeBenchFile(data: string, subset: BigCodeBenchSubset): string {
  if (!existsSync(data)) throw new Error(`bigcodebench data ${data} does not exist`);
  if (!statSync(data).isDirectory()) return data;
  const wanted = BIGCODEBENCH_FILES[subset].map((n) => n.toLowerCase());
  const found = readdirSync(data)
    .filter((name) => wanted.includes(name.toLowerCase()))
    .sort((a, b) => wanted.indexOf(a.toLowerCase()) - wanted.indexOf(b.toLowerCase()));
  if (!found[0])
    throw new Error(
      `bigcodebench data ${data} has no ${subset} subset (looked for ${BIGCODEBENCH_FILES[subset].join(' or ')})`,
    );
  return join(data, found[0]);
}

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

/** What the model is shown for a task in a split. */
function shownPrompt(split: BigCodeBenchSplit, fields: { instruct_prompt: string; complete_prompt: string }): string {
  return split === 'instruct' ? fields.instruct_prompt : '```\n' + fields.complete_prompt.trim() + '\n```';
}

/** BigCodeBench tasks from a JSON Lines file, shown in the given split (default `instruct`). */
export function loadBigCodeBench(
  path: string,
  benchmark = 'bigcodebench',
  split: BigCodeBenchSplit = 'instruct',
): LoadedTasks {
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
        description: shownPrompt(split, fields),
        gold: fields.code_prompt + fields.canonical_solution,
        context: {
          codePrompt: fields.code_prompt,
          completePrompt: fields.complete_prompt,
          entryPoint: fields.entry_point,
          libs,
          split,
          test: fields.test,
        },
      };
    },
    libsAsText,
  );
}
