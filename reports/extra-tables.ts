/**
 * The tables shown under a section's leaderboard when they have something to say: repeats (pass@k
 * and per-task agreement, when tasks ran more than once) and spend (tokens by purpose and cost).
 * Each is plain data — headers and cells — rendered by the terminal and the Markdown writers.
 */
import { decimal, integer, MISSING, percent } from './format.ts';
import type { RunTotal } from './report-data.ts';
import { formatUsd } from './spend.ts';
import type { Section, SummaryRow } from './summary.ts';

export interface PlainTable {
  title: string;
  headers: string[];
  rows: string[][];
  notes: string[];
}

/** Flaky tasks listed per strategy before "…". */
const MAX_FLAKY = 8;

/** pass@k and agreement per strategy, when some task ran at least twice; else null. */
export function repeatsTable(section: Section): PlainTable | null {
  if (!section.rows.some((r) => r.trials > 1)) return null;
  const ks = [...new Set(section.rows.flatMap((r) => r.passAtK.map((p) => p.k)))].sort((a, b) => a - b);
  const rows = section.rows.map((r) => [
    r.strategy,
    String(r.trials),
    ...ks.map((k) => percent(r.passAtK.find((p) => p.k === k)?.value ?? null)),
    decimal(r.agreement.mean, 3),
    `${r.agreement.flaky.length}/${r.agreement.tasks}`,
  ]);
  const notes = section.rows
    .filter((r) => r.agreement.flaky.length > 0)
    .map((r) => {
      const shown = r.agreement.flaky.slice(0, MAX_FLAKY).map((f) => `${f.taskId} (${f.c}/${f.n})`);
      return `${r.strategy} flaky tasks: ${shown.join(', ')}${r.agreement.flaky.length > MAX_FLAKY ? `, … ${r.agreement.flaky.length - MAX_FLAKY} more` : ''}`;
    });
  return {
    title: 'Repeats',
    headers: ['strategy', 'trials', ...ks.map((k) => `pass@${k}`), 'agreement', 'flaky'],
    rows,
    notes: [
      ...notes,
      "pass@k: unbiased estimate that at least one of k episodes solves the task within the turn budget; agreement: mean share of a task's episodes that agree with its majority outcome; flaky: tasks solved by some episodes only.",
    ],
  };
}

/** Purposes in display order: solving calls first, then the auxiliary ones alphabetically. */
export function purposesOf(rows: readonly SummaryRow[]): string[] {
  const all = new Set(rows.flatMap((r) => Object.keys(r.spend.byPurpose)));
  return [...(all.has('solve') ? ['solve'] : []), ...[...all].filter((p) => p !== 'solve').sort()];
}

/** Tokens by purpose and cost per strategy; null when no price is configured and there are no auxiliary calls (the leaderboard's tokens column says it all). */
export function spendTable(section: Section): PlainTable | null {
  const purposes = purposesOf(section.rows);
  const priced = section.rows.some(
    (r) => r.spend.usd !== null || Object.values(r.spend.byPurpose).some((p) => p.usd !== null && p.usd > 0),
  );
  const auxiliary = purposes.some((p) => p !== 'solve');
  const unpriced = [...new Set(section.rows.flatMap((r) => r.spend.unpriced))].sort();
  if (!priced && !auxiliary) return null;
  const rows = section.rows.map((r) => [
    r.strategy,
    ...purposes.map((p) => {
      const s = r.spend.byPurpose[p];
      return s ? `${integer(s.prompt + s.completion)} (${s.calls} calls)` : MISSING;
    }),
    formatUsd(r.spend.usd),
    r.spend.usd === null || r.solved === 0 ? MISSING : formatUsd(r.spend.usd / r.solved),
  ]);
  return {
    title: 'Spend',
    headers: ['strategy', ...purposes.map((p) => `${p} tokens`), 'cost', 'cost / solved'],
    rows,
    notes:
      unpriced.length > 0
        ? [
            `No price configured for ${unpriced.map((m) => `'${m}'`).join(', ')}: costs unknown (add "prices" to witness.config.json).`,
          ]
        : [],
  };
}

/** One line for a section without a spend table whose model has no price, so a missing price is never silent. */
export function unpricedNote(section: Section): string | null {
  const unpriced = [...new Set(section.rows.flatMap((r) => r.spend.unpriced))].sort();
  if (unpriced.length === 0 || spendTable(section) !== null) return null;
  return `Cost unknown: no price configured for ${unpriced.map((m) => `'${m}'`).join(', ')} (add "prices" to witness.config.json).`;
}

/** One line per run: episodes, tokens by purpose and cost ("cost unknown" names the unpriced models). */
export function runTotalLines(runs: readonly RunTotal[]): string[] {
  return runs.map((r) => {
    const purposes = Object.entries(r.spend.byPurpose).map(([p, s]) => `${p} ${integer(s.prompt + s.completion)}`);
    const cost =
      r.spend.usd !== null
        ? `cost ${formatUsd(r.spend.usd)}`
        : `cost unknown (no price for ${r.spend.unpriced.map((m) => `'${m}'`).join(', ')})`;
    return `Run ${r.runId}: ${r.trajectories} episodes, ${integer(r.spend.tokens)} tokens${purposes.length > 1 ? ` (${purposes.join(', ')})` : ''}, ${cost}`;
  });
}
