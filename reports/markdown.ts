/** The leaderboard as GitHub-flavoured Markdown: one table per (benchmark, model). */
import { markdownCode, markdownText } from '../core/text-safety.ts';
import {
  HEADERS,
  LEGEND,
  formatSettings,
  invalidDataHeading,
  invalidDataText,
  privilegedNotice,
  rowCells,
  sectionNotes,
  sectionValues,
} from './format.ts';
import { type PlainTable, repeatsTable, spendTable, unpricedNote } from './extra-tables.ts';
import { type Ledger, ledgerLine } from './ledger.ts';
import {
  type HarnessErrorEntry,
  type InvalidDataEntry,
  type Section,
  type SummaryRow,
  sectionsOf,
  sectionTitle,
} from './summary.ts';

/** A table row: the first cell is outside text (a strategy name), escaped; the others are our numbers. */
function tableRow(cells: readonly string[]): string {
  return `| ${cells.map((cell, i) => (i === 0 ? markdownText(cell) : cell)).join(' | ')} |`;
}

/**
 * One section: a heading, a header line (run id(s), model, prompt hash(es), oracle settings), a
 * bold notice when the model is privileged, the table, and per-strategy notes.
 */
export function renderMarkdownSection(section: Section): string {
  const runIds = sectionValues(section, (r) => r.runIds, String);
  const hashes = sectionValues(section, (r) => r.promptHashes, String);
  const oracles = sectionValues(
    section,
    (r) => r.oracles,
    (o) => JSON.stringify(o),
  );
  const header = [
    `${runIds.length === 1 ? 'Run' : 'Runs'} ${runIds.map(markdownCode).join(', ')}`,
    `model ${markdownCode(section.model)}`,
    `prompt ${hashes.length === 1 ? 'hash' : 'hashes'} ${hashes.map(markdownCode).join(', ')}`,
    `oracle ${oracles.map((o) => `${markdownCode(o.name)} (${markdownText(formatSettings(o.settings))})`).join('; ')}`,
  ].join(' · ');
  const lines = [`## ${markdownText(sectionTitle(section))}`, '', header, ''];
  if (section.rows.some((r) => r.privileged)) lines.push(`**${markdownText(privilegedNotice(section.model))}**`, '');
  lines.push(
    `| ${HEADERS.join(' | ')} |`,
    `| ${HEADERS.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...section.rows.map((row) => tableRow(rowCells(row))),
  );
  const notes = sectionNotes(section);
  if (notes.length > 0) lines.push('', ...notes.map((n) => `- ${markdownText(n)}`));
  for (const extra of [repeatsTable(section), spendTable(section)]) if (extra) lines.push('', renderPlainTable(extra));
  const unpriced = unpricedNote(section);
  if (unpriced) lines.push('', `_${markdownText(unpriced)}_`);
  return lines.join('\n');
}

/** A small titled table with its notes. */
export function renderPlainTable(table: PlainTable): string {
  return [
    `**${table.title}**`,
    '',
    `| ${table.headers.map(markdownText).join(' | ')} |`,
    `| ${table.headers.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...table.rows.map(tableRow),
    ...(table.notes.length > 0 ? ['', ...table.notes.map((n) => `- ${markdownText(n)}`)] : []),
  ].join('\n');
}

/** A harness-error list: one bullet per task with its message. */
export function renderHarnessErrors(errors: readonly HarnessErrorEntry[]): string {
  if (errors.length === 0) return '';
  return [
    '## Harness errors',
    '',
    ...errors.map(
      (e) =>
        `- ${markdownCode(`${e.benchmark}/${e.model}/${e.strategy}`)} task ${markdownCode(e.taskId)} trial ${e.trial}: ${markdownText(e.message)}`,
    ),
  ].join('\n');
}

/** Lists longer than this fold into a <details> block. */
const FOLD_OVER = 20;

/** The invalid-data list: one bullet per item with its reason, folded when long. */
export function renderInvalidData(entries: readonly InvalidDataEntry[]): string {
  if (entries.length === 0) return '';
  const bullets = entries.map((e) => `- ${markdownText(invalidDataText(e))}`);
  const heading = `## ${invalidDataHeading(entries)}`;
  if (entries.length <= FOLD_OVER) return [heading, '', ...bullets].join('\n');
  return [heading, '', '<details><summary>The items</summary>', '', ...bullets, '', '</details>'].join('\n');
}

/** What summary.md shows besides the rows and the harness errors. */
export interface MarkdownExtras {
  invalidData?: readonly InvalidDataEntry[];
  ledger?: Ledger;
}

/** The whole summary.md: a title, each section, the legend, the harness errors and the invalid data if any. */
export function renderMarkdown(
  rows: readonly SummaryRow[],
  harnessErrors: readonly HarnessErrorEntry[] = [],
  extras: MarkdownExtras = {},
): string {
  const parts = [
    '# Witness results',
    ...(extras.ledger ? [`**${ledgerLine(extras.ledger)}**`] : []),
    ...sectionsOf(rows).map(renderMarkdownSection),
    `_${LEGEND}_`,
  ];
  const errors = renderHarnessErrors(harnessErrors);
  if (errors) parts.push(errors);
  const invalid = renderInvalidData(extras.invalidData ?? []);
  if (invalid) parts.push(invalid);
  return `${parts.join('\n\n')}\n`;
}
