/**
 * The search's bookkeeping on a real store: an evolution row computed from what is stored (Δ vs the
 * best before it, frontier membership), a row missing after a kill appended without evaluating
 * again, the report's scatter and its notices.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE_TEXTS, htmlTags, htmlText } from '../../core/hostile/text.ts';
import { terminalLine } from '../../core/text-safety.ts';
import { recordEvolution } from './search-candidate.ts';
import { renderIterationReport, renderSearchReport, scatter } from './search-report.ts';
import { MetaHarnessStore } from './store.ts';
import type { ScoresRecord } from './store-records.ts';

const dir = mkdtempSync(join(tmpdir(), 'witness-mh-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scores = (pass: boolean[], tokens: number): ScoresRecord => ({
  passAtFinal: pass.filter(Boolean).length / pass.length,
  meanTokens: tokens,
  meanCalls: 1,
  meanTimeMs: 5,
  tasks: pass.map((p, i) => ({ taskId: `t${i}`, trial: 0, pass: p, tokens, calls: 1, timeMs: 5 })),
});

function candidate(store: MetaHarnessStore, id: string, iteration: number, s: ScoresRecord | null): void {
  store.writeHarness(id, '// harness');
  store.writeProposal({
    id,
    iteration,
    parent: iteration === 0 ? null : 'seed-a',
    hypothesis: `h ${id}`,
    mechanism: `m ${id}`,
    proposer: 'sim',
  });
  if (s) store.writeScores(id, s);
  store.writeValidation(id, { ok: s !== null, checks: s ? [] : [{ name: 'imports', ok: false, message: 'node:fs' }] });
}

describe('search bookkeeping', () => {
  it('computes rows from the store, appends each once, and keeps the frontier', () => {
    const store = new MetaHarnessStore(dir, 'rows');
    candidate(store, 'seed-a', 0, scores([true, false, false, false], 100));
    candidate(store, 'i1-c1', 1, scores([true, true, true, false], 150));
    candidate(store, 'i1-c2', 1, scores([true, false, false, false], 200));
    candidate(store, 'i1-c3', 1, null);
    recordEvolution(store, 'seed-a', 0, 'evaluated');
    const better = recordEvolution(store, 'i1-c1', 1, 'evaluated');
    expect(better.deltaVsBest).toBeCloseTo(0.5, 10);
    expect(better.onFrontier).toBe(true);
    const worse = recordEvolution(store, 'i1-c2', 1, 'evaluated');
    expect(worse.onFrontier).toBe(false);
    expect(worse.deltaVsBest).toBeCloseTo(-0.5, 10);
    expect(recordEvolution(store, 'i1-c3', 1, 'invalid: imports: node:fs').passAtFinal).toBeNull();
    // A second call (a resumed search) returns the stored row and appends nothing.
    expect(recordEvolution(store, 'i1-c1', 1, 'evaluated')).toEqual(better);
    expect(store.readEvolution().map((r) => r.id)).toEqual(['seed-a', 'i1-c1', 'i1-c2', 'i1-c3']);
    expect(store.readFrontier()?.members.map((m) => m.id)).toEqual(['i1-c1', 'seed-a']);

    const report = renderSearchReport(
      store,
      {
        suite: 'demo',
        model: 'm',
        proposer: 'sim',
        proposerSimulated: false,
        privilegedNotice: null,
        stoppedBy: 'budget',
        spent: { tokens: 123, usd: 0 },
        searchTasks: 4,
        testTasks: 0,
      },
      null,
      [],
      'seed-a',
    );
    expect(report).not.toContain('Proposer simulated');
    expect(report).toContain('Stopped by: the budget (search spent 123 tokens)');
    expect(report).toContain('| 1 | i1-c3 | seed-a | m i1-c3 | invalid: imports: node:fs |');
    expect(report).toContain('Not evaluated');
  });

  it('draws the scatter: higher Pass@final higher up, more tokens further right, frontier marked', () => {
    const rows = [
      { id: 'a', passAtFinal: 1, meanTokens: 200 },
      { id: 'b', passAtFinal: 0, meanTokens: 100 },
      { id: 'c', passAtFinal: 0, meanTokens: 200 },
    ].map((r) => ({
      ...r,
      iteration: 0,
      parent: null,
      hypothesis: '',
      mechanism: '',
      outcome: 'evaluated',
      deltaVsBest: null,
      onFrontier: false,
    }));
    const lines = scatter(rows, new Set(['a', 'b']), 10, 4);
    expect(lines[1]).toBe('100% |          *');
    expect(lines[5]).toBe('  0% |*         o');
  });
});

describe('proposal text in the reports', () => {
  it('renders hypotheses and mechanisms as themselves: no heading, HTML, link or cell split comes from them', () => {
    const store = new MetaHarnessStore(dir, 'hostile');
    HOSTILE_TEXTS.forEach(({ text }, i) => {
      const id = `c${i}`;
      store.writeHarness(id, '// harness');
      store.writeProposal({
        id,
        iteration: 1,
        parent: null,
        hypothesis: `h ${text}`,
        mechanism: `m ${text}`,
        proposer: 'agent',
      });
      store.writeScores(id, scores([i % 2 === 0], 100 + i));
      store.writeValidation(id, { ok: true, checks: [] });
      recordEvolution(store, id, 1, 'evaluated');
    });
    const notices = {
      suite: 'demo',
      model: 'm',
      proposer: 'agent',
      proposerSimulated: false,
      privilegedNotice: null,
      stoppedBy: 'iterations' as const,
      spent: { tokens: 1, usd: 0 },
      searchTasks: 1,
      testTasks: 0,
    };
    const md = new MarkdownIt({ html: true });
    const allowed = ['h1', 'h2', 'p', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'ul', 'li', 'strong', 'pre', 'code'];
    for (const [report, headings] of [
      [renderSearchReport(store, notices, null, [], 'c0'), 6],
      [renderIterationReport(store, 1), 2],
    ] as const) {
      const html = md.render(report);
      expect(htmlTags(html).filter((t) => !allowed.includes(t))).toEqual([]);
      expect(htmlTags(html).filter((t) => /^h\d$/.test(t))).toHaveLength(headings);
      const items = [...html.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => htmlText(m[1] as string));
      for (const { text } of HOSTILE_TEXTS)
        expect(
          items.some((item) => item.endsWith(`h ${terminalLine(text)}`.trimEnd())),
          text,
        ).toBe(true);
      const rows = [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1] as string);
      for (const row of rows.filter((r) => r.includes('<td') && r.includes('m ')))
        expect(htmlTags(row).filter((t) => t === 'td')).toHaveLength(9);
    }
  });
});
