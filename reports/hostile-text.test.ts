/**
 * Outside text in every report: task ids, strategy and model names, harness-error messages and
 * gate instances made of the hostile texts (core/hostile/text.ts). summary.md and the gate's
 * Markdown render with markdown-it to exactly the structure Witness writes, each text shown as
 * itself; the terminal tables and the gate's text carry no control sequence; the HTML page no markup.
 */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { HOSTILE_TEXTS, htmlTags, htmlText, TERMINAL_ACTIVE } from '../core/hostile/text.ts';
import { terminalLine } from '../core/text-safety.ts';
import { CASES, makeTrajectory } from './__fixtures__/trajectories.ts';
import { HEADERS } from './format.ts';
import { evaluateGate } from './gate.ts';
import { renderGateMarkdown, renderGateText } from './gate-format.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import { outcomeOf } from './outcomes.ts';
import { buildReport } from './report-data.ts';
import { listHarnessErrors, sectionsOf, summarize } from './summary.ts';
import { renderTables } from './table.ts';

const md = new MarkdownIt({ html: true });
/** What a reader must see of a hostile text: itself, controls gone, on one line, without leading space. */
const shown = (text: string) => terminalLine(text).trimStart();

const hostile = HOSTILE_TEXTS.flatMap(({ text }, i) => [
  makeTrajectory({ taskId: `t${i} ${text}`, strategy: `s${i} ${text}`, turns: [{ source: 'a', pass: CASES }] }),
  makeTrajectory({
    taskId: `e${i} ${text}`,
    strategy: 'diagnostic',
    status: 'harness-error',
    error: `broken: ${text}`,
    turns: [],
  }),
]);
const MARKDOWN_TAGS = [
  'h1',
  'h2',
  'p',
  'code',
  'strong',
  'em',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'ul',
  'li',
];

describe('outside text in the reports', () => {
  it('summary.md renders to the structure Witness writes, each name and message shown as itself', () => {
    const rows = summarize(hostile);
    const errors = listHarnessErrors(hostile);
    const html = md.render(renderMarkdown(rows, errors));
    expect(htmlTags(html).filter((t) => !MARKDOWN_TAGS.includes(t))).toEqual([]);
    expect(htmlTags(html).filter((t) => t === 'h1')).toHaveLength(1);
    expect(htmlTags(html).filter((t) => t === 'h2')).toHaveLength(sectionsOf(rows).length + 1); // + "Harness errors"
    // Every table row of the leaderboard has its cells, the strategy names shown as themselves.
    const leaderboard = html.slice(html.indexOf('<table>'), html.indexOf('</table>'));
    const tableRows = [...leaderboard.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1] as string);
    const bodyRows = tableRows.filter((r) => r.includes('<td'));
    expect(bodyRows).toHaveLength(rows.length);
    for (const row of bodyRows) expect(htmlTags(row).filter((t) => t === 'td')).toHaveLength(HEADERS.length);
    const strategies = bodyRows.map((r) => htmlText(/<td[^>]*>([\s\S]*?)<\/td>/.exec(r)?.[1] ?? '').trim());
    for (const row of rows) expect(strategies).toContain(shown(row.strategy));
    // One list item per harness error, its message shown as itself.
    const list = html.slice(html.lastIndexOf('<h2>'));
    const items = [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => htmlText(m[1] as string));
    expect(items).toHaveLength(errors.length);
    for (const e of errors)
      expect(
        items.some((item) => item.endsWith(`: ${shown(e.message)}`)),
        e.message,
      ).toBe(true);
  });

  it('the terminal tables and the gate carry no control sequence, and every table line has the same width', () => {
    const text = renderTables(summarize(hostile));
    expect(text).not.toMatch(TERMINAL_ACTIVE);
    // Consecutive box-drawing lines are one table: all of one width.
    const tables: string[][] = [];
    let previousBoxed = false;
    for (const line of text.split('\n')) {
      const boxed = /^[┌│├└]/.test(line);
      if (boxed && !previousBoxed) tables.push([]);
      if (boxed) tables.at(-1)?.push(line);
      previousBoxed = boxed;
    }
    expect(tables.length).toBeGreaterThan(1);
    for (const table of tables) expect(new Set(table.map((l) => l.length)).size, table.join('\n')).toBe(1);
    const instances = hostile.filter((t) => t.outcome.status === 'solved').map(outcomeOf);
    const gate = evaluateGate(
      { path: 'base <b>.json', runId: 'base`run', instances },
      {
        path: 'cand.json',
        runId: 'cand',
        instances: instances.map((i) => ({ ...i, status: 'unsolved', solvedAtTurn: null })),
      },
      { metric: 'pass1', noiseBand: 0.02, alpha: 0.05, by: 'strategy' },
    );
    expect(renderGateText(gate)).not.toMatch(TERMINAL_ACTIVE);
    const gateMarkdown = renderGateMarkdown(gate);
    const gateHtml = md.render(gateMarkdown);
    // The gate's own <details> blocks (one per check with broken instances), and nothing else.
    const blocks = gateMarkdown.split('<details><summary>Instances that broke</summary>').length - 1;
    expect(blocks).toBeGreaterThan(0);
    expect(htmlTags(gateHtml).filter((t) => !MARKDOWN_TAGS.includes(t))).toEqual(
      Array.from({ length: blocks }, () => ['details', 'summary']).flat(),
    );
    expect(gateHtml.split('</details>').length - 1).toBe(blocks);
    expect(htmlTags(gateHtml).filter((t) => t === 'h2')).toHaveLength(1);
    expect(gateHtml).toContain('base &lt;b&gt;.json');
  });

  it('the HTML page holds the texts only as escaped text and JSON', () => {
    const { report, views } = buildReport(hostile);
    const page = renderHtml(report, views);
    for (const raw of ['<img src=x', '<script>alert', '</details>', '<details open']) expect(page).not.toContain(raw);
  });
});
