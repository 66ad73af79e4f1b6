/**
 * Small copies of the Python benchmarks' official files, generated for tests from the fixture
 * tasks: a BigCodeBench folder as the Hugging Face export names its files (`BigCodeBench.jsonl`
 * with the full set, `BigCodeBench-Hard.jsonl` with a few tasks, optionally gzipped, `libs` as the
 * Python list literal the release has) and a DSCodeBench `DSCodeBench.json` (JSON Lines despite the
 * name). `badLine` adds a broken line so loaders and checkers can be seen naming it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { packagePath } from '../../core/package-root.ts';

const fixture = (path: string) => packagePath('fixtures', path);
const records = (path: string) =>
  readFileSync(fixture(path), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The fixture tasks the generated hard subset holds. */
export const HARD_TASK_IDS = ['WitnessBCB/0', 'WitnessBCB/3', 'WitnessBCB/9'];

/** A line of the official file: `libs` as a Python list literal, as in the release. */
function officialLine(task: Record<string, unknown>): string {
  const libs = Array.isArray(task.libs) ? `[${task.libs.map((l) => `'${String(l)}'`).join(', ')}]` : task.libs;
  return JSON.stringify({ ...task, libs });
}

export interface BigCodeBenchFolderOptions {
  /** Write `.jsonl.gz` files instead of `.jsonl` (default false). */
  gzip?: boolean;
  /** A line that is not JSON, put after the first task of both files (default false). */
  badLine?: boolean;
}

/** Writes a BigCodeBench data folder into `dir`; returns the two file paths and the task ids. */
export function writeBigCodeBenchFolder(
  dir: string,
  options: BigCodeBenchFolderOptions = {},
): { full: string; hard: string; fullIds: string[]; hardIds: string[] } {
  mkdirSync(dir, { recursive: true });
  const tasks = records('bigcodebench/bigcodebench.jsonl');
  const hard = tasks.filter((t) => HARD_TASK_IDS.includes(String(t.task_id)));
  const text = (list: Record<string, unknown>[]) => {
    const lines = list.map(officialLine);
    if (options.badLine) lines.splice(1, 0, '{"task_id": "BigCodeBench/broken", ');
    return `${lines.join('\n')}\n`;
  };
  const write = (name: string, list: Record<string, unknown>[]) => {
    const path = join(dir, options.gzip ? `${name}.gz` : name);
    writeFileSync(path, options.gzip ? gzipSync(text(list)) : text(list));
    return path;
  };
  return {
    full: write('BigCodeBench.jsonl', tasks),
    hard: write('BigCodeBench-Hard.jsonl', hard),
    fullIds: tasks.map((t) => String(t.task_id)),
    hardIds: hard.map((t) => String(t.task_id)),
  };
}

/** Writes `DSCodeBench.json` (JSON Lines) with the fixture problems whose ids match `only` (default all). */
export function writeDsCodeBenchFile(
  dir: string,
  options: { only?: RegExp; badLine?: boolean } = {},
): { file: string; ids: string[] } {
  mkdirSync(dir, { recursive: true });
  const problems = records('dscodebench/dscodebench.jsonl').filter(
    (p) => !options.only || options.only.test(String(p.problem_id)),
  );
  const lines = problems.map((p) => JSON.stringify(p));
  if (options.badLine) lines.push('{"problem_id": "broken", "library": "NumPy"}');
  const file = join(dir, 'DSCodeBench.json');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, ids: problems.map((p) => String(p.problem_id)) };
}
