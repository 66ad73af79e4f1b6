/**
 * What of the host an interpreter needs inside the bwrap sandbox besides /usr, wherever it lives
 * (a project under /tmp or /home, a pyenv or conda tree): its virtualenv, the installation prefix
 * of the interpreter the virtualenv was made from (as that interpreter reports it), and the
 * symbolic links on the way to its executable. Folders are bound read-only at their own paths and
 * links are re-created as links, so nothing else of where they live (a project, a home folder) is
 * exposed.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Folders the sandbox provides itself: /usr bound from the host, and its links into /usr. */
const PROVIDED = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc/alternatives'];

/** Folders the sandbox replaces with its own: an interpreter there cannot be bound. */
const REPLACED = [
  '/sandbox',
  '/dev',
  '/proc',
  '/witness',
  '/opt/witness',
  '/etc/hosts',
  '/etc/hostname',
  '/etc/nsswitch.conf',
];

export interface InterpreterLayout {
  /** The interpreter, as the sandbox executes it. */
  python: string;
  /** Host folders bound read-only at their own paths (sorted, none inside another). */
  folders: string[];
  /** Links re-created inside the sandbox (`path` → `target`, as the host's links read). */
  links: { path: string; target: string }[];
  /** The interpreter's own folder of commands for PATH (a virtualenv's bin), else null. */
  binDir: string | null;
}

/** Whether `path` is `folder` or inside it. */
export function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder === '/' ? '/' : `${folder}/`);
}

/** The folder holding a virtualenv whose interpreter this is (it has a pyvenv.cfg), else null. */
export function virtualenvRoot(python: string): string | null {
  const root = dirname(dirname(python));
  return existsSync(join(root, 'pyvenv.cfg')) ? root : null;
}

/** The path and every path its symbolic links lead through, in order (at most 40 links). */
export function linkChain(path: string): string[] {
  const chain = [path];
  let current = path;
  for (let i = 0; i < 40; i++) {
    try {
      if (!lstatSync(current).isSymbolicLink()) break;
      current = resolve(dirname(current), readlinkSync(current));
    } catch {
      break;
    }
    chain.push(current);
  }
  return chain;
}

function startsWithShebang(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head.toString('latin1') === '#!';
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The installation prefixes the interpreter reports (sys.base_prefix, sys.base_exec_prefix); [] if it does not run. */
function reportedPrefixes(python: string): string[] {
  const probe = spawnSync(
    python,
    ['-I', '-S', '-c', 'import sys; print(sys.base_prefix); print(sys.base_exec_prefix)'],
    { encoding: 'utf8', env: {}, timeout: 20_000 },
  );
  if (probe.status !== 0) return [];
  return probe.stdout.split('\n').filter((line) => line.startsWith('/'));
}

function outermost(folders: Iterable<string>): string[] {
  const sorted = [...new Set(folders)].sort();
  return sorted.filter((f) => !sorted.some((g) => g !== f && within(f, g)));
}

const layouts = new Map<string, InterpreterLayout>();

/**
 * The layout of an interpreter in the sandbox (cached per path). Throws, naming the path, for an
 * interpreter the sandbox cannot run as it is: a script (such as a pyenv shim), or one that lives
 * in a folder the sandbox replaces.
 */
export function interpreterLayout(python: string): InterpreterLayout {
  const cached = layouts.get(python);
  if (cached) return cached;
  const chain = linkChain(python);
  const executable = chain[chain.length - 1] as string;
  if (startsWithShebang(executable)) {
    throw new Error(
      `the interpreter ${python} is a script (a pyenv shim?), not Python itself; name the interpreter, e.g. what ${python} -c 'import sys; print(sys.executable)' prints`,
    );
  }
  const provided = (path: string) => PROVIDED.some((folder) => within(path, folder));
  const venv = virtualenvRoot(python);
  const wanted = [...(venv ? [venv] : []), ...reportedPrefixes(python)];
  // The executable itself must be reachable too (an interpreter that does not run reports nothing).
  if (!wanted.some((folder) => within(executable, folder)))
    wanted.push(basename(dirname(executable)) === 'bin' ? dirname(dirname(executable)) : dirname(executable));
  const folders = outermost(wanted.filter((folder) => !provided(folder)));
  const inside = (path: string) => provided(path) || folders.some((folder) => within(path, folder));
  const links = chain.slice(0, -1).filter((path) => !inside(path));
  const refuse = (path: string, why: string) => {
    throw new Error(
      `the interpreter ${python} needs ${path}, which the sandbox cannot provide (${why}); install it in a folder of its own elsewhere`,
    );
  };
  for (const path of [...folders, ...links]) {
    if (path === '/' || path === '/tmp') refuse(path, 'it has its own');
    const replaced = REPLACED.find((folder) => within(path, folder));
    if (replaced) refuse(path, `it has its own ${replaced}`);
  }
  // A link directly in /tmp would be wiped with the sandbox's /tmp after every run.
  for (const path of links) if (dirname(path) === '/tmp') refuse(path, 'a link directly in /tmp');
  const bin = dirname(python);
  const binDir = inside(bin) && existsSync(join(bin, 'python')) && existsSync(join(bin, 'python3')) ? bin : null;
  const layout = { python, folders, links: links.map((path) => ({ path, target: readlinkSync(path) })), binDir };
  layouts.set(python, layout);
  return layout;
}

/**
 * The first folder on the way to `path` (through its links too) that a user with this uid and gid
 * (and no other groups) cannot enter, with its mode; null when every one can be entered.
 */
export function blockedFolder(path: string, uid: number, gid: number): { folder: string; mode: number } | null {
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // a path that does not exist is reported where it is used
  }
  for (const target of new Set([path, real])) {
    const parts = target.split('/').filter(Boolean);
    for (let i = 0; i <= parts.length; i++) {
      const folder = `/${parts.slice(0, i).join('/')}`;
      let st;
      try {
        st = statSync(folder);
      } catch {
        continue;
      }
      const bit = st.uid === uid ? 0o100 : st.gid === gid ? 0o010 : 0o001;
      if ((st.mode & bit) === 0) return { folder, mode: st.mode & 0o7777 };
    }
  }
  return null;
}
