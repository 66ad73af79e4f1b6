// The SQLite child script (oracles/sql/child.mjs and the .mjs modules it imports) bundled into one
// CommonJS file with esbuild, better-sqlite3 left to `require`. Used by the build (scripts/build.mjs).
import { build } from 'esbuild';

/** Writes the bundle of `entry` to `outfile`; false (the reason printed) when esbuild fails. */
export async function bundleSqlChild(entry, outfile) {
  try {
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      external: ['better-sqlite3'],
      // The child resolves better-sqlite3 from its own location: import.meta.url becomes this file's URL.
      define: { 'import.meta.url': '__childUrl' },
      banner: { js: "'use strict';\nconst __childUrl = require('node:url').pathToFileURL(__filename).href;" },
      logLevel: 'error',
    });
    return true;
  } catch (error) {
    process.stderr.write(`build: bundling the SQLite child failed: ${error.message}\n`);
    return false;
  }
}
