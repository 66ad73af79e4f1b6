/**
 * Confinement of the proposer's file tools to the store: every path a tool is given is resolved
 * against a root and must stay inside it, also after following symbolic links (a link inside the
 * store that points outside is an escape, and so is a link in any folder along the way). Paths
 * that do not exist yet (a file to write) are checked through their nearest existing folder.
 */
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A path outside the folder a tool may use. */
export class ConfinementError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'ConfinementError';
  }
}

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/** The real path of `path`, or of its nearest existing ancestor with the rest appended. */
function realOrNearest(path: string, depth = 0): string {
  if (depth > 40) throw new ConfinementError(path, 'too many levels of symbolic links');
  let existing = path;
  const rest: string[] = [];
  while (!existsSync(existing) && !isDanglingLink(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    rest.unshift(existing.slice(parent.length).replace(/^[\\/]+/, ''));
    existing = parent;
  }
  // A dangling link could be created through later: treat its target as the path.
  const real = isDanglingLink(existing)
    ? realOrNearest(resolve(dirname(existing), readlinkSync(existing)), depth + 1)
    : realpathSync(existing);
  return rest.length > 0 ? join(real, ...rest) : real;
}

function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink() && !existsSync(path);
  } catch {
    return false;
  }
}

/**
 * The absolute path `path` names under `root` (relative paths resolve against `root`), or a
 * ConfinementError when it lies outside `root` lexically or after following symbolic links.
 */
export function confine(root: string, path: string): string {
  if (path.includes('\0')) throw new ConfinementError(path, 'a path may not contain NUL characters');
  const base = resolve(root);
  const target = resolve(base, path);
  if (!inside(base, target)) throw new ConfinementError(path, `is outside ${relativeName(base)}`);
  const realBase = realpathSync(base);
  const realTarget = realOrNearest(target);
  if (!inside(realBase, realTarget))
    throw new ConfinementError(path, `leads outside ${relativeName(base)} through a symbolic link`);
  return target;
}

/** The last folder name of the root, so messages do not spell out the machine's paths. */
const relativeName = (root: string) => `the folder ${JSON.stringify(root.split(sep).at(-1) ?? root)}`;
