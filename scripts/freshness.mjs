// Whether dist/ is the build of the current sources: the launcher (bin/witness.js) asks this in a
// source checkout, so that a changed source file is run, not the compiled copy from before it.
// The build lists its inputs in the stamp, so the check is a stat per input, without walking the
// source tree (it runs before every command). A file added since is new only to files that import
// it, and those changed too.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The build's own configuration files: a change to one of them makes dist/ stale too. */
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json'];

/** The file in dist/ whose modification time is the moment its build started, and whose text lists the build's inputs. */
export const STAMP = '.build-stamp';

/** Null when dist/ was built after every source and asset changed; else why it is not current. */
export function staleness(root) {
  let built;
  let inputs;
  try {
    const stamp = join(root, 'dist', STAMP);
    built = statSync(stamp).mtimeMs;
    inputs = JSON.parse(readFileSync(stamp, 'utf8')).inputs;
  } catch {
    return 'dist/ is not built';
  }
  if (!Array.isArray(inputs)) return 'dist/ was built by an older build script';
  for (const file of [...CONFIG_FILES, ...inputs]) {
    const changed = statSync(join(root, file), { throwIfNoEntry: false })?.mtimeMs;
    if (changed === undefined) return `${file} was removed after dist/ was built`;
    if (changed > built) return `${file} changed after dist/ was built`;
  }
  return null;
}
