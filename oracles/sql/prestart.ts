/**
 * SQLite processes started before the CLI has loaded. `witness eval bird` spends its start-up in two
 * places: its own (Node, the launcher, the command's modules: one thread, so one core) and its
 * SQLite processes' (a Node process each, then better-sqlite3). The launcher (bin/witness.js) calls
 * `prestartSqlChildren()` before anything else loads, so a child starts on the core the launcher
 * leaves idle; the command's pool takes it over (`adoptPrestarted`) when it would start a child
 * with exactly the same command line — the same script, limits and orphan guard — and kills any it
 * did not take once it has started its own (`releasePrestarted`). Until then a started child is
 * unreferenced (it never keeps the process alive), dies with the process (its orphan guard, and a
 * kill at exit) and is forgotten if it exits on its own.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { childCommand, spawnChild, type ChildCommand } from './child-launch.ts';
import { childMemoryMb, DEFAULT_QUERY_LIMITS } from './limits.ts';

const BUNDLED_CHILD = fileURLToPath(new URL('./child.cjs', import.meta.url));
/**
 * The script every SQLite child runs: child.mjs, or in dist/ the same code bundled into one CommonJS
 * file by the build (scripts/bundle-child.mjs), which Node starts sooner.
 */
export const CHILD_SCRIPT = existsSync(BUNDLED_CHILD)
  ? BUNDLED_CHILD
  : fileURLToPath(new URL('./child.mjs', import.meta.url));
/** Largest temporary file of a child in MiB when a pool names none. */
export const DEFAULT_TEMP_FILE_MB = 1024;

interface Started {
  child: ChildProcess;
  key: string;
  /** performance.now() when it was started, and how long it took to say it was ready (undefined: not yet). */
  spawnedAt: number;
  startupMs: number | undefined;
  onMessage: (message: unknown) => void;
  onGone: () => void;
}

const started: Started[] = [];
const keyOf = (launch: ChildCommand) => JSON.stringify([launch.command, ...launch.args]);
const killAtExit = () => releasePrestarted();

/** Starts `count` children with the limits a pool has when it is given none. */
export function prestartSqlChildren(count = 1): void {
  const memoryMb = childMemoryMb(DEFAULT_QUERY_LIMITS);
  const launch = childCommand(CHILD_SCRIPT, { memoryMb, heapMb: memoryMb, tempFileMb: DEFAULT_TEMP_FILE_MB });
  if (started.length === 0) process.on('exit', killAtExit);
  for (let i = 0; i < count; i++) {
    const spawnedAt = performance.now();
    const child = spawnChild(launch);
    const entry: Started = {
      child,
      key: keyOf(launch),
      spawnedAt,
      startupMs: undefined,
      onMessage: (message) => {
        if ((message as { ready?: unknown } | null)?.ready === true) entry.startupMs = performance.now() - spawnedAt;
      },
      onGone: () => void forget(entry),
    };
    child.on('message', entry.onMessage);
    child.once('exit', entry.onGone);
    child.once('error', entry.onGone); // it could not start: 'exit' may never come
    child.unref();
    child.channel?.unref();
    started.push(entry);
  }
}

function forget(entry: Started): ChildProcess | null {
  const at = started.indexOf(entry);
  if (at === -1) return null;
  started.splice(at, 1);
  entry.child.off('message', entry.onMessage);
  entry.child.off('exit', entry.onGone);
  entry.child.off('error', entry.onGone);
  if (started.length === 0) process.off('exit', killAtExit);
  return entry.child;
}

/** A started child taken over by a pool: `startupMs` is known when it said it was ready already. */
export interface Adopted {
  child: ChildProcess;
  spawnedAt: number;
  startupMs: number | undefined;
}

/** A started child with `launch`'s command line, now the caller's. */
export function adoptPrestarted(launch: ChildCommand): Adopted | null {
  const key = keyOf(launch);
  const entry = started.find((s) => s.key === key);
  if (!entry) return null;
  const { spawnedAt, startupMs } = entry;
  const child = forget(entry);
  return child ? { child, spawnedAt, startupMs } : null;
}

/** Kills the started children nobody took. */
export function releasePrestarted(): void {
  for (const entry of [...started]) forget(entry)?.kill('SIGKILL');
}

/** Process ids of the started children that wait to be taken (tests). */
export function prestartedPids(): number[] {
  return started.flatMap((s) => (s.child.pid === undefined ? [] : [s.child.pid]));
}
