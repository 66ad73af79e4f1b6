/**
 * How a SQLite child process is started. Its JS thread can be stuck inside SQLite for as long as a
 * query runs, so it cannot notice its parent dying: on Linux it runs under `setpriv --pdeathsig
 * KILL` (the kernel kills it the moment the thread that started it dies) and `prlimit` (a cap on
 * its data memory, so a result SQLite builds before the caps can see it cannot take the machine,
 * and on the size of its temporary files, which big sorts spill to). Where `setpriv` is missing a
 * watchdog thread in the child polls its parent pid instead. Either way the child exits at once if
 * its parent is already gone when it starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** `death-signal`: the kernel's parent-death signal (setpriv); `watchdog`: a thread in the child polling its parent pid. */
export type OrphanGuard = 'death-signal' | 'watchdog';

export interface ChildLimits {
  /** Data memory of the process in MiB (prlimit --data): heap, buffers and SQLite's own allocations. */
  memoryMb: number;
  /**
   * V8 heap limit in MiB (--max-old-space-size). Passed only where it binds: without prlimit, or
   * below `memoryMb` — under the data limit the heap cannot outgrow it anyway, and any V8 flag makes
   * Node reject its built-in code cache (about 9 ms more of every child's start-up here).
   */
  heapMb: number;
  /** Largest temporary file in MiB (prlimit --fsize): SQLite's sorter and temporary tables spill there. */
  tempFileMb: number;
}

export interface ChildCommand {
  command: string;
  args: string[];
  guard: OrphanGuard;
  /** The memory and temporary-file limits are enforced by the kernel (prlimit was found). */
  kernelLimits: boolean;
}

const found = new Map<string, string | null>();
/** The full path of a program on PATH (or in /usr/bin, /bin), or null. */
function findProgram(name: string): string | null {
  let path = found.get(name);
  if (path === undefined) {
    const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/bin', '/bin'];
    path = dirs.map((dir) => join(dir, name)).find((candidate) => existsSync(candidate)) ?? null;
    found.set(name, path);
  }
  return path;
}

const MiB = 1024 * 1024;

/** The command line that starts `script` as a SQLite child of this process. */
export function childCommand(script: string, limits: ChildLimits, guard?: OrphanGuard): ChildCommand {
  const setpriv = guard === 'watchdog' ? null : findProgram('setpriv');
  const prlimit = findProgram('prlimit');
  const used: OrphanGuard = setpriv ? 'death-signal' : 'watchdog';
  const heapFlag = !prlimit || limits.heapMb < limits.memoryMb ? [`--max-old-space-size=${limits.heapMb}`] : [];
  const node = [
    process.execPath,
    ...heapFlag,
    script,
    String(process.pid),
    used === 'watchdog' ? 'watchdog' : 'signal',
  ];
  const limited = prlimit
    ? [prlimit, `--data=${limits.memoryMb * MiB}`, `--fsize=${limits.tempFileMb * MiB}`, '--core=0', '--', ...node]
    : node;
  const full = setpriv ? [setpriv, '--pdeathsig', 'KILL', '--', ...limited] : limited;
  return { command: full[0] as string, args: full.slice(1), guard: used, kernelLimits: prlimit !== null };
}

/** Starts a SQLite child as the pool runs it: empty environment, structured-clone IPC, no output kept. */
export function spawnChild(launch: ChildCommand): ChildProcess {
  return spawn(launch.command, launch.args, {
    env: {},
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
}
