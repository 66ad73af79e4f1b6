/**
 * The search's Markdown reports: a short one per iteration (in the store, for people and the
 * proposer: what was tried, what it scored, the frontier) and the final report (frontier table, a
 * scatter of Pass@final against tokens, the evolution over iterations, what each candidate changed
 * and why, the held-out results with paired statistics, and the notices: a simulated proposer, a
 * privileged model). The final report holds held-out results, so it lives in the held-out folder.
 */
import { markdownText } from '../../core/text-safety.ts';
import type { HeldOutComparison } from './search-heldout.ts';
import type { MetaHarnessStore } from './store.ts';
import type { EvolutionRow, FrontierRecord, HeldOutRecord } from './store-records.ts';

const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);
const num = (x: number | null) => (x === null ? '—' : x.toFixed(0));
// Mechanisms, hypotheses, outcomes and names come from proposals and candidates: shown as inert text.
const cell = markdownText;

function evolutionTable(rows: readonly EvolutionRow[]): string[] {
  return [
    '| iteration | candidate | parent | mechanism | outcome | Pass@final | mean tokens | Δ vs best | frontier |',
    '|---:|---|---|---|---|---:|---:|---:|:-:|',
    ...rows.map(
      (r) =>
        `| ${r.iteration} | ${r.id} | ${r.parent ?? '—'} | ${cell(r.mechanism)} | ${cell(r.outcome.slice(0, 160))} | ${pct(r.passAtFinal)} | ${num(r.meanTokens)} | ${r.deltaVsBest === null ? '—' : `${r.deltaVsBest >= 0 ? '+' : ''}${(100 * r.deltaVsBest).toFixed(1)} pt`} | ${r.onFrontier ? '✓' : ''} |`,
    ),
  ];
}

function frontierTable(frontier: FrontierRecord | null): string[] {
  if (!frontier || frontier.members.length === 0) return ['(no candidate was evaluated)'];
  return [
    '| candidate | Pass@final | mean tokens |',
    '|---|---:|---:|',
    ...frontier.members.map((m) => `| ${m.id} | ${pct(m.passAtFinal)} | ${num(m.meanTokens)} |`),
  ];
}

/** A text scatter: Pass@final (rows, top = 100%) against mean tokens (columns); `*` frontier, `o` other, `+` several. */
export function scatter(
  rows: readonly EvolutionRow[],
  frontierIds: ReadonlySet<string>,
  width = 48,
  height = 10,
): string[] {
  const points = rows.filter((r) => r.passAtFinal !== null && r.meanTokens !== null);
  if (points.length === 0) return [];
  const tokens = points.map((p) => p.meanTokens as number);
  const lo = Math.min(...tokens);
  const hi = Math.max(...tokens);
  const grid = Array.from({ length: height + 1 }, () => Array.from({ length: width + 1 }, () => ' '));
  for (const p of points) {
    const x = hi === lo ? Math.floor(width / 2) : Math.round((((p.meanTokens as number) - lo) / (hi - lo)) * width);
    const y = height - Math.round((p.passAtFinal as number) * height);
    const row = grid[y] as string[];
    const mark = frontierIds.has(p.id) ? '*' : 'o';
    row[x] = row[x] === ' ' ? mark : row[x] === mark && mark === 'o' ? '+' : '*';
  }
  const lines = grid.map((row, i) => `${i === 0 ? '100% ' : i === height ? '  0% ' : '     '}|${row.join('')}`);
  return [
    '```',
    ...lines,
    `     +${'-'.repeat(width + 1)}`,
    `      ${String(Math.round(lo)).padEnd(width - 8)}${String(Math.round(hi)).padStart(9)}  mean tokens`,
    '```',
    '`*` on the frontier, `o` dominated (`+` several at one spot); higher is better, further left is cheaper.',
  ];
}

/** The short report of one iteration (reports/iteration-<n>.md). */
export function renderIterationReport(store: MetaHarnessStore, iteration: number): string {
  const rows = store.readEvolution();
  const these = rows.filter((r) => r.iteration === iteration);
  const best = rows
    .filter((r) => r.passAtFinal !== null)
    .sort((a, b) => (b.passAtFinal as number) - (a.passAtFinal as number))[0];
  return [
    `# Iteration ${iteration}`,
    '',
    iteration === 0 ? 'The seed harnesses.' : `${these.length} candidate(s) proposed.`,
    '',
    ...evolutionTable(these),
    '',
    ...these.map((r) => `- **${r.id}** (${cell(r.mechanism)}): ${cell(r.hypothesis)}`),
    '',
    `Best so far: ${best ? `${best.id}, Pass@final ${pct(best.passAtFinal)} at ${num(best.meanTokens)} tokens` : 'none'}.`,
    '',
    '## Frontier',
    '',
    ...frontierTable(store.readFrontier()),
  ].join('\n');
}

