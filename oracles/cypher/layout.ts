/**
 * CypherBench's official data layout (Hugging Face `megagonlabs/cypherbench`): the question files
 * `test.json` / `train.json` at the top of the folder (the split is the file name), and one SimpleKG
 * JSON file per graph under `graphs/`. The release names them `graphs/simplekg/<graph>_simplekg.json`;
 * flatter copies (`graphs/<graph>_simplekg.json`, `graphs/<graph>.json`, …) are accepted too, tried in
 * the order of GRAPH_FILE_PATTERNS. The sampled graphs (`graphs/simplekg_sampled/`) are never used:
 * the answers were computed on the full graphs.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { resolveInside } from '../../core/paths-inside.ts';

/** The splits of the release, each a question file named after it. */
export const CYPHERBENCH_SPLITS = ['test', 'train'] as const;
export const DEFAULT_CYPHERBENCH_SPLIT = 'test';

/** Where a graph's file may be, relative to the data folder, in the order they are tried. */
export const GRAPH_FILE_PATTERNS = [
  'graphs/simplekg/<graph>_simplekg.json',
  'graphs/<graph>_simplekg.json',
  'graphs/simplekg/<graph>.json',
  'graphs/<graph>.json',
] as const;

/** A graph name as it may appear in file names: no path separators, no dots at the start. */
const GRAPH_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

export interface CypherBenchLayout {
  /** The data folder. */
  root: string;
  split: string;
  questionsFile: string;
}

/** Thrown when a folder is not in CypherBench's layout; the message names what is missing. */
export class CypherBenchLayoutError extends Error {
  override name = 'CypherBenchLayoutError';
}

/**
 * The question file of `split` in the data folder `data` (or `data` itself when it is a question
 * file, its folder then holding the graphs). Throws CypherBenchLayoutError naming what is missing.
 */
export function resolveCypherBenchLayout(data: string, split: string = DEFAULT_CYPHERBENCH_SPLIT): CypherBenchLayout {
  if (!(CYPHERBENCH_SPLITS as readonly string[]).includes(split))
    throw new CypherBenchLayoutError(
      `cypherbench: unknown split ${JSON.stringify(split)} (known: ${CYPHERBENCH_SPLITS.join(', ')})`,
    );
  if (!existsSync(data)) throw new CypherBenchLayoutError(`cypherbench data ${data} does not exist`);
  if (statSync(data).isFile()) return { root: dirname(data), split: basename(data, '.json'), questionsFile: data };
  const questionsFile = join(data, `${split}.json`);
  if (!existsSync(questionsFile))
    throw new CypherBenchLayoutError(
      `cypherbench data ${data} has no ${split}.json (the ${split} split's questions; the release has test.json and train.json)`,
    );
  return { root: data, split, questionsFile };
}

/** A graph's file, or why there is none: `missing` when no file is there, else the name or a link leads outside. */
export type GraphFile = { file: string } | { problem: string; missing: boolean };

/**
 * The graph's SimpleKG file: the first of `patterns` (relative to `root`) that exists, naming a
 * file that lies in the pattern's folder with symbolic links followed (core/paths-inside.ts); or
 * why there is none, naming the paths looked at.
 */
export function findGraphFile(
  root: string,
  graph: string,
  patterns: readonly string[] = GRAPH_FILE_PATTERNS,
): GraphFile {
  if (!GRAPH_NAME.test(graph))
    return {
      problem: `graph name ${JSON.stringify(graph)} cannot name a file (letters, digits, _ and - only)`,
      missing: false,
    };
  for (const pattern of patterns) {
    const at = resolveInside(join(root, dirname(pattern)), basename(pattern).replace('<graph>', graph));
    if ('problem' in at) return { problem: `graph ${graph}: ${at.problem}`, missing: false };
    if (existsSync(at.path)) return { file: at.path };
  }
  return {
    problem: `graph ${graph} has no SimpleKG file in ${root} (looked for ${patterns.map((p) => p.replace('<graph>', graph)).join(', ')})`,
    missing: true,
  };
}
