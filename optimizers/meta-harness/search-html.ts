/**
 * The search's HTML report (`report.html` beside `report.md` in the held-out folder): one
 * self-contained page — the data embedded as JSON, Chart.js and the page script inlined, the
 * leaderboard page's stylesheet — so it works from file:// with no network. It shows the notices,
 * the frontier as a scatter plot (Pass@final against mean tokens, frontier members highlighted), the
 * best-so-far line over iterations, what each candidate changed and why, and the held-out results
 * with their paired statistics.
 */
import { readFileSync } from 'node:fs';
import { chartJsBundle, escapeHtml, inlineScript, pageAsset, scriptJson } from '../../reports/html.ts';
import type { HeldOutComparison } from './search-heldout.ts';
import type { ReportNotices } from './search-report.ts';
import type { MetaHarnessStore } from './store.ts';
import type { EvolutionRow, HeldOutRecord } from './store-records.ts';

/** What the page shows, JSON-safe. */
export interface SearchPageData {
  notices: ReportNotices;
  rows: EvolutionRow[];
  frontier: string[];
  /** Per iteration: candidates, valid ones, the best Pass@final of the iteration and so far. */
  iterations: { iteration: number; candidates: number; valid: number; best: number | null; bestSoFar: number | null }[];
  baseline: string;
  heldOut: { id: string; passAtFinal: number; meanTokens: number; comparison: HeldOutComparison | null }[] | null;
  /** The command that puts the best harness in a suite's leaderboard, when there is one. */
  leaderboard: string | null;
}

/** Best Pass@final per iteration and so far (rows without a score count as candidates, not as valid). */
export function iterationSummary(rows: readonly EvolutionRow[]): SearchPageData['iterations'] {
  const iterations = [...new Set(rows.map((r) => r.iteration))].sort((a, b) => a - b);
  let bestSoFar: number | null = null;
  return iterations.map((iteration) => {
    const these = rows.filter((r) => r.iteration === iteration);
    const scored = these.flatMap((r) => (r.passAtFinal === null ? [] : [r.passAtFinal]));
    const best = scored.length ? Math.max(...scored) : null;
    if (best !== null) bestSoFar = bestSoFar === null ? best : Math.max(bestSoFar, best);
    return { iteration, candidates: these.length, valid: scored.length, best, bestSoFar };
  });
}

/** The page's data from the store and the held-out results. */
export function searchPageData(
  store: MetaHarnessStore,
  notices: ReportNotices,
  heldOut: HeldOutRecord | null,
  comparisons: readonly HeldOutComparison[],
  baseline: string,
  leaderboard: string | null = null,
): SearchPageData {
  const rows = store.readEvolution();
  const byId = new Map(comparisons.map((c) => [c.id, c]));
  return {
    notices,
    rows,
    frontier: store.readFrontier()?.members.map((m) => m.id) ?? [],
    iterations: iterationSummary(rows),
    baseline,
    heldOut:
      heldOut?.results.map((r) => ({
        id: r.id,
        passAtFinal: r.scores.passAtFinal,
        meanTokens: r.scores.meanTokens,
        comparison: byId.get(r.id) ?? null,
      })) ?? null,
    leaderboard,
  };
}

const script = () => readFileSync(new URL('./html/search-page.js', import.meta.url), 'utf8');

/** The whole page as one string. */
export function renderSearchHtml(data: SearchPageData): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="witness">
<title>${escapeHtml(`Meta-Harness search · ${data.notices.suite}`)}</title>
<style>
${pageAsset('page.css')}
td.text { text-align: left; white-space: normal; max-width: 520px; }
tr.frontier td:first-child { font-weight: 600; }
code.command { display: block; white-space: pre-wrap; background: var(--bg); padding: 6px 8px; border-radius: 4px; }
</style>
</head>
<body>
<header class="page">
<h1>Meta-Harness search: ${escapeHtml(data.notices.suite)}</h1>
<p class="meta" id="summary"></p>
</header>
<main id="app"></main>
<script type="application/json" id="mh-data">${scriptJson(data)}</script>
<script>
${inlineScript(chartJsBundle())}
</script>
<script>
${inlineScript(script())}
</script>
</body>
</html>
`;
}
