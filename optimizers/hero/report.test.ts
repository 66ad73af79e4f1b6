/** HERO-O's report with what the reflector and the endpoint send shown inert: leaks, problems, errors. */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { HOSTILE_TEXTS, htmlTags, htmlText } from '../../core/hostile/text.ts';
import { terminalLine } from '../../core/text-safety.ts';
import type { CandidateRecord, HeroResult, RoundRecord } from './optimize.ts';
import { renderHeroReport } from './report.ts';

const round = (index: number, text: string): RoundRecord => {
  const candidate = (outcome: CandidateRecord['outcome'], extra: Partial<CandidateRecord>): CandidateRecord => ({
    index: 0,
    tokens: 10,
    outcome,
    text: '',
    ...extra,
  });
  return {
    round: index,
    currentHash: 'h',
    diagnosisPassRate: 0.5,
    reflectorCall: null,
    reflectorError: `endpoint said: ${text}`,
    candidates: [
      candidate('rejected-leak', { leaks: [text] }),
      candidate('rejected-invalid', { problem: `invalid: ${text}` }),
    ],
    adoptedIndex: null,
    cumulative: { fixes: 0, breaks: 0, ratio: 0 },
  };
};

const result = {
  benchmark: 'nl-rx',
  model: { name: 'm' },
  reflector: { name: 'r' },
  privilegedNotice: null,
  options: { rounds: 1, candidates: 2, evidencePerSide: 2, acceptance: { margin: 0, firstSlice: 4 }, seed: 1 },
  pools: { diagnosis: [], update: [], selection: [], test: [], sharedSelection: false },
  seed: { hash: 's', tokens: 1 },
  rounds: HOSTILE_TEXTS.map(({ text }, i) => round(i + 1, text)),
  archive: [],
  final: { hash: 's', tokens: 1, source: 'seed', selectionPasses: [], template: '' },
  calls: { reflector: { count: 0, tokens: 0, meanPerCall: 0 }, task: { count: 0, tokens: 0 } },
  verifiedExamples: [],
} as unknown as HeroResult;

describe('renderHeroReport', () => {
  it('shows leaks, problems and reflector errors as themselves: no heading, HTML or list item comes from them', () => {
    const html = new MarkdownIt({ html: true }).render(renderHeroReport(result));
    const allowed = ['h1', 'h2', 'p', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'ul', 'li', 'strong', 'code'];
    expect(htmlTags(html).filter((t) => !allowed.includes(t))).toEqual([]);
    expect(htmlTags(html).filter((t) => /^h\d$/.test(t))).toEqual(['h1', 'h2', 'h2']);
    const items = [...html.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => htmlText(m[1] as string));
    expect(items).toHaveLength(3 * HOSTILE_TEXTS.length);
    for (const { text } of HOSTILE_TEXTS) {
      const shown = terminalLine(text);
      expect(items, text).toContainEqual(expect.stringMatching(/: the reflector call failed: endpoint said: /));
      const squeeze = (t: string) => t.replace(/\s+/g, ' ').trim();
      expect(
        items.some((item) => squeeze(item).endsWith(squeeze(`invalid: ${shown}`))),
        text,
      ).toBe(true);
      expect(
        items.some((item) => squeeze(item).endsWith(squeeze(`leaks ${shown}`))),
        text,
      ).toBe(true);
    }
  });
});
