/**
 * The child's sandbox: `node child/runner.mjs` under prlimit (address space, CPU, file size, no
 * core dumps) inside bubblewrap with every namespace unshared (no network: its own empty network
 * namespace), all capabilities dropped, an empty environment but PATH, a read-only /usr (where the
 * node binary lives), the code folder read-only at /code, a private writable job folder at /job
 * and a small /tmp; as uid/gid 65534 when the host runs as root. Node's permission model adds a
 * second wall: reads only under /code, writes only under /job, no child processes, no workers, no
 * native addons, no code generation from strings.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  runsAsRoot,
  sandboxIdentity,
  sandboxTempDir,
  SANDBOX_GID,
  SANDBOX_UID,
} from '../../oracles/python/sandbox/identity.ts';
import { SANDBOX_NAMESPACE_ARGS, USR_ROOT_ARGS } from '../../oracles/python/sandbox/system-files.ts';
import type { SandboxLimits } from './budgets.ts';

const CHILD_DIR = fileURLToPath(new URL('./child/', import.meta.url));

/** A staged job: the code folder (runner, SDK runtime, compiled harness) and the writable job folder. */
export interface StagedJob {
  root: string;
  code: string;
  work: string;
  remove(): void;
}

/** Copies the runner, the SDK runtime and the compiled harness into a fresh folder the sandbox user can read. */
export function stageJob(harnessCode: string): StagedJob {
  const root = mkdtempSync(join(sandboxTempDir(), 'witness-harness-'));
  const code = join(root, 'code');
  const work = join(root, 'job');
  mkdirSync(code);
  mkdirSync(work);
  for (const file of ['runner.mjs', 'sdk.mjs']) copyFileSync(join(CHILD_DIR, file), join(code, file));
  writeFileSync(join(code, 'harness.mjs'), harnessCode);
  for (const file of ['runner.mjs', 'sdk.mjs', 'harness.mjs']) chmodSync(join(code, file), 0o444);
  chmodSync(code, 0o555);
  chmodSync(root, 0o755);
  chmodSync(work, 0o700);
  if (runsAsRoot()) chownSync(work, SANDBOX_UID, SANDBOX_GID);
  return { root, code, work, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The node binary's install folder when it is outside /usr (bound read-only at its own path). */
function nodeMounts(node: string): string[] {
  if (node.startsWith('/usr/')) return [];
  const prefix = dirname(dirname(node));
  return ['--ro-bind', prefix, prefix];
}

/** The full command line: prlimit, bwrap, node with the permission model, the runner. */
export function sandboxCommand(
  job: Pick<StagedJob, 'code' | 'work'>,
  limits: SandboxLimits,
  node = process.execPath,
): string[] {
  return [
    `--as=${limits.addressSpaceBytes}`,
    `--cpu=${limits.cpuSeconds}`,
    `--fsize=${limits.fileSizeBytes}`,
    '--nproc=1024',
    '--nofile=256',
    '--core=0',
    '--',
    'bwrap',
    ...SANDBOX_NAMESPACE_ARGS,
    '--new-session',
    '--cap-drop',
    'ALL',
    '--clearenv',
    ...USR_ROOT_ARGS,
    ...nodeMounts(node),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(16 * 1024 * 1024),
    '--tmpfs',
    '/tmp',
    '--ro-bind',
    job.code,
    '/code',
    '--bind',
    job.work,
    '/job',
    '--remount-ro',
    '/',
    '--chdir',
    '/job',
    '--setenv',
    'PATH',
    '/usr/bin',
    node,
    '--experimental-permission',
    '--allow-fs-read=/code/',
    '--allow-fs-write=/job/',
    '--disallow-code-generation-from-strings',
    `--max-old-space-size=${limits.heapMiB}`,
    '--no-warnings',
    '/code/runner.mjs',
  ];
}

/** Starts the sandboxed child in its own process group (so the whole group can be killed). */
export function launchChild(job: StagedJob, limits: SandboxLimits): ChildProcess {
  return spawn('prlimit', sandboxCommand(job, limits), {
    env: {},
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...sandboxIdentity(),
  });
}
