/**
 * Writes every report of a set of trajectories into one folder: results.json (witness.results:
 * summary rows and every trajectory), summary.md (the Markdown leaderboard, fit for a pull-request
 * comment or a job summary), report.json (witness.report: the leaderboard data and plot series) and
 * report.html (the self-contained page). The reporter and `witness report` both use it.
 */
import { join } from 'node:path';
import type { Trajectory } from '../core/types.ts';
import type { GateVerdict } from './gate.ts';
import { renderGateMarkdown } from './gate-format.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import { buildReport, type ReportFile } from './report-data.ts';
import { buildResults, writeFileAtomic, writeResultsFile } from './results-file.ts';
import { listHarnessErrors, summarize } from './summary.ts';

export interface ReportOptions {
  variantOf?: (t: Trajectory) => string | undefined;
  /** Merge notes shown in every report. */
  notes?: string[];
  /** The results files the trajectories came from. */
  sources?: string[];
  gate?: GateVerdict;
}

export interface WrittenReports {
  /** The report data that was written. */
  report: ReportFile;
  results: string;
  summary: string;
  reportJson: string;
  html: string;
}

/** Writes the four reports atomically and returns their paths. */
export async function writeReports(
  outDir: string,
  trajectories: readonly Trajectory[],
  options: ReportOptions = {},
): Promise<WrittenReports> {
  const summary = summarize(trajectories, {}, options.variantOf);
  const { report, views } = buildReport(trajectories, options);
  const paths: WrittenReports = {
    report,
    results: join(outDir, 'results.json'),
    summary: join(outDir, 'summary.md'),
    reportJson: join(outDir, 'report.json'),
    html: join(outDir, 'report.html'),
  };
  const markdown = [
    ...(options.gate ? [renderGateMarkdown(options.gate)] : []),
    renderMarkdown(summary, listHarnessErrors(trajectories)),
    ...(options.notes && options.notes.length > 0
      ? [`## Merge notes\n\n${options.notes.map((n) => `- ${n}`).join('\n')}\n`]
      : []),
  ].join('\n');
  await writeResultsFile(paths.results, buildResults(summary, trajectories));
  await writeFileAtomic(paths.summary, markdown);
  await writeFileAtomic(paths.reportJson, `${JSON.stringify(report, null, 2)}\n`);
  await writeFileAtomic(paths.html, renderHtml(report, views));
  return paths;
}
