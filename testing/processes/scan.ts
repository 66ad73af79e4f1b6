/** Finding processes by a marker in their environment or command line (Linux /proc), for tests of leftovers. */
import { readdirSync, readFileSync } from 'node:fs';

/** Pids of the living (non-zombie) processes whose environment or command line contains `marker`. */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (
        readFileSync(`/proc/${name}/cmdline`, 'latin1').includes(marker) ||
        readable(`/proc/${name}/environ`).includes(marker)
      )
        found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The file's text, or '' when it cannot be read (a non-dumpable process's environment, not being root). */
function readable(path: string): string {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return '';
  }
}

/** Polls `probe` every 100 ms until `done` holds or `timeoutMs` passes; returns the last value. */
export async function waitFor<T>(probe: () => T, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Kills the given pids (cleanup after a failed test) and describes each by its command line. */
export function killLeftovers(pids: readonly number[]): string[] {
  return pids.map((pid) => {
    let line = String(pid);
    try {
      line = `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ').slice(0, 120)}`;
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    return line;
  });
}
