/**
 * Paths that must stay inside a folder, also after following symbolic links (a link inside the
 * folder that points outside is an escape, and so is a link in any folder along the way). Paths
 * that do not exist yet are checked through their nearest existing folder; a dangling link counts
 * as its target. Two uses: `confine` for paths a tool is given (the Meta-Harness proposer's file
 * tools), and `resolveInside` for paths built from dataset text (a BIRD db_id, a CypherBench graph
 * name), where each piece of text must be one plain name: not empty, not `.` or `..`, no `/`, `\`
 * or NUL. The folder itself may be reached through a link; only what lies under it is checked.
 */
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A path outside the folder it must stay in. */
export class ConfinementError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'ConfinementError';
  }
}

/** True when `path` is `root` or lies under it (both absolute, compared as written). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink() && !existsSync(path);
  } catch {
    return false;
  }
}

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

/** The last folder name of the root, so messages do not spell out the machine's paths. */
const folderName = (root: string) => `the folder ${JSON.stringify(root.split(sep).at(-1) ?? root)}`;

/**
 * The absolute path `path` names under `root` (relative paths resolve against `root`), or a
 * ConfinementError when it lies outside `root` lexically or after following symbolic links.
 */
export function confine(root: string, path: string): string {
  if (path.includes('\0')) throw new ConfinementError(path, 'a path may not contain NUL characters');
  const base = resolve(root);
  const target = resolve(base, path);
  if (!isInside(base, target)) throw new ConfinementError(path, `is outside ${folderName(base)}`);
  const realBase = existsSync(base) ? realpathSync(base) : realOrNearest(base);
  if (!isInside(realBase, realOrNearest(target)))
    throw new ConfinementError(path, `leads outside ${folderName(base)} through a symbolic link`);
  return target;
}

/** Why dataset text cannot be one name in a path (empty, `.`, `..`, a separator, NUL), or null. */
export function nameProblem(text: string): string | null {
  if (text === '') return 'it is empty';
  if (text === '.' || text === '..') return `${JSON.stringify(text)} names a folder, not an item`;
  if (text.includes('\0')) return 'it contains a NUL character';
  if (/[/\\]/.test(text)) return 'it contains a path separator';
  return null;
}

/** A path inside the folder, or why the dataset text cannot name one. */
export type Inside = { path: string } | { problem: string };

/**
 * `join(folder, ...names)` when every name is one plain name and the result lies inside `folder`
 * with symbolic links followed; else the problem, quoting the offending text. `names` are the
 * pieces built from dataset text (a db_id and its file name); nothing is opened.
 */
export function resolveInside(folder: string, ...names: string[]): Inside {
  for (const name of names) {
    const problem = nameProblem(name);
    if (problem) return { problem: `${JSON.stringify(name)} cannot name a file in the data folder: ${problem}` };
  }
  const rel = join(...names);
  try {
    return { path: confine(folder, rel) };
  } catch (error) {
    if (!(error instanceof ConfinementError)) throw error;
    return { problem: `${JSON.stringify(rel)} ${error.message.slice(error.path.length + 2)}` };
  }
}
