/**
 * Whether the bwrap sandbox can run here, and if not, why in words a user can act on: bubblewrap
 * missing, user namespaces refused (common for non-root users: a sysctl or AppArmor policy), the
 * interpreter missing, out of the sandbox user's reach, or not starting inside the sandbox.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { sandboxEnvironment, type BackendStatus, type WorkerLaunch } from './backend.ts';
import { runsAsRoot, sandboxIdentity, unreachableReason } from '../../../core/sandbox/identity.ts';
import { interpreterLayout, type InterpreterLayout } from '../../../core/sandbox/interpreter-layout.ts';
import { DEFAULT_SCRATCH, GIB, MIB } from '../../../core/sandbox/limits.ts';
import { stagedPythonDir } from './stage.ts';
import { SANDBOX_NAMESPACE_ARGS, USR_ROOT_ARGS } from '../../../core/sandbox/bwrap.ts';
import { stagedSystemDir } from '../../../core/sandbox/system-files.ts';

export interface BwrapProbe {
  bwrap: string;
  python: string;
  /** The sandbox options for an interpreter (bwrap.ts's bwrapSandboxArgs). */
  sandboxArgs: (spec: WorkerLaunch, layout: InterpreterLayout) => string[];
}

/** What to do when bwrap cannot create its namespaces, from its own message. */
export function namespaceHint(stderr: string, asRoot: boolean): string {
  if (/Resource temporarily unavailable/.test(stderr)) {
    return '; the process limit (RLIMIT_NPROC) of this user was reached: every process of the user counts, end some or raise the limit (ulimit -u)';
  }
  if (
    !/No permissions to create|Operation not permitted|Permission denied|setting up uid map|Creating new namespace failed/i.test(
      stderr,
    )
  )
    return '';
  const who = asRoot ? 'even as root' : `as uid ${process.getuid?.() ?? '?'} (not root)`;
  return (
    `; this system does not let bwrap create user namespaces ${who}: allow them (sysctl user.max_user_namespaces > 0, ` +
    'kernel.unprivileged_userns_clone=1, or on Ubuntu kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap), ' +
    'or use the docker backend (WITNESS_PYTHON_SANDBOX=docker)'
  );
}

function tail(text: string, limit = 600): string {
  const trimmed = text.trim();
  return trimmed.length > limit ? `…${trimmed.slice(-limit)}` : trimmed;
}

/** Checks, in order, everything the bwrap sandbox needs; the first failure is the reason. */
export function probeBwrap(probe: BwrapProbe): BackendStatus {
  const { bwrap, python } = probe;
  const version = spawnSync(bwrap, ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) {
    return {
      available: false,
      reason: `bubblewrap is not installed (${version.error?.message ?? version.stderr.trim()}); install it with: apt-get install bubblewrap`,
    };
  }
  if (!existsSync(python))
    return {
      available: false,
      reason: `${python} does not exist; install it with: apt-get install python3 python3-numpy python3-pandas`,
    };
  let layout: InterpreterLayout;
  try {
    layout = interpreterLayout(python);
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  }
  const pyDir = stagedPythonDir();
  const systemDir = stagedSystemDir(python);
  const needed: [string, string][] = [
    ...layout.folders.map((folder): [string, string] => [folder, "the interpreter's folder"]),
    [realpathSync(python), 'the interpreter'],
    [pyDir, "the worker's sources"],
    [systemDir, "the sandbox's system files"],
  ];
  for (const [path, what] of needed) {
    const reason = unreachableReason(path, what);
    if (reason) return { available: false, reason };
  }
  const identity = sandboxIdentity();
  // An empty sandbox first: can bwrap create its namespaces here at all?
  const empty = spawnSync(bwrap, [...SANDBOX_NAMESPACE_ARGS, ...USR_ROOT_ARGS, '/usr/bin/true'], {
    encoding: 'utf8',
    env: {},
    timeout: 20_000,
    ...identity,
  });
  if (empty.status !== 0) {
    const said = tail(empty.stderr || empty.error?.message || `exit ${empty.status}`);
    return {
      available: false,
      reason: `bwrap cannot create a sandbox here: ${said}${namespaceHint(said, runsAsRoot())}`,
    };
  }
  // Then the worker's own sandbox, with its interpreter.
  const spec: WorkerLaunch = {
    pyDir,
    env: sandboxEnvironment(),
    maxAddressSpaceBytes: 8 * GIB,
    maxFileSizeBytes: 64 * MIB,
    scratch: DEFAULT_SCRATCH,
  };
  const trial = spawnSync(bwrap, [...probe.sandboxArgs(spec, layout), layout.python, '-s', '-B', '-c', 'import sys'], {
    encoding: 'utf8',
    env: {},
    timeout: 30_000,
    ...identity,
  });
  if (trial.status !== 0) {
    return {
      available: false,
      reason: `the interpreter ${python} does not start in the sandbox: ${tail(trial.stderr || trial.error?.message || `exit ${trial.status}`)}`,
    };
  }
  return { available: true, detail: `${version.stdout.trim()}, ${python}` };
}
