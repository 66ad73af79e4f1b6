/**
 * NL-RX-Turk loader, in DeepRegex's two layouts: the raw release (`src.txt`, one description per
 * line, aligned with `targ.txt`, one brics regex per line; 10,000 pairs; split `all`) and the
 * paper's tokenized splits (`{src,targ}-{train,val,test}.txt`, 6,500 / 1,000 / 2,500; de-tokenized
 * on load). Either may sit in the folder itself or where a clone of the repository keeps it.
 * Task ids are 1-based line numbers (`<split>-<line>` for a split file); every task carries
 * `context.dialect = 'brics'`. Misaligned files are an error naming both files; an empty line or a
 * gold that does not parse as brics is an issue naming file and line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedTasks, Task, TaskIssue } from '../../core/types.ts';
import { parseBrics } from './brics.ts';
import { detokenize, detokenizeDescription } from './deepregex-tokens.ts';

export const NLRX_SPLITS = ['all', 'train', 'val', 'test'] as const;
export type NlRxSplit = (typeof NLRX_SPLITS)[number];

/** Where the official NL-RX-Turk files are published (never downloaded by Witness). */
export const NLRX_SOURCE = {
  name: 'NL-RX-Turk (DeepRegex)',
  url: 'https://github.com/nicholaslocascio/deep-regex (datasets/NL-RX-Turk; splits in deep-regex-model/data_turk_eval_turk)',
};

/** Where each layout may sit inside the given folder ('' = the folder itself; else a clone of the repository). */
const RAW_DIRS = ['', 'datasets/NL-RX-Turk'];
const SPLIT_DIRS = ['', 'deep-regex-model/data_turk_eval_turk'];

export interface NlRxFiles {
  split: NlRxSplit;
  src: string;
  targ: string;
  /** DeepRegex's tokenized form (the split files). */
  tokenized: boolean;
}

const pairIn = (dir: string, src: string, targ: string) =>
  existsSync(join(dir, src)) && existsSync(join(dir, targ)) ? { src: join(dir, src), targ: join(dir, targ) } : null;

/** The files of one split in a folder, or null when they are not there. */
function filesOf(dir: string, split: NlRxSplit): NlRxFiles | null {
  const tokenized = split !== 'all';
  for (const sub of tokenized ? SPLIT_DIRS : RAW_DIRS) {
    const pair = tokenized
      ? pairIn(join(dir, sub), `src-${split}.txt`, `targ-${split}.txt`)
      : pairIn(join(dir, sub), 'src.txt', 'targ.txt');
    if (pair) return { split, ...pair, tokenized };
  }
  return null;
}

/** The splits present in a folder: `all` for the raw files, train / val / test for DeepRegex's split files. */
export function nlRxSplitsIn(dir: string): NlRxSplit[] {
  return NLRX_SPLITS.filter((split) => filesOf(dir, split) !== null);
}

/**
 * The files of a split (default: the raw `all` when present, else `test`). An unknown split, or one
 * the folder does not have, is an error naming the known ones and what the folder holds.
 */
export function resolveNlRxFiles(dir: string, split?: string): NlRxFiles {
  if (split !== undefined && !NLRX_SPLITS.includes(split as NlRxSplit))
    throw new Error(`unknown nl-rx split "${split}" (known: ${NLRX_SPLITS.join(', ')})`);
  const wanted = (split as NlRxSplit | undefined) ?? (filesOf(dir, 'all') ? 'all' : 'test');
  const files = filesOf(dir, wanted);
  if (files) return files;
  const present = nlRxSplitsIn(dir);
  if (split === undefined && present.length === 0)
    throw new Error(
      `no NL-RX-Turk files in ${dir}: expected src.txt + targ.txt (the raw release, also under datasets/NL-RX-Turk/) ` +
        `or DeepRegex's src-{train,val,test}.txt + targ-{train,val,test}.txt (also under deep-regex-model/data_turk_eval_turk/). ` +
        `The official files are published at ${NLRX_SOURCE.url}`,
    );
  const needs =
    wanted === 'all' ? 'src.txt and targ.txt (the raw release)' : `src-${wanted}.txt and targ-${wanted}.txt`;
  const where = (wanted === 'all' ? RAW_DIRS : SPLIT_DIRS).map((sub) => join(dir, sub)).join(' or ');
  throw new Error(
    `nl-rx split "${wanted}" needs ${needs} in ${where}; ${present.length ? `this folder has the splits ${present.join(', ')}` : 'none found'}. ` +
      `The official files are published at ${NLRX_SOURCE.url}`,
  );
}

/** The lines of a text file, without the final empty line of a trailing newline. */
export function readLines(path: string): string[] {
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

export interface NlRxOptions {
  benchmark?: string;
  /** Only the first N lines. */
  limit?: number;
  /** `all` (the raw files) or DeepRegex's `train`, `val`, `test` (default: `all` when present, else `test`). */
  split?: string;
}

/** Why a gold is not a brics regex (its parse error), or null. */
function bricsProblem(gold: string): string | null {
  try {
    parseBrics(gold);
    return null;
  } catch (error) {
    return `not a brics regex: ${(error as Error).message}`;
  }
}

/** NL-RX-Turk pairs of a split as tasks (see the module comment). */
export function loadNlRx(dir: string, options: NlRxOptions = {}): LoadedTasks {
  const benchmark = options.benchmark ?? 'nl-rx';
  const files = resolveNlRxFiles(dir, options.split);
  const descriptions = readLines(files.src);
  const golds = readLines(files.targ);
  if (descriptions.length !== golds.length) {
    throw new Error(
      `${files.src} has ${descriptions.length} lines but ${files.targ} has ${golds.length}; they must align line by line`,
    );
  }
  const count = Math.min(golds.length, options.limit ?? Infinity);
  const tasks: Task[] = [];
  const issues: TaskIssue[] = [];
  for (let i = 0; i < count; i++) {
    const line = i + 1;
    const rawDescription = (descriptions[i] as string).trim();
    const rawGold = (golds[i] as string).trim();
    const description = files.tokenized ? detokenizeDescription(rawDescription) : rawDescription;
    const gold = files.tokenized ? detokenize(rawGold) : rawGold;
    const invalid = gold ? bricsProblem(gold) : null;
    if (!description) issues.push({ item: `${files.src}:${line}`, message: 'empty description' });
    else if (!gold) issues.push({ item: `${files.targ}:${line}`, message: 'empty regex' });
    else if (invalid) issues.push({ item: `${files.targ}:${line}`, message: invalid });
    else
      tasks.push({
        id: files.split === 'all' ? String(line) : `${files.split}-${line}`,
        benchmark,
        description,
        gold,
        context: { dialect: 'brics' },
        meta: { file: files.targ, line, split: files.split },
      });
  }
  return { tasks, issues };
}

/** How to point Witness at the real NL-RX-Turk files, for messages when they are not found. */
export const NLRX_TURK_SETTING = 'suites["nl-rx"].data / WITNESS_NLRX_DATA / NLRX_TURK_DIR (unset)';

/**
 * The real NL-RX-Turk folder: `dir` (the configured `suites['nl-rx'].data`, WITNESS_NLRX_DATA or
 * NLRX_TURK_DIR) when it holds src.txt and targ.txt, else null. The files are not shipped: get them
 * from github.com/nicholaslocascio/deep-regex, datasets/NL-RX-Turk.
 */
export function findNlRxTurk(dir: string | undefined): string | null {
  return dir && existsSync(join(dir, 'targ.txt')) && existsSync(join(dir, 'src.txt')) ? dir : null;
}