export interface ReportNotices {
  suite: string;
  model: string;
  proposer: string;
  proposerSimulated: boolean;
  /** The privileged-model notice, when the model knows the gold (sim, sim-steerable). */
  privilegedNotice: string | null;
  stoppedBy: 'iterations' | 'budget';
  spent: { tokens: number; usd: number };
  searchTasks: number;
  testTasks: number;
}

function heldOutSection(
  heldOut: HeldOutRecord | null,
  comparisons: readonly HeldOutComparison[],
  baseline: string,
): string[] {
  if (!heldOut) return ['Not evaluated (no frontier, no evaluated baseline seed, or no test tasks).'];
  const byId = new Map(comparisons.map((c) => [c.id, c]));
  return [
    `Against the baseline **${baseline}**, paired by task and trial (the gate's statistics: fixes / breaks, exact sign test over tasks, 95% cluster-bootstrap interval of Δ).`,
    '',
    '| harness | Pass@final | mean tokens | Δ vs baseline | 95% interval | fixes | breaks | sign test p (better / worse) |',
    '|---|---:|---:|---:|---|---:|---:|---|',
    ...heldOut.results.map((r) => {
      const c = byId.get(r.id);
      const delta = c?.delta ?? null;
      return `| ${r.id}${r.id === baseline ? ' (baseline)' : ''} | ${pct(r.scores.passAtFinal)} | ${num(r.scores.meanTokens)} | ${c ? `${(delta ?? 0) >= 0 ? '+' : ''}${(100 * (delta ?? 0)).toFixed(1)} pt` : '—'} | ${c?.interval ? `[${(100 * c.interval.low).toFixed(1)}, ${(100 * c.interval.high).toFixed(1)}] pt` : '—'} | ${c ? c.fixes.length : '—'} | ${c ? c.breaks.length : '—'} | ${c ? `${c.sign.pBetter.toFixed(3)} / ${c.sign.pWorse.toFixed(3)}` : '—'} |`;
    }),
  ];
}

/** The final report of a search. */
export function renderSearchReport(
  store: MetaHarnessStore,
  notices: ReportNotices,
  heldOut: HeldOutRecord | null,
  comparisons: readonly HeldOutComparison[],
  baseline: string,
): string {
  const rows = store.readEvolution();
  const frontier = store.readFrontier();
  const frontierIds = new Set(frontier?.members.map((m) => m.id) ?? []);
  const byTokens = rows
    .filter((r) => r.passAtFinal !== null)
    .sort((a, b) => (a.meanTokens as number) - (b.meanTokens as number));
  const iterations = [...new Set(rows.map((r) => r.iteration))].sort((a, b) => a - b);
  return [
    `# Meta-Harness search: ${cell(notices.suite)}`,
    '',
    `Model: ${cell(notices.model)}. Proposer: ${cell(notices.proposer)}. Search pool: ${notices.searchTasks} tasks; test split: ${notices.testTasks} tasks.`,
    `Stopped by: ${notices.stoppedBy === 'budget' ? 'the budget' : 'the last iteration'} (search spent ${notices.spent.tokens} tokens${notices.spent.usd > 0 ? `, $${notices.spent.usd.toFixed(4)}` : ''}).`,
    ...(notices.proposerSimulated
      ? ['', '> **Proposer simulated**: the candidates were written by the seeded sim proposer, not by a model.']
      : []),
    ...(notices.privilegedNotice ? ['', `> ${cell(notices.privilegedNotice)}`] : []),
    '',
    '## Frontier (Pass@final ↑, mean tokens ↓) on the search pool',
    '',
    ...frontierTable(frontier),
    '',
    ...scatter(rows, frontierIds),
    '',
    '## All evaluated candidates, by mean tokens',
    '',
    '| candidate | mean tokens | Pass@final | frontier |',
    '|---|---:|---:|:-:|',
    ...byTokens.map(
      (r) => `| ${r.id} | ${num(r.meanTokens)} | ${pct(r.passAtFinal)} | ${frontierIds.has(r.id) ? '✓' : ''} |`,
    ),
    '',
    '## Evolution over iterations',
    '',
    '| iteration | candidates | valid | best Pass@final this iteration | best so far |',
    '|---:|---:|---:|---:|---:|',
    ...iterations.map((it) => {
      const these = rows.filter((r) => r.iteration === it);
      const scored = these.filter((r) => r.passAtFinal !== null).map((r) => r.passAtFinal as number);
      const sofar = rows.filter((r) => r.iteration <= it && r.passAtFinal !== null).map((r) => r.passAtFinal as number);
      return `| ${it} | ${these.length} | ${scored.length} | ${scored.length ? pct(Math.max(...scored)) : '—'} | ${sofar.length ? pct(Math.max(...sofar)) : '—'} |`;
    }),
    '',
    '## What each candidate changed, and why',
    '',
    ...evolutionTable(rows),
    '',
    ...rows.map((r) => `- **${r.id}** ← ${r.parent ?? 'none'}: ${cell(r.mechanism)}. ${cell(r.hypothesis)}`),
    '',
    '## Held-out test split',
    '',
    ...heldOutSection(heldOut, comparisons, baseline),
    '',
  ].join('\n');
}
