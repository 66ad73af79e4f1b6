import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { HOSTILE_TEXTS, htmlTags, htmlText, TERMINAL_ACTIVE } from './hostile/text.ts';
import { jsonForTerminal, markdownCode, markdownText, terminalSafe } from './text-safety.ts';

/** What a reader sees of a hostile text shown inert: no controls, one line, no leading space. */
const shown = (text: string) => terminalSafe(text.replace(/\r\n|[\r\n\u0085\u2028\u2029\t]/g, ' ')).trimStart();

// GitHub-flavoured enough: tables, raw HTML allowed (so that any that got through would show).
const md = new MarkdownIt({ html: true });

describe('terminalSafe', () => {
  it('leaves plain text alone, line breaks and tabs included', () => {
    const plain = 'task 12 · zero-shot\n\tnaïve — 漢字 ✓';
    expect(terminalSafe(plain)).toBe(plain);
  });

  it('removes escape sequences (CSI, OSC, 8-bit), controls and bidi overrides, and keeps the text around them', () => {
    for (const { name, text } of HOSTILE_TEXTS) expect(terminalSafe(text), name).not.toMatch(TERMINAL_ACTIVE);
    expect(terminalSafe('\u001b[2J\u001b[H\u001b[31mred\u001b[0m text')).toBe('red text');
    expect(terminalSafe('before\u001b]0;pwned\u0007after')).toBe('beforeafter');
    expect(terminalSafe('\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\')).toBe('click');
    expect(terminalSafe('cleared\u009b2J')).toBe('cleared');
    expect(terminalSafe('ab\b\bXY\u0007')).toBe('abXY');
    expect(terminalSafe('ok\r# heading')).toBe('ok# heading');
    expect(terminalSafe('invoice\u202Etxt.exe')).toBe('invoicetxt.exe');
    // An OSC never ended stops at the end of its line: the next line is kept.
    expect(terminalSafe('a\u001b]0;title\nnext line')).toBe('a\nnext line');
  });

  it('takes one pass over megabytes of unended sequences', () => {
    const bombs = ['\u001b[', '\u001b]', '\u009b1;', '\u001b', '\u001b[1;2;3'].map((unit) => unit.repeat(400_000));
    for (const bomb of bombs) expect(terminalSafe(`${bomb}tail`)).not.toMatch(TERMINAL_ACTIVE);
    expect(terminalSafe(`${'\u001b[1;'.repeat(400_000)}x tail`)).toBe(' tail');
  });
});

describe('markdownText', () => {
  it('renders every hostile text as itself, on one line: in a list item, a heading and a table cell', () => {
    for (const { name, text } of HOSTILE_TEXTS) {
      const item = md.render(`- task ${markdownText(text)}\n`);
      expect(htmlTags(item), name).toEqual(['ul', 'li']);
      expect(htmlText(item), name).toBe(`task ${shown(text)}`.trim());

      const heading = md.render(`## ${markdownText(text)}\n`);
      expect(htmlTags(heading), name).toEqual(['h2']);
      expect(htmlText(heading), name).toBe(shown(text).trim());

      const table = md.render(`| a | b |\n|---|---|\n| ${markdownText(text)} | end |\n`);
      expect(
        htmlTags(table).filter((t) => t === 'td'),
        name,
      ).toHaveLength(2);
      expect(
        htmlTags(table).filter((t) => !['table', 'thead', 'tr', 'th', 'tbody', 'td'].includes(t)),
        name,
      ).toEqual([]);
      const cells = [...table.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((m) => htmlText(m[1] as string));
      expect(cells, name).toEqual([shown(text).trim(), 'end']);
    }
  });

  it('is the text itself when nothing in it is special', () => {
    expect(markdownText('question 7 (db_id "toy_shop"): database not found')).toBe(
      'question 7 (db\\_id "toy\\_shop"): database not found',
    );
    expect(markdownText('zero-shot')).toBe('zero-shot');
  });
});

describe('markdownCode', () => {
  it('is one code span holding the text, whatever backticks or HTML it holds', () => {
    for (const { name, text } of [...HOSTILE_TEXTS, { name: 'empty', text: '' }]) {
      const html = md.render(`- in ${markdownCode(text)} code\n`);
      expect(htmlTags(html), name).toEqual(['ul', 'li', 'code']);
      const code = /<code>([\s\S]*)<\/code>/.exec(html)?.[1] ?? '';
      expect(htmlText(`<x>${code}</x>`), name).toBe((shown(text) || ' ').trim());
    }
  });
});

describe('jsonForTerminal', () => {
  it('is the same JSON value, with C1 controls and bidi overrides escaped', () => {
    const value = { texts: HOSTILE_TEXTS.map((h) => h.text), n: 1 };
    const json = jsonForTerminal(value);
    expect(JSON.parse(json)).toEqual(value);
    expect(json).not.toMatch(TERMINAL_ACTIVE);
  });
});
