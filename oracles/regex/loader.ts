/**
 * NL-RX-Turk loader: `src.txt` (one description per line) aligned with `targ.txt` (one brics regex
 * per line). Task ids are 1-based line numbers; every task carries `context.dialect = 'brics'`.
 * Misaligned files are an error naming both files; an empty line is an issue naming file and line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { processLoadedConfig } from '../../core/config.ts';
import type { LoadedTasks, Task, TaskIssue } from '../../core/types.ts';

export interface NlRxOptions {
  benchmark?: string;
  /** Only the first N lines. */
  limit?: number;
}

function readLines(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines;
}

export function loadNlRx(dir: string, options: NlRxOptions = {}): LoadedTasks {
  const benchmark = options.benchmark ?? 'nl-rx';
  const srcFile = join(dir, 'src.txt');
  const targFile = join(dir, 'targ.txt');
  const descriptions = readLines(srcFile);
  const golds = readLines(targFile);
  if (descriptions.length !== golds.length) {
    throw new Error(
      `${srcFile} has ${descriptions.length} lines but ${targFile} has ${golds.length}; they must align line by line`,
    );
  }
  const count = Math.min(golds.length, options.limit ?? Infinity);
  const tasks: Task[] = [];
  const issues: TaskIssue[] = [];
  for (let i = 0; i < count; i++) {
    const line = i + 1;
    const description = (descriptions[i] as string).trim();
    const gold = (golds[i] as string).trim();
    if (!description) issues.push({ item: `${srcFile}:${line}`, message: 'empty description' });
    else if (!gold) issues.push({ item: `${targFile}:${line}`, message: 'empty regex' });
    else
      tasks.push({
        id: String(line),
        benchmark,
        description,
        gold,
        context: { dialect: 'brics' },
        meta: { file: targFile, line },
      });
  }
  return { tasks, issues };
}

/** How to point Witness at the real NL-RX-Turk files, for messages when they are not found. */
export const NLRX_TURK_SETTING = 'suites["nl-rx"].data / NLRX_TURK_DIR (unset)';

/**
 * The real NL-RX-Turk folder: `dir` (default: the configured `suites['nl-rx'].data`, NLRX_TURK_DIR)
 * when it holds src.txt and targ.txt, else null. The files are not shipped: get them from
 * github.com/nicholaslocascio/deep-regex, datasets/NL-RX-Turk.
 */
export function findNlRxTurk(
  dir: string | undefined = processLoadedConfig().config.suites['nl-rx'].data,
): string | null {
  return dir && existsSync(join(dir, 'targ.txt')) && existsSync(join(dir, 'src.txt')) ? dir : null;
}
