/**
 * The HTML report: the report data and the trajectory views embedded as JSON, the Chart.js UMD
 * bundle and the page script inlined, so the file works from file:// with no network. A lazy page
 * (large runs, reports/html-lazy.ts) embeds only the views' headers and loads each task's
 * trajectories from `report-data/` beside it when they are opened.
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ReportFile } from './report-data.ts';
import type { TrajectoryView } from './trajectory-view.ts';

/** A file of the report page's assets (reports/html/: page.css, page.js), as text. */
export const pageAsset = (name: string) => readFileSync(new URL(`./html/${name}`, import.meta.url), 'utf8');
const asset = pageAsset;

/** The Chart.js UMD bundle (chart.js resolves to dist/chart.cjs; the UMD build sits beside it). */
export function chartJsBundle(): string {
  const main = createRequire(import.meta.url).resolve('chart.js');
  return readFileSync(join(dirname(main), 'chart.umd.min.js'), 'utf8');
}

/** JSON that is safe inside a <script> element: no "</script", no line separators JavaScript rejects. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Inline script text must not close its element early. */
export function inlineScript(code: string): string {
  if (/<\/script/i.test(code)) throw new Error('an inlined script contains "</script"');
  return code;
}

export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Removes a `report-data/` folder a larger earlier report left in `outDir`. */
export async function removeReportData(outDir: string): Promise<void> {
  await rm(join(outDir, 'report-data'), { recursive: true, force: true });
}

/** The whole page as one string; `lazy`: the views are headers whose trajectories are in `report-data/`. */
export function renderHtml(
  report: ReportFile,
  views: readonly TrajectoryView[],
  options: { lazy?: boolean } = {},
): string {
  const title = `Witness report · ${report.sections.map((s) => s.title).join(', ') || 'no trajectories'}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="witness">
<title>${escapeHtml(title)}</title>
<style>
${asset('page.css')}
</style>
</head>
<body>
<header class="page">
<h1>Witness leaderboard</h1>
<p class="meta" id="runs"></p>
<p class="meta" id="created"></p>
</header>
<main id="app"></main>
<dialog id="trajectory" aria-labelledby="trajectory-title">
<div class="head"><div><h3 id="trajectory-title"></h3><p class="meta" id="trajectory-meta"></p></div><button class="close" id="close" type="button">Close</button></div>
<div class="body" id="trajectory-body"></div>
</dialog>
<script type="application/json" id="witness-data">${scriptJson({ report, views, ...(options.lazy ? { lazy: 'report-data/' } : {}) })}</script>
<script>
${inlineScript(chartJsBundle())}
</script>
<script>
${inlineScript(asset('page.js'))}
</script>
</body>
</html>
`;
}
