/**
 * The bubblewrap backend (environment.md §7): the worker starts through the shared launcher
 * (core/sandbox/bwrap.ts: no network, no further user namespaces, an empty environment, a
 * read-only system) under the worker's caps. What is its own: the interpreter's folders wherever
 * they live, read-only, and size-capped private tmpfs folders as the only writable places:
 * /sandbox (job folders), /tmp and /dev/shm. As in BigCodeBench's image, `localhost` and the host
 * name resolve to the loopback and `python` is on PATH.
 */
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
import { bwrapOptions, launchSandbox, roBind, type BwrapSandbox } from '../../../core/sandbox/bwrap.ts';
import { workerProcessCap } from '../../../core/sandbox/identity.ts';
import { interpreterLayout, within, type InterpreterLayout } from '../../../core/sandbox/interpreter-layout.ts';
import { sandboxInterpreter, SYSTEM_PYTHON, type InterpreterSettings } from './interpreter.ts';
import { workerCaps } from '../../../core/sandbox/limits.ts';
import { SANDBOX_BIN_DIR, SANDBOX_HOSTNAME, sandboxPath, stagedSystemDir } from '../../../core/sandbox/system-files.ts';
import { killGroup, trackExit, unrefChild } from './spawned.ts';

export { SANDBOX_GID, SANDBOX_UID } from '../../../core/sandbox/identity.ts';

export interface BwrapOptions {
  /** The interpreter inside the sandbox (default: the one `interpreter` chooses: WITNESS_PYTHON, the full profile, or Debian's). */
  python?: string;
  interpreter?: InterpreterSettings;
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

/**
 * The worker's sandbox for this interpreter: the host name, /sbin, the system files and the
 * staged `python` commands; private tmpfs folders for job folders (/sandbox), /tmp and /dev/shm;
 * the interpreter's folders and the worker's sources (/witness), read-only; a read-only /dev.
 */
export function workerSandbox(
  spec: WorkerLaunch,
  layout: InterpreterLayout,
  systemDir = stagedSystemDir(layout.python),
): BwrapSandbox {
  const optional = (path: string) => (existsSync(path) ? roBind(path) : []);
  const etc = (name: string) => roBind(join(systemDir, 'etc', name), `/etc/${name}`);
  return {
    hostname: SANDBOX_HOSTNAME,
    system: [
      '--symlink',
      'usr/sbin',
      '/sbin',
      ...optional('/etc/alternatives'),
      ...optional('/etc/localtime'),
      ...optional('/etc/fonts'),
      ...etc('hosts'),
      ...etc('hostname'),
      ...etc('nsswitch.conf'),
      ...roBind(join(systemDir, 'bin'), SANDBOX_BIN_DIR),
    ],
    tmpfs: [
      { path: '/dev/shm', bytes: spec.scratch.shmBytes },
      { path: '/tmp', bytes: spec.scratch.tmpBytes },
      { path: '/sandbox', bytes: spec.scratch.scratchBytes },
    ],
    program: [...interpreterMounts(layout), ...roBind(spec.pyDir, '/witness')],
    readOnly: ['/dev'],
    chdir: '/sandbox',
    env: {
      ...spec.env,
      PATH: sandboxPath(layout.binDir, SANDBOX_BIN_DIR),
      HOME: '/sandbox',
      WITNESS_SCRATCH: '/sandbox',
      WITNESS_CLEANUP: 'namespace',
      WITNESS_TMPDIR: '/tmp',
    },
  };
}

/** The bwrap options (after `bwrap`, before the command) of a sandbox for this interpreter. */
export function bwrapSandboxArgs(spec: WorkerLaunch, layout: InterpreterLayout, systemDir?: string): string[] {
  return bwrapOptions(workerSandbox(spec, layout, systemDir));
}

/** The worker, as the sandbox starts it. */
function workerCommand(layout: InterpreterLayout): string[] {
  return [layout.python, '-s', '-B', '/witness/worker.py'];
}

/** The bwrap command line (after `bwrap`) that starts the worker; `systemDir` is from stagedSystemDir. */
export function bwrapArgs(spec: WorkerLaunch, python = SYSTEM_PYTHON, systemDir = stagedSystemDir(python)): string[] {
  const layout = interpreterLayout(python);
  return [...bwrapSandboxArgs(spec, layout, systemDir), ...workerCommand(layout)];
}

/** Sandboxes (bwrap and interpreter) proven to work in this process; a failure is probed again by the next backend. */
const workingSandboxes = new Map<string, BackendStatus>();

export function bwrapBackend(options: BwrapOptions = {}): SandboxBackend {
  const bwrap = options.bwrap ?? 'bwrap';
  const prlimit = options.prlimit ?? 'prlimit';
  let python = SYSTEM_PYTHON;
  let pythonError: string | undefined;
  try {
    python = options.python ?? sandboxInterpreter(options.interpreter).python;
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
      const layout = interpreterLayout(python);
      const child = launchSandbox({
        caps: workerCaps(spec.maxAddressSpaceBytes, spec.maxFileSizeBytes, workerProcessCap()),
        sandbox: workerSandbox(spec, layout),
        command: workerCommand(layout),
        bwrap,
        prlimit,
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
