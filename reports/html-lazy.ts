/**
 * The report page's trajectories at scale: each task of each section becomes one script in
 * `report-data/` (`c<n>.js`, calling `witnessReportChunk(n, [[view index, view], …])`), which the
 * page loads with a `<script src>` when one of the task's trajectories is opened — a script element
 * works from file://, where Chromium blocks fetch(). The page itself carries only each view's
 * header (task, strategy, trial, status), so it stays small and opens fast at 20,000 episodes.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Trajectory } from '../core/types.ts';
import { scriptJson } from './html.ts';
import { type TrajectoryView, trajectoryView } from './trajectory-view.ts';

export const REPORT_DATA_DIR = 'report-data';

/** A view's header on the page: no prompt or turns until its chunk is loaded. */
export type IndexedView = TrajectoryView & { chunk: number };

/** A placed trajectory: its section on the page. */
export interface Placed {
  t: Trajectory;
  section: number;
}

/** The page's chunks: the view headers in the order given, and each chunk's view indices. */
export interface ChunkPlan {
  index: IndexedView[];
  members: number[][];
}

/** One chunk per (section, task), numbered in order of first appearance. */
export function planChunks(placed: readonly Placed[]): ChunkPlan {
  const chunkOf = new Map<string, number>();
  const members: number[][] = [];
  const index: IndexedView[] = placed.map(({ t, section }, i) => {
    const key = JSON.stringify([section, t.taskId]);
    let chunk = chunkOf.get(key);
    if (chunk === undefined) {
      chunk = members.length;
      chunkOf.set(key, chunk);
      members.push([]);
    }
    (members[chunk] as number[]).push(i);
    return { ...trajectoryView(t, section), prompt: '', turns: [], chunk };
  });
  return { index, members };
}

/**
 * Writes chunk scripts into a temporary folder beside `<outDir>/report-data/`, which `finish`
 * puts in place of the old folder as a whole (`abort` removes it).
 */
export class ChunkWriter {
  // A few writes in flight at a time: thousands of small files, one after the other, wait on the disk.
  private readonly writing = new Set<Promise<void>>();

  private constructor(
    private readonly outDir: string,
    private readonly temp: string,
  ) {}

  static async open(outDir: string): Promise<ChunkWriter> {
    const temp = join(outDir, `${REPORT_DATA_DIR}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    await mkdir(temp, { recursive: true });
    return new ChunkWriter(outDir, temp);
  }

  /** Writes chunk `chunk`'s views ([view index, view] pairs); waits while 16 writes are in flight. */
  async write(chunk: number, views: readonly [number, TrajectoryView][]): Promise<void> {
    const write = writeFile(join(this.temp, `c${chunk}.js`), `witnessReportChunk(${chunk},${scriptJson(views)});\n`);
    const tracked = write.finally(() => this.writing.delete(tracked));
    this.writing.add(tracked);
    if (this.writing.size >= 16) await Promise.race(this.writing);
  }

  async finish(): Promise<void> {
    await Promise.all(this.writing);
    const target = join(this.outDir, REPORT_DATA_DIR);
    await rm(target, { recursive: true, force: true });
    await rename(this.temp, target);
  }

  async abort(): Promise<void> {
    await Promise.allSettled(this.writing);
    await rm(this.temp, { recursive: true, force: true });
  }
}
