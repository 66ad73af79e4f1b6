/**
 * Files of the Witness package outside the compiled modules — prompts/, fixtures/, neo4j/ — by
 * their path from the package root, the same from the TypeScript sources (vitest, tsx) and from
 * the compiled JavaScript in dist/ (the `witness` command, an installed package).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Compiled, this module is dist/core/package-root.js: one folder deeper than core/package-root.ts.
const compiled = import.meta.url.endsWith('.js');

/** The package root: the folder holding package.json, prompts/ and fixtures/. */
export const PACKAGE_ROOT = fileURLToPath(new URL(compiled ? '../../' : '../', import.meta.url));

/** The absolute path of `segments`, resolved from the package root (e.g. `packagePath('prompts', 'bird.md')`). */
export function packagePath(...segments: string[]): string {
  return resolve(PACKAGE_ROOT, ...segments);
}
