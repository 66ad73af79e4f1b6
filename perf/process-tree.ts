/**
 * Peak resident memory of a process and its descendants, for the perf scripts: polls /proc while
 * the process runs and keeps each Node process's VmHWM (the kernel's high-water mark of its RSS,
 * so a short poll gap misses nothing but a process that lives less than one poll).
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface TreePeaks {
  status: number | null;
  /** Peak RSS of the process itself, MB. */
  mainMb: number;
  /** Peak RSS of each descendant Node process (the workers), MB, largest first. */
  workerMb: number[];
  /** The same, each with the script its command line runs (`vitest.mjs`, `forks.js`, …). */
  workers: { mb: number; script: string }[];
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Parent pid by pid, for every process visible now. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    // Fields after the command name (which may hold spaces) in parentheses: state, ppid, …
    const after = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (after?.[1]) map.set(Number(name), Number(after[1]));
  }
  return map;
}

function highWaterMb(pid: number): number | undefined {
  const kb = /VmHWM:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '')?.[1];
  return kb === undefined ? undefined : Number(kb) / 1024;
}

/** Waits for `child` to exit, polling its process tree every `everyMs`; returns its exit status and the peaks. */
export async function measureTree(child: ChildProcess, everyMs = 100): Promise<TreePeaks> {
  const rootPid = child.pid as number;
  const peaks = new Map<number, number>();
  const scripts = new Map<number, string>();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let done = false;
  void exited.then(() => (done = true));
  while (!done) {
    const parentOf = parents();
    const tree = new Set([rootPid]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [pid, parent] of parentOf)
        if (tree.has(parent) && !tree.has(pid)) {
          tree.add(pid);
          grew = true;
        }
    }
    for (const pid of tree) {
      if (pid !== rootPid && !(read(`/proc/${pid}/comm`) ?? '').startsWith('node')) continue;
      const mb = highWaterMb(pid);
      if (mb !== undefined) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, mb));
      if (!scripts.has(pid)) scripts.set(pid, scriptOf(pid));
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  const status = await exited;
  const mainMb = peaks.get(rootPid) ?? 0;
  peaks.delete(rootPid);
  const workers = [...peaks].map(([pid, mb]) => ({ mb, script: scripts.get(pid) ?? '?' })).sort((a, b) => b.mb - a.mb);
  return { status, mainMb, workerMb: workers.map((w) => w.mb), workers };
}

/** The file name of the first argument after node's own options (the script the process runs). */
function scriptOf(pid: number): string {
  const args = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').slice(1);
  const script = args.find((a) => !a.startsWith('-') && /\.(m?js|ts)$/.test(a));
  return script?.split('/').at(-1) ?? '?';
}
