/** The seed harnesses, by name: the built-in strategies that fit the harness SDK, as harness modules. */
import { fileURLToPath } from 'node:url';

export const SEED_NAMES = ['zero-shot', 'self-verify', 'react', 'hero-t', 'cheatsheet'] as const;
export type SeedName = (typeof SEED_NAMES)[number];

/** Path of a seed harness module. */
export function seedHarnessFile(name: SeedName): string {
  return fileURLToPath(new URL(`./seeds/${name}.ts`, import.meta.url));
}
