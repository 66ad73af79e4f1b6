// Whether dist/ is the build of the current sources: the launcher (bin/witness.js) asks this in a
// source checkout, so that a changed source file is run, not the compiled copy from before it.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { buildInputs, CONFIG_FILES, STAMP } from './build-inputs.mjs';

/** Null when dist/ was built after every source and asset changed; else why it is not current. */
export function staleness(root) {
  let built;
  try {
    built = statSync(join(root, 'dist', STAMP)).mtimeMs;
  } catch {
    return 'dist/ is not built';
  }
  for (const file of [...CONFIG_FILES, ...buildInputs(root)]) {
    if (statSync(join(root, file)).mtimeMs > built) return `${file} changed after dist/ was built`;
  }
  return null;
}
