/** The leaderboard columns and their cell formatting, shared by the terminal table and Markdown. */
import type { JsonObject } from '../core/types.ts';
import type { Estimate, InvalidDataEntry, Section, SummaryRow } from './summary.ts';

export const MISSING = '—';

/** 0.4667 → "46.7". */
export function percent(value: number | null): string {
  return value === null ? MISSING : (value * 100).toFixed(1);
}

/** A rate as a percentage with its interval: "46.7 [30.0–63.3]". */
export function percentWithInterval(estimate: Estimate): string {
  if (estimate.value === null) return MISSING;
  const ci = estimate.ci;
  return ci ? `${percent(estimate.value)} [${percent(ci.low)}–${percent(ci.high)}]` : percent(estimate.value);
}

/** A plain number with fixed decimals, or the missing mark. */
export function decimal(value: number | null, digits: number): string {
  return value === null ? MISSING : value.toFixed(digits);
}

/** A non-rate estimate (MRR) as a decimal with its interval: "0.477 [0.350–0.600]". */
export function decimalWithInterval(estimate: Estimate, digits = 3): string {
  if (estimate.value === null) return MISSING;
  const ci = estimate.ci;
  const point = estimate.value.toFixed(digits);
  return ci ? `${point} [${ci.low.toFixed(digits)}–${ci.high.toFixed(digits)}]` : point;
}

/** 12345.6 → "12,346" (locale-independent). */
export function integer(value: number): string {
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Total tokens with the mean per trajectory; a leading "~" marks estimated counts. */
export function tokensCell(row: SummaryRow): string {
  const { total, meanPerTrajectory, estimated } = row.tokens;
  const mean = meanPerTrajectory === null ? '' : ` (${integer(meanPerTrajectory)}/traj)`;
  return `${estimated ? '~' : ''}${integer(total)}${mean}`;
}

export interface Column {
  header: string;
  cell: (row: SummaryRow) => string;
}

/** The columns after "strategy", in display order. */
export const COLUMNS: readonly Column[] = [
  { header: 'n', cell: (r) => String(r.n) },
  { header: 'Pass@1', cell: (r) => percentWithInterval(r.pass1) },
  { header: 'Pass@final', cell: (r) => percentWithInterval(r.passFinal) },
  { header: 'MRR', cell: (r) => decimalWithInterval(r.mrr) },
  { header: 'mean τ', cell: (r) => decimal(r.meanTimeToSuccess, 2) },
  { header: 'attempts', cell: (r) => decimal(r.meanAttempts, 2) },
  { header: 'stability', cell: (r) => decimal(r.stability, 3) },
  { header: 'RER (pooled)', cell: (r) => decimal(r.rerPooled, 3) },
  { header: 'RER (task mean)', cell: (r) => decimal(r.rerTaskMean, 3) },
  { header: 'hardened', cell: (r) => percent(r.hardened) },
  { header: 'robust', cell: (r) => percentWithInterval(r.robust) },
  { header: 'tokens', cell: tokensCell },
];

export const HEADERS: readonly string[] = ['strategy', ...COLUMNS.map((c) => c.header)];

/** One row of cells, strategy first. */
export function rowCells(row: SummaryRow): string[] {
  return [row.strategy, ...COLUMNS.map((c) => c.cell(row))];
}

/** How to read the table, printed under it. */
export const LEGEND =
  'Pass@1, Pass@final, hardened, robust in %; [low–high] = 95% percentile bootstrap interval over trajectories ' +
  '(2,000 resamples, fixed seed). Pass@1 = the first program passes (for hero-t, react and cheatsheet: before refinement); ' +
  'Pass@final = the final program passes. hardened/robust — = no hardening ran. MRR = mean 1/τ (0 if unsolved). RER (pooled) = Σfixes / max(1, Σbreaks); ' +
  'RER (task mean) = mean of fixes/max(1, breaks) over trajectories with ≥ 2 solve turns. ~ = token counts estimated.';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Per-strategy counts that qualify the numbers: harness errors, invalid data, model errors, probe agreement, cache use, duplicates. */
export function sectionNotes(section: Section): string[] {
  const notes: string[] = [];
  for (const row of section.rows) {
    const parts: string[] = [];
    if (row.harnessErrors > 0) parts.push(`${plural(row.harnessErrors, 'harness error')} (excluded from rates)`);
    if (row.invalidData > 0) parts.push(`${row.invalidData} invalid data (excluded from rates and n)`);
    if (row.modelErrors > 0) parts.push(`${plural(row.modelErrors, 'model error')} (counted unsolved)`);
    if (row.probeAgreement !== null) parts.push(`probe agreement with exact check ${percent(row.probeAgreement)}%`);
    if (row.cache.hits + row.cache.misses > 0)
      parts.push(
        `response cache ${plural(row.cache.hits, 'hit')}, ${row.cache.misses} ${row.cache.misses === 1 ? 'miss' : 'misses'}`,
      );
    if (row.duplicates > 0) {
      parts.push(`${row.duplicates} duplicate ${row.duplicates === 1 ? 'trajectory' : 'trajectories'} dropped`);
    }
    if (parts.length > 0) notes.push(`${row.strategy}: ${parts.join('; ')}`);
  }
  return notes;
}

/** Oracle settings as "key: value, …" (non-string values as JSON). */
export function formatSettings(settings: JsonObject): string {
  const entries = Object.entries(settings);
  if (entries.length === 0) return 'default settings';
  return entries.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', ');
}

/** Distinct values of a per-row list across a section, in first-seen order. */
export function sectionValues<T>(
  section: Section,
  pick: (row: SummaryRow) => readonly T[],
  key: (v: T) => string,
): T[] {
  const seen = new Map<string, T>();
  for (const row of section.rows) for (const v of pick(row)) if (!seen.has(key(v))) seen.set(key(v), v);
  return [...seen.values()];
}

const STEERABLE_NOTICE =
  "Privileged model: 'sim-steerable' (steerable sim) knows the gold program and makes planted mistakes that rules in the prompt and observed errors undo, so its scores measure how well a prompt or harness steers it, not a model.";

/** The notice every report carries when the model is privileged (the steerable sim's says what steers it). */
export function privilegedNotice(model: string): string {
  // The name core/models/steerable-sim.ts gives the steerable sim (reports read only serialized results).
  if (model === 'sim-steerable') return STEERABLE_NOTICE;
  return `Privileged model: '${model}' knows the gold program, so its scores measure the harness, not a model.`;
}

/** Control characters of outside text as `\uXXXX`, so a reason cannot move the cursor or recolour a terminal. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** "nl-rx · 17: the gold regex … denotes the empty language …": the item's id, then its reason without the id it may start with. */
export function invalidDataText(entry: InvalidDataEntry): string {
  const id = entry.taskId;
  const prefix = [`task ${id}: `, `question ${id}: `, `${id}: `].find((p) => entry.reason.startsWith(p));
  const reason = prefix ? entry.reason.slice(prefix.length) : entry.reason;
  return `${entry.benchmark} · ${id}: ${reason}${entry.episodes > 1 ? ` (${entry.episodes} episodes)` : ''}`;
}

/** The heading of an invalid-data list: how many items and episodes, and what they mean for the run. */
export function invalidDataHeading(entries: readonly InvalidDataEntry[]): string {
  const episodes = entries.reduce((n, e) => n + e.episodes, 0);
  return `Invalid data: ${plural(entries.length, 'item')} the dataset makes unposable (${plural(episodes, 'episode')}, excluded from rates and n; strict data makes them fail the run)`;
}
