/** Test support: whether processes still run, for tests that kill process trees (Linux: /proc). */
import { readFileSync } from 'node:fs';

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
