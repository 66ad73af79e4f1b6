/** The terminal leaderboard: one plain cli-table3 table per (benchmark, model), with repeats and spend under it when they apply. */
import Table from 'cli-table3';
import { terminalSafe } from '../core/text-safety.ts';
import { type PlainTable, repeatsTable, spendTable, unpricedNote } from './extra-tables.ts';
import { HEADERS, LEGEND, privilegedNotice, rowCells, sectionNotes } from './format.ts';
import { type Section, type SummaryRow, sectionsOf, sectionTitle } from './summary.ts';

function plain(headers: readonly string[], rows: readonly string[][]): string {
  const table = new Table({
    head: headers.map(terminalSafe),
    style: { head: [], border: [] },
    // no rule between body rows: one rule under the header is enough to read a leaderboard
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    colAligns: ['left', ...headers.slice(1).map(() => 'right' as const)],
  });
  // Cells hold outside text (strategy names): controls removed before cli-table3 measures widths.
  for (const row of rows) table.push(row.map(terminalSafe));
  return table.toString();
}

function renderExtra(extra: PlainTable): string {
  return [`${extra.title}:`, plain(extra.headers, extra.rows), ...extra.notes].join('\n');
}

/** One section as text: a title line, the privileged notice if any, the table (rows = strategies), notes, then repeats and spend. */
export function renderTable(section: Section): string {
  const privileged = section.rows.some((r) => r.privileged);
  const lines = [`${sectionTitle(section)}${privileged ? ' (privileged)' : ''}`];
  if (privileged) lines.push(privilegedNotice(section.model));
  lines.push(plain(HEADERS, section.rows.map(rowCells)));
  lines.push(...sectionNotes(section));
  for (const extra of [repeatsTable(section), spendTable(section)]) if (extra) lines.push(renderExtra(extra));
  const unpriced = unpricedNote(section);
  if (unpriced) lines.push(unpriced);
  return lines.join('\n');
}

/** Every section in row order, separated by blank lines, with the legend once at the end; no terminal controls. */
export function renderTables(rows: readonly SummaryRow[]): string {
  const sections = sectionsOf(rows);
  if (sections.length === 0) return '';
  return terminalSafe([...sections.map(renderTable), LEGEND].join('\n\n'));
}
