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

/**
 * Writes one script per (section, task) into `<outDir>/report-data/` (replacing the folder as a
 * whole) and returns the page's view headers, in the order given.
 */
export async function writeLazyViews(
  outDir: string,
  placed: readonly { t: Trajectory; section: number }[],
  full: (t: Trajectory) => Trajectory,
): Promise<IndexedView[]> {
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
  const temp = join(outDir, `${REPORT_DATA_DIR}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  await mkdir(temp, { recursive: true });
  try {
    // A few writes in flight at a time: thousands of small files, one after the other, wait on the disk.
    const writing = new Set<Promise<void>>();
    for (const [chunk, items] of members.entries()) {
      const views = items.map((i) => {
        const { t, section } = placed[i] as { t: Trajectory; section: number };
        return [i, trajectoryView(full(t), section)];
      });
      const write = writeFile(join(temp, `c${chunk}.js`), `witnessReportChunk(${chunk},${scriptJson(views)});\n`);
      const tracked = write.finally(() => writing.delete(tracked));
      writing.add(tracked);
      if (writing.size >= 16) await Promise.race(writing);
    }
    await Promise.all(writing);
    const target = join(outDir, REPORT_DATA_DIR);
    await rm(target, { recursive: true, force: true });
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
  return index;
}
