/** Helpers for worker processes started with child_process.spawn (bwrap and process backends). */
import type { ChildProcess } from 'node:child_process';
import type { WorkerExit } from './backend.ts';
import { killProcessGroup } from '../../../core/sandbox/bwrap.ts';

/** Kills the child's whole process group (it was spawned detached, so it leads one). */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  if (killProcessGroup(child.pid)) return;
  try {
    child.kill('SIGKILL');
  } catch {
    // already gone
  }
}

/** Resolves when the child has exited (or could not be started at all). */
export function trackExit(child: ChildProcess): Promise<WorkerExit> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (exit: WorkerExit) => {
      if (done) return;
      done = true;
      resolve(exit);
    };
    child.once('exit', (code, signal) => finish({ code, signal }));
    child.once('error', (error) => {
      // spawn failures (ENOENT) never emit 'exit'
      if (child.pid === undefined) finish({ code: null, signal: `spawn failed: ${error.message}` });
    });
  });
}

/** Lets the harness exit while the child and its pipes are idle. */
export function unrefChild(child: ChildProcess): void {
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    (stream as unknown as { unref?: () => void } | null)?.unref?.();
  }
}
