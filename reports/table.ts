/** The terminal leaderboard: one plain cli-table3 table per (benchmark, model). */
import Table from 'cli-table3';
import { HEADERS, LEGEND, privilegedNotice, rowCells, sectionNotes } from './format.ts';
import { type Section, type SummaryRow, sectionsOf } from './summary.ts';

/** One section as text: a title line, the privileged notice if any, the table (rows = strategies), then per-strategy notes. */
export function renderTable(section: Section): string {
  const privileged = section.rows.some((r) => r.privileged);
  const table = new Table({
    head: [...HEADERS],
    style: { head: [], border: [] },
    // no rule between body rows: one rule under the header is enough to read a leaderboard
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    colAligns: ['left', ...HEADERS.slice(1).map(() => 'right' as const)],
  });
  for (const row of section.rows) table.push(rowCells(row));
  const lines = [`${section.benchmark} · ${section.model}${privileged ? ' (privileged)' : ''}`];
  if (privileged) lines.push(privilegedNotice(section.model));
  lines.push(table.toString());
  lines.push(...sectionNotes(section));
  return lines.join('\n');
}

/** Every section in row order, separated by blank lines, with the legend once at the end. */
export function renderTables(rows: readonly SummaryRow[]): string {
  const sections = sectionsOf(rows);
  if (sections.length === 0) return '';
  return [...sections.map(renderTable), LEGEND].join('\n\n');
}
