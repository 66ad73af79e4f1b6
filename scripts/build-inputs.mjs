// What the build compiles and copies, in one place: the build (scripts/build.mjs) lists it in its
// stamp, where the launcher's freshness check (scripts/freshness.mjs) reads it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Tests and test data: neither compiled nor copied. */
const TEST_ONLY_DIRS = new Set(['__fixtures__', 'hostile']);
const isTestOnly = (name) => /\.(test|e2e|property)\.|\.eval\.ts$/.test(name);

/** The source folders and root files of tsconfig.build.json's `include`. */
export function sourceRoots(root) {
  const config = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8'));
  return config.include;
}

/** Every source file and runtime asset under the build's roots, as paths relative to `root`. */
export function buildInputs(root) {
  const files = [];
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!TEST_ONLY_DIRS.has(entry.name)) visit(path);
      } else if (entry.isFile() && !isTestOnly(entry.name)) {
        files.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  for (const entry of sourceRoots(root)) {
    const path = join(root, entry);
    if (statSync(path).isDirectory()) visit(path);
    else files.push(entry);
  }
  return files;
}

/**
 * Runtime assets among the inputs: every file that is not a TypeScript module (SQL child scripts
 * and their types, Python worker sources, the report page's script and style, JSON schemas, …).
 * The build copies them next to the compiled modules, so `new URL('./x', import.meta.url)` finds
 * them from dist/ as it does from the sources. READMEs are documentation, not assets.
 */
export function isAsset(path) {
  if (path.endsWith('/README.md')) return false;
  if (RUNTIME_SOURCES.some((dir) => path.startsWith(dir)) || path.endsWith('.d.ts')) return true;
  return !(path.endsWith('.ts') && !path.endsWith('.d.mts'));
}

/**
 * TypeScript read as text at run time, not only compiled: the Meta-Harness seed harnesses (validated
 * and run as candidates are) and hand-written declarations tsc does not emit (the harness SDK's).
 */
const RUNTIME_SOURCES = ['optimizers/meta-harness/seeds/'];
