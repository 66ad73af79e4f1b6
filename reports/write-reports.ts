/**
 * Writes every report of a set of trajectories into one folder: results.json (witness.results:
 * summary rows and every trajectory, streamed one per line — reports/results-stream.ts), summary.md
 * (the Markdown leaderboard, fit for a pull-request comment or a job summary), report.json
 * (witness.report: the leaderboard data and plot series) and report.html. The trajectories given
 * may be metric records (core/meta.ts): the summaries read them as they are, and `fullSource` gives
 * back the full one, one at a time, in a single pass that writes its results.json line and its
 * view on the page. results.json lists the trajectories in the page's order (section by section,
 * task by task: benchmark, model, variant, task, then strategy, trial and run), so each task's
 * views are complete when its last trajectory is read. A page of up to INLINE_VIEWS_MAX episodes
 * is one self-contained file; a larger one keeps its trajectories in `report-data/` beside it, one
 * script per task, loaded when a trajectory is opened. The reporter and `witness report` both use it.
 */
import { join } from 'node:path';
import type { Trajectory } from '../core/types.ts';
import { markdownText } from '../core/text-safety.ts';
import type { GateVerdict } from './gate.ts';
import type { Ledger } from './ledger.ts';
import { renderGateMarkdown } from './gate-format.ts';
import { removeReportData, renderHtml } from './html.ts';
import { ChunkWriter, type IndexedView, type Placed, planChunks } from './html-lazy.ts';
import { renderMarkdown } from './markdown.ts';
import { compareTrajectories } from './merge.ts';
import { buildReport, type ReportFile, sectionGroups } from './report-data.ts';
import { combinedRunId, writeFileAtomic } from './results-file.ts';
import { writeResultsStream } from './results-stream.ts';
import { listHarnessErrors, type SummaryRow } from './summary.ts';
import { type TrajectoryView, trajectoryView } from './trajectory-view.ts';

/** Largest run whose page inlines every trajectory view (one self-contained file). */
export const INLINE_VIEWS_MAX = 2_000;

/** Gives the full form of a (possibly compact) trajectory, and a note when some were not found. */
export interface FullSource {
  full(t: Trajectory): Trajectory;
  note(): string | null;
  /** Releases what reading held open (store files); called once the reports are written. */
  close?(): void;
}

export interface ReportOptions {
  variantOf?: (t: Trajectory) => string | undefined;
  /** Merge notes shown in every report. */
  notes?: string[];
  /** The results files the trajectories came from. */
  sources?: string[];
  gate?: GateVerdict;
  /** The ledger of planned episodes, when the run kept one (results.json, summary.md, report.json). */
  ledger?: Ledger;
  /** Full trajectories for compact ones; by default the trajectories are full already. */
  fullSource?: FullSource;
  /** Largest run whose page inlines every view (default INLINE_VIEWS_MAX). */
  inlineViewsMax?: number;
}

export interface WrittenReports {
  /** The report data that was written. */
  report: ReportFile;
  results: string;
  summary: string;
  reportJson: string;
  html: string;
  /** The folder of per-task trajectory scripts, when the page loads them on demand. */
  reportData?: string;
}

/** Writes the four reports atomically and returns their paths. */
export async function writeReports(
  outDir: string,
  trajectories: readonly Trajectory[],
  options: ReportOptions = {},
): Promise<WrittenReports> {
  const sorted = [...trajectories].sort(compareTrajectories);
  const full = options.fullSource
    ? (t: Trajectory) => (options.fullSource as FullSource).full(t)
    : (t: Trajectory) => t;
  const { report } = buildReport(sorted, { ...options, views: false });
  // The report's rows are the summary rows plus the plot series: computed once for both.
  const summary: SummaryRow[] = report.sections.flatMap((s) => s.rows.map(({ curve: _c, tau: _t, ...row }) => row));
  const paths: WrittenReports = {
    report,
    results: join(outDir, 'results.json'),
    summary: join(outDir, 'summary.md'),
    reportJson: join(outDir, 'report.json'),
    html: join(outDir, 'report.html'),
  };
  const placed: Placed[] = sectionGroups(sorted, options.variantOf).flatMap(({ groups }, section) =>
    groups.flatMap((g) => g.trajectories.map((t) => ({ t, section }))),
  );
  const plan = planChunks(placed);
  const inline = placed.length <= (options.inlineViewsMax ?? INLINE_VIEWS_MAX);
  const views: TrajectoryView[] = [];
  const chunks = inline ? undefined : await ChunkWriter.open(outDir);
  const placedSet = new Set(placed.map((p) => p.t));
  // The one pass over the full trajectories: each is read once, for its results line and its view.
  async function* fullTrajectories(): AsyncIterable<Trajectory> {
    for (const [chunk, items] of plan.members.entries()) {
      const chunkViews: [number, TrajectoryView][] = [];
      for (const i of items) {
        const { t, section } = placed[i] as Placed;
        const f = full(t);
        yield f;
        const view = trajectoryView(f, section);
        if (chunks) chunkViews.push([i, view]);
        else views[i] = view;
      }
      if (chunks) await chunks.write(chunk, chunkViews);
    }
    // Trajectories the rows leave out (a second episode of the same task and trial) are kept in results.json.
    for (const t of sorted) if (!placedSet.has(t)) yield full(t);
  }
  try {
    await writeResultsStream(
      paths.results,
      {
        runId: combinedRunId(sorted),
        createdAt: new Date().toISOString(),
        summary,
        ...(options.ledger ? { ledger: options.ledger } : {}),
      },
      fullTrajectories(),
    );
    if (chunks) await chunks.finish();
  } catch (error) {
    await chunks?.abort();
    throw error;
  } finally {
    options.fullSource?.close?.();
  }
  const missing = options.fullSource?.note();
  if (missing) report.notes.push(missing);

  const notes = report.notes;
  const markdown = [
    ...(options.gate ? [renderGateMarkdown(options.gate)] : []),
    renderMarkdown(summary, listHarnessErrors(sorted), {
      invalidData: report.invalidData ?? [],
      ...(options.ledger ? { ledger: options.ledger } : {}),
    }),
    ...(notes.length > 0 ? [`## Merge notes\n\n${notes.map((n) => `- ${markdownText(n)}`).join('\n')}\n`] : []),
  ].join('\n');
  await writeFileAtomic(paths.summary, markdown);
  await writeFileAtomic(paths.reportJson, `${JSON.stringify(report, null, 2)}\n`);
  if (inline) {
    await removeReportData(outDir);
    await writeFileAtomic(paths.html, renderHtml(report, views));
  } else {
    paths.reportData = join(outDir, 'report-data');
    await writeFileAtomic(paths.html, renderHtml(report, plan.index satisfies IndexedView[], { lazy: true }));
  }
  return paths;
}
