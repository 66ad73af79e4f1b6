/**
 * Where Witness keeps its own files (run store, response cache, Python full profile, hero reports,
 * gold caches): the `.witness/` folder of the project root. The project root is the directory the
 * configuration is loaded for: the working directory for the CLI, vitest's root under vitest.
 */
import { resolve } from 'node:path';

/** The name of Witness's own folder under the project root. */
export const WITNESS_DIR = '.witness';

/** A path under `<root>/.witness/`, e.g. `witnessPath(root, 'runs')`. */
export function witnessPath(root: string, ...parts: string[]): string {
  return resolve(root, WITNESS_DIR, ...parts);
}
