/** Test support: temporary folders that a test file removes together when it is done; peak memory of pool children; whether a process still runs. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleMemory } from './process-memory.ts';

export function temporaryFolders(): { make(prefix: string): string; removeAll(): void } {
  const made: string[] = [];
  return {
    make(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Samples the peak resident memory of the processes `pids()` names until `stop()` (bytes; see process-memory.ts). */
export const peakRss = (pids: () => number[]): { stop(): number } => sampleMemory(pids);

/** Whether a process runs: present and not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits up to `ms` for every process of `pids` to be gone (signals arrive asynchronously); the ones still running. */
export async function stillRunning(pids: readonly number[], ms = 5000): Promise<number[]> {
  const until = performance.now() + ms;
  while (pids.some(isRunning) && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return pids.filter(isRunning);
}
