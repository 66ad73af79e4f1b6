/**
 * The child's sandbox: `node child/runner.mjs`, started through the shared launcher
 * (core/sandbox/bwrap.ts: no network, no further user namespaces, an empty environment, a
 * read-only /usr where the node binary lives) under prlimit caps (address space, CPU, file size,
 * no core dumps). What is its own: the code folder read-only at /code, a size-capped tmpfs as the
 * writable job folder at /job (it dies with the sandbox), a small /tmp, and PATH as its only
 * variable. Node's permission model adds a second wall: reads only under /code, writes only under
 * /job, no child processes, no workers, no native addons, no code generation from strings.
 */
import type { ChildProcess } from 'node:child_process';
import { dirname } from 'node:path';
import { launchArgs, launchSandbox, roBind, type SandboxLaunch } from '../../core/sandbox/bwrap.ts';
import type { SandboxLimits } from './budgets.ts';
import type { StagedJob } from './job-folder.ts';

/** Size of the child's /tmp. */
const TMP_BYTES = 16 * 1024 * 1024;

/** The node binary's install folder when it is outside /usr (bound read-only at its own path). */
function nodeMounts(node: string): string[] {
  return node.startsWith('/usr/') ? [] : roBind(dirname(dirname(node)));
}

/** The child's launch: node with the permission model running the runner, under the limits. */
function childLaunch(job: Pick<StagedJob, 'code'>, limits: SandboxLimits, node: string): SandboxLaunch {
  return {
    caps: {
      addressSpaceBytes: limits.addressSpaceBytes,
      cpuSeconds: limits.cpuSeconds,
      fileSizeBytes: limits.fileSizeBytes,
      processes: 1024,
      openFiles: 256,
    },
    sandbox: {
      system: nodeMounts(node),
      tmpfs: [
        { path: '/tmp', bytes: TMP_BYTES },
        { path: '/job', bytes: limits.jobBytes },
      ],
      program: roBind(job.code, '/code'),
      chdir: '/job',
      env: { PATH: '/usr/bin' },
    },
    command: [
      node,
      '--experimental-permission',
      '--allow-fs-read=/code/',
      '--allow-fs-write=/job/',
      '--disallow-code-generation-from-strings',
      `--max-old-space-size=${limits.heapMiB}`,
      '--no-warnings',
      '/code/runner.mjs',
    ],
  };
}

/** The full command line after `prlimit`: its caps, bwrap, node with the permission model, the runner. */
export function sandboxCommand(job: Pick<StagedJob, 'code'>, limits: SandboxLimits, node = process.execPath): string[] {
  return launchArgs(childLaunch(job, limits, node));
}

/** Starts the sandboxed child in its own process group (so the whole group can be killed). */
export function launchChild(job: StagedJob, limits: SandboxLimits): ChildProcess {
  return launchSandbox(childLaunch(job, limits, process.execPath));
}
