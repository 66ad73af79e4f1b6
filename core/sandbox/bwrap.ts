/**
 * The one bubblewrap launcher of every sandbox (the Python oracle's workers, the candidate
 * harnesses): prlimit caps around bwrap with every namespace unshared — its own network namespace
 * has only a loopback, so nothing outside and none of the host's own loopback listeners are
 * reachable — no further user namespaces, its own session, dying with its parent, all
 * capabilities dropped, an empty environment but what the sandbox sets, the host's /usr and a
 * read-only root. The only writable places are the size-capped tmpfs folders the sandbox names.
 * It starts detached, so it leads a process group that is killed as a whole, with an empty
 * environment (no API keys of the harness), as the sandbox user when the harness runs as root.
 * What a sandbox binds and runs is its own.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { sandboxIdentity } from './identity.ts';
import { prlimitCapArgs, type ProcessCaps } from './limits.ts';

/** bwrap arguments every sandbox starts with: its own namespaces (no nested ones), dying with its parent. */
export const SANDBOX_NAMESPACE_ARGS: readonly string[] = [
  '--unshare-all',
  '--unshare-user',
  '--disable-userns',
  '--die-with-parent',
];

/** bwrap arguments for the host's merged /usr, read-only, with /lib, /lib64 and /bin pointing into it. */
export const USR_ROOT_ARGS: readonly string[] = [
  '--ro-bind',
  '/usr',
  '/usr',
  '--symlink',
  'usr/lib',
  '/lib',
  '--symlink',
  'usr/lib64',
  '/lib64',
  '--symlink',
  'usr/bin',
  '/bin',
];

/** A writable place of the sandbox: a private tmpfs capped at `bytes` (it dies with the sandbox). */
export interface TmpfsMount {
  path: string;
  bytes: number;
}

/** What one sandbox provides besides what every sandbox has. */
export interface BwrapSandbox {
  /** The host name of its own UTS namespace (bwrap's default when absent). */
  hostname?: string;
  /** Read-only mounts of system files beyond /usr (bwrap options), before /proc and /dev. */
  system?: readonly string[];
  /** The only writable places, in mount order. */
  tmpfs: readonly TmpfsMount[];
  /** Mounts made after the tmpfs folders (bwrap options): the program's folders, read-only. */
  program: readonly string[];
  /** Mount points made read-only at the end, besides the root. */
  readOnly?: readonly string[];
  /** The working folder inside the sandbox. */
  chdir: string;
  /** The program's whole environment. */
  env: Readonly<Record<string, string>>;
}

/** bwrap arguments that bind `host` read-only at `at` (its own path by default). */
export function roBind(host: string, at = host): string[] {
  return ['--ro-bind', host, at];
}

/** The bwrap options (after `bwrap`, before the command) of a sandbox. */
export function bwrapOptions(sandbox: BwrapSandbox): string[] {
  return [
    ...SANDBOX_NAMESPACE_ARGS,
    '--new-session',
    ...(sandbox.hostname === undefined ? [] : ['--hostname', sandbox.hostname]),
    '--cap-drop',
    'ALL',
    '--clearenv',
    ...USR_ROOT_ARGS,
    ...(sandbox.system ?? []),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    ...sandbox.tmpfs.flatMap(({ path, bytes }) => ['--size', String(bytes), '--tmpfs', path]),
    ...sandbox.program,
    ...(sandbox.readOnly ?? []).flatMap((path) => ['--remount-ro', path]),
    '--remount-ro',
    '/',
    '--chdir',
    sandbox.chdir,
    ...Object.entries(sandbox.env).flatMap(([name, value]) => ['--setenv', name, value]),
  ];
}

/** A program to start in a sandbox under caps. */
export interface SandboxLaunch {
  caps: ProcessCaps;
  sandbox: BwrapSandbox;
  /** The program and its arguments, as the sandbox sees them. */
  command: readonly string[];
  /** The commands to start (default: found on PATH). */
  bwrap?: string;
  prlimit?: string;
}

/** The prlimit command line (after `prlimit`) that starts the launch. */
export function launchArgs(launch: SandboxLaunch): string[] {
  return [
    ...prlimitCapArgs(launch.caps),
    '--',
    launch.bwrap ?? 'bwrap',
    ...bwrapOptions(launch.sandbox),
    ...launch.command,
  ];
}

/** Starts the launch with piped stdio, leading its own process group (so the whole group can be killed). */
export function launchSandbox(launch: SandboxLaunch): ChildProcessByStdio<Writable, Readable, Readable> {
  return spawn(launch.prlimit ?? 'prlimit', launchArgs(launch), {
    env: {},
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...sandboxIdentity(),
  });
}

/** Kills a launched sandbox's whole process group (it leads one); false when there was nothing to signal. */
export function killProcessGroup(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}
