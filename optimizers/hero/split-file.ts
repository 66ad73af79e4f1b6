/**
 * HERO's split file: the pools and the evaluation split of one suite's data, written once so that
 * an optimization run repeats exactly (`witness split`, `witness optimize hero --split-file`). It
 * records where the data came from and a checksum of its task ids, so a file used with other data
 * is refused instead of silently drawing different pools.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { HeroSplit } from './splits.ts';

export const SPLIT_FILE_SCHEMA = 'witness.hero-split';

/** One side of the data (optimization or evaluation): which split of which source, and its ids' checksum. */
export interface SplitSource {
  /** The data split it was read from (`train`, `dev`, `test`), or null for the suite's only one. */
  split: string | null;
  tasks: number;
  /** SHA-256 of the sorted task ids, one per line. */
  checksum: string;
}

export interface HeroSplitFile {
  schema: typeof SPLIT_FILE_SCHEMA;
  version: 1;
  suite: string;
  /** The data folder or file, or null for the fixtures shipped with Witness. */
  data: string | null;
  seed: number;
  /** What the pools are disjoint by (`db_id`, `graph`), or null when by task. */
  groupedBy: string | null;
  protocol: string;
  optimization: SplitSource;
  evaluation: SplitSource;
  pools: HeroSplit;
}

/** SHA-256 of the sorted ids, one per line: the same set of tasks gives the same checksum. */
export function idsChecksum(ids: readonly string[]): string {
  return createHash('sha256')
    .update([...ids].sort().join('\n'))
    .digest('hex');
}

/** Reads a split file; an error names the file and what is wrong with it. */
export function readSplitFile(path: string): HeroSplitFile {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path}: not a HERO split file: ${(error as Error).message}`);
  }
  const v = value as Partial<HeroSplitFile>;
  if (v?.schema !== SPLIT_FILE_SCHEMA || v.version !== 1)
    throw new Error(`${path}: not a HERO split file (expected "schema": "${SPLIT_FILE_SCHEMA}", "version": 1)`);
  const pools = v.pools as Partial<HeroSplit> | undefined;
  for (const key of ['diagnosis', 'update', 'selection', 'evaluation'] as const) {
    const list = pools?.[key];
    if (!Array.isArray(list) || list.some((id) => typeof id !== 'string'))
      throw new Error(`${path}: pools.${key} must be a list of task ids`);
  }
  if (typeof v.suite !== 'string' || typeof v.optimization?.checksum !== 'string')
    throw new Error(`${path}: a HERO split file needs "suite" and "optimization.checksum"`);
  return v as HeroSplitFile;
}

/** Null when the file fits this suite and these optimization tasks, else why not. */
export function splitFileMismatch(
  file: HeroSplitFile,
  path: string,
  suite: string,
  optimizationIds: readonly string[],
): string | null {
  if (file.suite !== suite) return `${path} is the split of suite ${file.suite}, not ${suite}`;
  const checksum = idsChecksum(optimizationIds);
  if (checksum !== file.optimization.checksum)
    return (
      `${path} was written for other data: ${file.optimization.tasks} optimization tasks (checksum ${file.optimization.checksum.slice(0, 12)}…) ` +
      `from ${file.data ?? 'the fixtures'}, but the data now has ${optimizationIds.length} (checksum ${checksum.slice(0, 12)}…); ` +
      'write a new split file (witness split) or point at the same data'
    );
  return null;
}
