/**
 * The child's sandbox: `node child/runner.mjs` under prlimit (address space, CPU, file size, no
 * core dumps) inside bubblewrap with every namespace unshared (no network: its own empty network
 * namespace), all capabilities dropped, an empty environment but PATH, a read-only /usr (where the
 * node binary lives), the code folder read-only at /code, a size-capped tmpfs as the writable job
 * folder at /job (it dies with the sandbox) and a small /tmp; as uid/gid 65534 when the host runs
 * as root. Node's permission model adds a second wall: reads only under /code, writes only under
 * /job, no child processes, no workers, no native addons, no code generation from strings.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname } from 'node:path';
import { sandboxIdentity } from '../../core/sandbox/identity.ts';
import { SANDBOX_NAMESPACE_ARGS, USR_ROOT_ARGS } from '../../core/sandbox/system-files.ts';
import type { SandboxLimits } from './budgets.ts';
import type { StagedJob } from './job-folder.ts';

/** The node binary's install folder when it is outside /usr (bound read-only at its own path). */
function nodeMounts(node: string): string[] {
  if (node.startsWith('/usr/')) return [];
  const prefix = dirname(dirname(node));
  return ['--ro-bind', prefix, prefix];
}

/** The full command line: prlimit, bwrap, node with the permission model, the runner. */
export function sandboxCommand(job: Pick<StagedJob, 'code'>, limits: SandboxLimits, node = process.execPath): string[] {
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
    '--size',
    String(limits.jobBytes),
    '--tmpfs',
    '/job',
    '--ro-bind',
    job.code,
    '/code',
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
