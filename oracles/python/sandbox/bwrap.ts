/**
 * The bubblewrap backend (environment.md §7): the worker runs under prlimit — as uid/gid 65534 when
 * the harness runs as root (as root, RLIMIT_NPROC is not enforced), else as the harness's user —
 * inside bwrap with every namespace unshared — its own network namespace has only a loopback, so
 * nothing outside and none of the host's own loopback listeners are reachable — no further user
 * namespaces, all capabilities dropped, an empty environment, a read-only system (/usr, the
 * interpreter's own folders wherever they live, and a read-only root), and size-capped private
 * tmpfs folders as the only writable places: /sandbox (job folders), /tmp and /dev/shm. As in
 * BigCodeBench's image, `localhost` and the host name resolve to the loopback and `python` is on PATH. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  SandboxUnavailableError,
  type BackendStatus,
  type LaunchedWorker,
  type SandboxBackend,
  type WorkerLaunch,
} from './backend.ts';
import { probeBwrap } from './bwrap-status.ts';
import { sandboxIdentity, workerProcessCap } from '../../../core/sandbox/identity.ts';
import { interpreterLayout, within, type InterpreterLayout } from '../../../core/sandbox/interpreter-layout.ts';
import { sandboxInterpreter, SYSTEM_PYTHON } from './interpreter.ts';
import { prlimitArgs } from '../../../core/sandbox/limits.ts';
import {
  SANDBOX_BIN_DIR,
  SANDBOX_HOSTNAME,
  SANDBOX_NAMESPACE_ARGS,
  sandboxPath,
  stagedSystemDir,
  USR_ROOT_ARGS,
} from '../../../core/sandbox/system-files.ts';
import { killGroup, trackExit, unrefChild } from './spawned.ts';

export { SANDBOX_GID, SANDBOX_UID } from '../../../core/sandbox/identity.ts';

export interface BwrapOptions {
  /** The interpreter inside the sandbox (default: sandboxInterpreter(): WITNESS_PYTHON, the full profile, or Debian's). */
  python?: string;
  bwrap?: string;
  prlimit?: string;
}

/** Size of the read-only tmpfs that holds an interpreter's folders when they live under /tmp. */
const GUARD_BYTES = 1024 * 1024;

/**
 * Mounts that give the sandbox the interpreter's folders (read-only, at their own paths) and the
 * links to its executable; after the tmpfs mounts, so an interpreter under /tmp is not hidden by
 * the sandbox's own /tmp. Under /tmp they sit in a read-only tmpfs of their own (on their first
 * folder below /tmp), so that a candidate can neither rename nor wipe the way to them.
 */
export function interpreterMounts(layout: InterpreterLayout): string[] {
  const guards = new Set<string>();
  const guarded = (path: string) => {
    const first = path.split('/')[2];
    const guard = `/tmp/${first}`;
    if (within(path, '/tmp') && path !== guard && !layout.folders.includes(guard)) guards.add(guard);
  };
  for (const path of [...layout.folders, ...layout.links.map((l) => l.path)]) guarded(path);
  return [
    ...[...guards].flatMap((guard) => ['--perms', '0755', '--size', String(GUARD_BYTES), '--tmpfs', guard]),
    ...layout.folders.flatMap((folder) => ['--ro-bind', folder, folder]),
    ...layout.links.flatMap((link) => ['--symlink', link.target, link.path]),
    ...[...guards].flatMap((guard) => ['--remount-ro', guard]),
  ];
}

/** The bwrap options (after `bwrap`, before the command) of a sandbox for this interpreter. */
export function bwrapSandboxArgs(
  spec: WorkerLaunch,
  layout: InterpreterLayout,
  systemDir = stagedSystemDir(layout.python),
): string[] {
  const env = {
    ...spec.env,
    PATH: sandboxPath(layout.binDir, SANDBOX_BIN_DIR),
    HOME: '/sandbox',
    WITNESS_SCRATCH: '/sandbox',
    WITNESS_CLEANUP: 'namespace',
    WITNESS_TMPDIR: '/tmp',
  };
  const setenv = Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v]);
  const optional = (path: string) => (existsSync(path) ? ['--ro-bind', path, path] : []);
  const etc = (name: string) => ['--ro-bind', join(systemDir, 'etc', name), `/etc/${name}`];
  return [
    ...SANDBOX_NAMESPACE_ARGS,
    '--new-session',
    '--hostname',
    SANDBOX_HOSTNAME,
    '--cap-drop',
    'ALL',
    '--clearenv',
    ...USR_ROOT_ARGS,
    '--symlink',
    'usr/sbin',
    '/sbin',
    ...optional('/etc/alternatives'),
    ...optional('/etc/localtime'),
    ...optional('/etc/fonts'),
    ...etc('hosts'),
    ...etc('hostname'),
    ...etc('nsswitch.conf'),
    '--ro-bind',
    join(systemDir, 'bin'),
    SANDBOX_BIN_DIR,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(spec.scratch.shmBytes),
    '--tmpfs',
    '/dev/shm',
    '--size',
    String(spec.scratch.tmpBytes),
    '--tmpfs',
    '/tmp',
    '--size',
    String(spec.scratch.scratchBytes),
    '--tmpfs',
    '/sandbox',
    ...interpreterMounts(layout),
    '--ro-bind',
    spec.pyDir,
    '/witness',
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
    '--chdir',
    '/sandbox',
    ...setenv,
  ];
}

/** The bwrap command line (after `bwrap`) that starts the worker; `systemDir` is from stagedSystemDir. */
export function bwrapArgs(spec: WorkerLaunch, python = SYSTEM_PYTHON, systemDir = stagedSystemDir(python)): string[] {
  const layout = interpreterLayout(python);
  return [...bwrapSandboxArgs(spec, layout, systemDir), layout.python, '-s', '-B', '/witness/worker.py'];
}

/** Sandboxes (bwrap and interpreter) proven to work in this process; a failure is probed again by the next backend. */
const workingSandboxes = new Map<string, BackendStatus>();

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
  let cached: BackendStatus | undefined;
  async function status(): Promise<BackendStatus> {
    if (pythonError) return { available: false, reason: pythonError };
    const key = `${bwrap}\0${python}`;
    cached ??=
      workingSandboxes.get(key) ??
      probeBwrap({ bwrap, python, sandboxArgs: (spec, layout) => bwrapSandboxArgs(spec, layout) });
    if (cached.available) workingSandboxes.set(key, cached);
    return cached;
  }

  return {
    name: 'bwrap',
    isolated: true,
    status,
    async launch(spec) {
      const available = await status();
      if (!available.available) throw new SandboxUnavailableError('bwrap', available.reason ?? 'unknown reason');
      const args = [
        ...prlimitArgs(spec.maxAddressSpaceBytes, spec.maxFileSizeBytes, workerProcessCap()),
        '--',
        bwrap,
        ...bwrapArgs(spec, python),
      ];
      const child = spawn(prlimit, args, {
        env: {},
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        ...sandboxIdentity(),
      });
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
