/**
 * The bubblewrap backend (environment.md §7): the worker runs as uid/gid 65534 (as root,
 * RLIMIT_NPROC is not enforced) under prlimit, inside bwrap with every namespace unshared — its own
 * network namespace has only a loopback, so nothing outside and none of the host's own loopback
 * listeners are reachable — no further user namespaces, all capabilities dropped, an empty
 * environment, a read-only system (/usr, and a read-only root), and size-capped private tmpfs
 * folders as the only writable places: /sandbox (job folders), /tmp and /dev/shm. As in
 * BigCodeBench's image, `localhost` and the host name resolve to the loopback and `python` is on PATH.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BackendStatus, LaunchedWorker, SandboxBackend, WorkerLaunch } from './backend.ts';
import { sandboxInterpreter, SYSTEM_PYTHON } from './interpreter.ts';
import { prlimitArgs } from './limits.ts';
import { SANDBOX_BIN_DIR, SANDBOX_HOSTNAME, sandboxPath, stagedSystemDir, virtualenvRoot } from './system-files.ts';
import { killGroup, trackExit, unrefChild } from './spawned.ts';

export const SANDBOX_UID = 65534;
export const SANDBOX_GID = 65534;

export interface BwrapOptions {
  /** The interpreter inside the sandbox (default: sandboxInterpreter(): WITNESS_PYTHON, the full profile, or Debian's). */
  python?: string;
  bwrap?: string;
  prlimit?: string;
}

/** Host folders the interpreter needs besides /usr: its virtualenv, or its installation prefix. */
export function interpreterBinds(python: string): string[] {
  if (python.startsWith('/usr/')) return [];
  const root = virtualenvRoot(python) ?? dirname(dirname(python));
  return ['--ro-bind', root, root];
}

/** The bwrap command line (after `bwrap`) that starts the worker; `systemDir` is from stagedSystemDir. */
export function bwrapArgs(spec: WorkerLaunch, python = SYSTEM_PYTHON, systemDir = stagedSystemDir(python)): string[] {
  const env = {
    ...spec.env,
    PATH: sandboxPath(python, SANDBOX_BIN_DIR),
    HOME: '/sandbox',
    WITNESS_SCRATCH: '/sandbox',
    WITNESS_CLEANUP: 'namespace',
    WITNESS_TMPDIR: '/tmp',
  };
  const setenv = Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v]);
  const optional = (path: string) => (existsSync(path) ? ['--ro-bind', path, path] : []);
  const etc = (name: string) => ['--ro-bind', join(systemDir, 'etc', name), `/etc/${name}`];
  return [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--hostname', SANDBOX_HOSTNAME,
    '--cap-drop', 'ALL',
    '--clearenv',
    '--ro-bind', '/usr', '/usr',
    '--symlink', 'usr/lib', '/lib',
    '--symlink', 'usr/lib64', '/lib64',
    '--symlink', 'usr/bin', '/bin',
    '--symlink', 'usr/sbin', '/sbin',
    ...interpreterBinds(python),
    ...optional('/etc/alternatives'),
    ...optional('/etc/localtime'),
    ...optional('/etc/fonts'),
    ...etc('hosts'),
    ...etc('hostname'),
    ...etc('nsswitch.conf'),
    '--ro-bind', join(systemDir, 'bin'), SANDBOX_BIN_DIR,
    '--proc', '/proc',
    '--dev', '/dev',
    '--size', String(spec.scratch.shmBytes), '--tmpfs', '/dev/shm',
    '--size', String(spec.scratch.tmpBytes), '--tmpfs', '/tmp',
    '--size', String(spec.scratch.scratchBytes), '--tmpfs', '/sandbox',
    '--ro-bind', spec.pyDir, '/witness',
    '--remount-ro', '/dev',
    '--remount-ro', '/',
    '--chdir', '/sandbox',
    ...setenv,
    python, '-s', '-B', '/witness/worker.py',
  ];
}

function runsAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

export function bwrapBackend(options: BwrapOptions = {}): SandboxBackend {
  const bwrap = options.bwrap ?? 'bwrap';
  const prlimit = options.prlimit ?? 'prlimit';
  let python = SYSTEM_PYTHON;
  let pythonError: string | undefined;
  try {
    python = options.python ?? sandboxInterpreter().python;
  } catch (error) {
    pythonError = (error as Error).message;
  }
  const identity = runsAsRoot() ? { uid: SANDBOX_UID, gid: SANDBOX_GID } : {};
  let cached: BackendStatus | undefined;

  return {
    name: 'bwrap',
    isolated: true,
    async status() {
      if (cached) return cached;
      if (pythonError) return (cached = { available: false, reason: pythonError });
      if (/^\/(tmp|sandbox|dev|proc|witness|opt\/witness)(\/|$)/.test(python)) {
        return (cached = { available: false, reason: `the interpreter ${python} is in a folder the sandbox replaces with its own; install it elsewhere` });
      }
      const version = spawnSync(bwrap, ['--version'], { encoding: 'utf8' });
      if (version.error || version.status !== 0) {
        cached = { available: false, reason: `bubblewrap is not installed (${version.error?.message ?? version.stderr.trim()}); install it with: apt-get install bubblewrap` };
        return cached;
      }
      if (!existsSync(python)) {
        cached = { available: false, reason: `${python} does not exist; install it with: apt-get install python3 python3-numpy python3-pandas` };
        return cached;
      }
      // A trial run proves that unprivileged user namespaces work here.
      const trial = spawnSync(
        bwrap,
        ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--ro-bind', '/usr', '/usr', '--symlink', 'usr/lib', '/lib',
          '--symlink', 'usr/lib64', '/lib64', '--symlink', 'usr/bin', '/bin', ...interpreterBinds(python), '--proc', '/proc', '--dev', '/dev', python, '-c', 'print(1)'],
        { encoding: 'utf8', env: {}, timeout: 20_000, ...identity },
      );
      cached =
        trial.status === 0
          ? { available: true, detail: `${version.stdout.trim()}, ${python}` }
          : { available: false, reason: `bwrap cannot create a sandbox here: ${(trial.stderr || trial.error?.message || `exit ${trial.status}`).trim()}` };
      return cached;
    },
    async launch(spec) {
      if (pythonError) throw new Error(pythonError);
      const args = [...prlimitArgs(spec.maxAddressSpaceBytes, spec.maxFileSizeBytes), '--', bwrap, ...bwrapArgs(spec, python)];
      const child = spawn(prlimit, args, { env: {}, detached: true, stdio: ['pipe', 'pipe', 'pipe'], ...identity });
      const exited = trackExit(child);
      const launched: LaunchedWorker = {
        stdin: child.stdin,
        stdout: child.stdout,
        stderr: child.stderr,
        kill: () => killGroup(child),
        exited,
        unref: () => unrefChild(child),
      };
      return launched;
    },
  };
}
