/**
 * Who runs sandboxed Python, and where the files it must read are staged. As root the sandbox runs
 * as uid/gid 65534 (as root RLIMIT_NPROC would not be enforced), which can only enter folders that
 * others may enter; as any other user it runs as that user.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { blockedFolder } from './interpreter-layout.ts';
import { WORKER_PROCESS_CAP } from './limits.ts';

export const SANDBOX_UID = 65534;
export const SANDBOX_GID = 65534;

/** Whether the harness runs as root. */
export function runsAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The spawn options that run a sandbox's first process as the sandbox user ({} when not root). */
export function sandboxIdentity(): { uid?: number; gid?: number } {
  return runsAsRoot() ? { uid: SANDBOX_UID, gid: SANDBOX_GID } : {};
}

/** Why the sandbox user cannot reach `path` ("… cannot enter /home/alice (mode 0750) …"), or null when it can (or the harness is not root). */
export function unreachableReason(path: string, what: string): string | null {
  if (!runsAsRoot()) return null;
  const blocked = blockedFolder(path, SANDBOX_UID, SANDBOX_GID);
  if (!blocked) return null;
  return (
    `the sandbox runs as uid ${SANDBOX_UID} (the harness runs as root), which cannot enter ${blocked.folder} ` +
    `(mode ${blocked.mode.toString(8).padStart(4, '0')}) on the way to ${what} ${path}; move it to a folder others may enter, or let them (chmod o+x ${blocked.folder})`
  );
}

/**
 * The folder for files the sandbox user must read (the worker's sources, the sandbox's system
 * files, the process backend's job folders): the system's temporary folder (TMPDIR), or /tmp when
 * the sandbox user cannot enter that one.
 */
export function sandboxTempDir(): string {
  const preferred = tmpdir();
  if (!unreachableReason(preferred, 'TMPDIR')) return preferred;
  const reason = unreachableReason('/tmp', 'the temporary folder');
  if (reason) throw new Error(`${unreachableReason(preferred, 'TMPDIR')}; nor can it use /tmp: ${reason}`);
  return '/tmp';
}

/**
 * The process cap of a worker (prlimit --nproc). The kernel counts RLIMIT_NPROC over every process
 * (and thread) of the real user: as root that user is the sandbox's own (uid 65534), as another user
 * it is the harness's user, whose other processes would count against the cap — so they are added, within
 * the user's own hard limit. Each phase still sets its own limit, counted inside its sandbox.
 */
export function processCapFor(asRoot: boolean, userProcesses: number, hardLimit: number): number {
  return asRoot ? WORKER_PROCESS_CAP : Math.min(hardLimit, userProcesses + WORKER_PROCESS_CAP);
}

/** processCapFor for this harness (its user's processes and threads counted now, from /proc). */
export function workerProcessCap(): number {
  if (runsAsRoot()) return WORKER_PROCESS_CAP;
  return processCapFor(false, tasksOfUser(process.getuid?.() ?? -1), processHardLimit());
}

/** Tasks (processes and their threads: RLIMIT_NPROC counts both) whose real uid is `uid`. */
function tasksOfUser(uid: number): number {
  let count = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) === uid)
        count += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

function processHardLimit(): number {
  try {
    const line = /^Max processes\s+\S+\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    return line === undefined || line === 'unlimited' ? Number.POSITIVE_INFINITY : Number(line);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
