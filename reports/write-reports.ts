/**
 * Writes every report of a set of trajectories into one folder: results.json (witness.results:
 * summary rows and every trajectory, streamed one per line — reports/results-stream.ts), summary.md
 * (the Markdown leaderboard, fit for a pull-request comment or a job summary), report.json
 * (witness.report: the leaderboard data and plot series) and report.html. The trajectories given
 * may be compact copies (core/meta.ts): the summaries read them as they are, and `full` gives back
 * the full one, one at a time, for results.json and the page. A page of up to INLINE_VIEWS_MAX
 * episodes is one self-contained file; a larger one keeps its trajectories in `report-data/`
 * beside it, one script per task, loaded when a trajectory is opened. The reporter and
 * `witness report` both use it.
 */
import { join } from 'node:path';
import type { Trajectory } from '../core/types.ts';
import type { GateVerdict } from './gate.ts';
import { renderGateMarkdown } from './gate-format.ts';
import { removeReportData, renderHtml } from './html.ts';
import { writeLazyViews } from './html-lazy.ts';
import { renderMarkdown } from './markdown.ts';
import { compareTrajectories } from './merge.ts';
import { buildReport, type ReportFile, sectionGroups } from './report-data.ts';
import { combinedRunId, writeFileAtomic } from './results-file.ts';
import { writeResultsStream } from './results-stream.ts';
import { listHarnessErrors, type SummaryRow } from './summary.ts';
import { trajectoryView } from './trajectory-view.ts';

/** Largest run whose page inlines every trajectory view (one self-contained file). */
export const INLINE_VIEWS_MAX = 2_000;

/** Gives the full form of a (possibly compact) trajectory, and a note when some were not found. */
export interface FullSource {
  full(t: Trajectory): Trajectory;
  note(): string | null;
}

export interface ReportOptions {
  variantOf?: (t: Trajectory) => string | undefined;
  /** Merge notes shown in every report. */
  notes?: string[];
  /** The results files the trajectories came from. */
  sources?: string[];
  gate?: GateVerdict;
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
  const createdAt = new Date().toISOString();
  await writeResultsStream(
    paths.results,
    { runId: combinedRunId(sorted), createdAt, summary },
    mapIterable(sorted, full),
  );
  const missing = options.fullSource?.note();
  if (missing) report.notes.push(missing);

  const notes = report.notes;
  const markdown = [
    ...(options.gate ? [renderGateMarkdown(options.gate)] : []),
    renderMarkdown(summary, listHarnessErrors(sorted)),
    ...(notes.length > 0 ? [`## Merge notes\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`] : []),
  ].join('\n');
  await writeFileAtomic(paths.summary, markdown);
  await writeFileAtomic(paths.reportJson, `${JSON.stringify(report, null, 2)}\n`);

  const placed = sectionGroups(sorted, options.variantOf).flatMap(({ groups }, section) =>
    groups.flatMap((g) => g.trajectories.map((t) => ({ t, section }))),
  );
  if (placed.length <= (options.inlineViewsMax ?? INLINE_VIEWS_MAX)) {
    const views = placed.map(({ t, section }) => trajectoryView(full(t), section));
    await removeReportData(outDir);
    await writeFileAtomic(paths.html, renderHtml(report, views));
  } else {
    const index = await writeLazyViews(outDir, placed, full);
    paths.reportData = join(outDir, 'report-data');
    await writeFileAtomic(paths.html, renderHtml(report, index, { lazy: true }));
  }
  return paths;
}

function* mapIterable<T, U>(items: readonly T[], map: (item: T) => U): Iterable<U> {
  for (const item of items) yield map(item);
}
