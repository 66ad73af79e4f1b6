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

/** The paths a graph's file is looked for at, in order. */
export function graphFileCandidates(root: string, graph: string): string[] {
  return GRAPH_FILE_PATTERNS.map((pattern) => join(root, pattern.replace('<graph>', graph)));
}

/** The graph's SimpleKG file, or why there is none (naming the paths looked at). */
export function findGraphFile(root: string, graph: string): { file: string } | { problem: string } {
  if (!GRAPH_NAME.test(graph))
    return { problem: `graph name ${JSON.stringify(graph)} cannot name a file (letters, digits, _ and - only)` };
  const candidates = graphFileCandidates(root, graph);
  const file = candidates.find((path) => existsSync(path));
  if (file) return { file };
  return {
    problem: `graph ${graph} has no SimpleKG file in ${root} (looked for ${GRAPH_FILE_PATTERNS.map((p) => p.replace('<graph>', graph)).join(', ')})`,
  };
}
