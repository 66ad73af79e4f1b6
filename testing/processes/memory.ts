/**
 * Memory of processes as Linux reports it in /proc (tests and benchmarks use it to check that a
 * result bomb stays bounded): resident and peak resident bytes of a process, the descendants of a
 * process, and a sampler that records the largest total over time. Elsewhere every figure is 0.
 */
import { readdirSync, readFileSync } from 'node:fs';

function status(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
}

const kib = (text: string, field: string) =>
  1024 * Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);

/** Resident bytes now, and the process's peak resident bytes (VmHWM); 0 for a process that is gone. */
export function residentBytes(pid: number): { rss: number; peak: number } {
  const text = status(pid);
  return { rss: kib(text, 'VmRSS'), peak: kib(text, 'VmHWM') };
}

/** Every live descendant of `pid` (children, their children, …). */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  for (const entry of entries) {
    const ppid = Number(/^PPid:\s+(\d+)/m.exec(status(Number(entry)))?.[1] ?? -1);
    parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const visit = (p: number) => {
    for (const child of parents.get(p) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/**
 * Samples the processes `pids()` names every `intervalMs` and keeps the largest sum of their peak
 * resident sizes (an upper bound of what they held at once); `stop()` ends sampling and returns it.
 */
export function sampleMemory(pids: () => number[], intervalMs = 25): { stop(): number } {
  let largest = 0;
  const sample = () => {
    largest = Math.max(
      largest,
      pids().reduce((sum, pid) => sum + residentBytes(pid).peak, 0),
    );
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    stop() {
      sample();
      clearInterval(timer);
      return largest;
    },
  };
}
