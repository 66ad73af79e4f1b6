import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printBrics, printEcmascript, type RegexNode } from './ast.ts';
import { charSetOf, charSetOfChar } from './automaton.ts';
import { parseBrics } from './brics.ts';
import { compileRegex, type CompiledRegex } from './compile.ts';
import { compareLanguages } from './equivalence.ts';
import { findNlRxTurk, NLRX_TURK_SETTING } from './loader.ts';
import { runConfig } from '../../core/run-config.ts';

const TURK = findNlRxTurk(runConfig().config.suites['nl-rx'].data);
const TARG = TURK ? join(TURK, 'targ.txt') : NLRX_TURK_SETTING;
const targLines = existsSync(TARG) ? readFileSync(TARG, 'utf8').split('\n') : null;
if (!targLines) console.warn(`NL-RX-Turk targ.txt not found at ${TARG}: its tests are skipped`);

function sameLanguage(a: CompiledRegex, b: CompiledRegex): string | null {
  const result = compareLanguages(a, b);
  if (!result.decided) return result.reason;
  return result.equivalent ? null : JSON.stringify(result);
}

const lit = (ch: string): RegexNode => ({ type: 'chars', set: charSetOfChar(ch), text: ch });

describe('printers', () => {
  it('print minimal parentheses by precedence', () => {
    expect(printBrics(parseBrics('((dog)|(truck)){5,}'))).toBe('(dog|truck){5,}');
    expect(printBrics(parseBrics('(ab)&(cd)'))).toBe('ab&cd');
    expect(printBrics(parseBrics('(a|b)&c'))).toBe('(a|b)&c');
    expect(printBrics(parseBrics('(~a)*'))).toBe('~a*');
    expect(printBrics(parseBrics('~(a*)'))).toBe('~(a*)');
    expect(printBrics(parseBrics('(a*)*'))).toBe('a**');
    expect(printEcmascript(parseBrics('(a*)*'))).toBe('(?:a*)*');
    expect(printEcmascript(parseBrics('((dog)|(truck)){5,}'))).toBe('(?:dog|truck){5,}');
  });

  it('keep a valid source spelling and re-spell texts that are wrong for the dialect', () => {
    const node = parseBrics('\\b[A-Z].\\b');
    expect(printBrics(node)).toBe('\\b[A-Z].\\b');
    expect(printEcmascript(node)).toBe('b[A-Z].b');
    const digits = compileRegex('\\d+', 'ecmascript').node as RegexNode;
    expect(printBrics(digits)).toBe('[0-9]+');
    const lying: RegexNode = { type: 'chars', set: charSetOf([97, 98]), text: '[A-Z]' };
    expect(printBrics(lying)).toBe('[ab]');
    expect(printEcmascript(lying)).toBe('[ab]');
  });

  it('escape operator characters that appear as literals', () => {
    const node: RegexNode = { type: 'seq', items: [...'a{2}|"~&#@<>.*'].map(lit) };
    const brics = compileRegex(printBrics(node), 'brics');
    const es = compileRegex(printEcmascript(node), 'ecmascript');
    expect(brics.test?.('a{2}|"~&#@<>.*')).toBe(true);
    expect(es.test?.('a{2}|"~&#@<>.*')).toBe(true);
    expect(sameLanguage(brics, es)).toBeNull();
  });

  it('handle the empty string, the empty language, anything, and NUL before a digit', () => {
    const cases: RegexNode[] = [
      { type: 'seq', items: [] },
      { type: 'alt', options: [] },
      { type: 'none' },
      { type: 'anything' },
      { type: 'repeat', node: { type: 'seq', items: [] }, min: 0, max: Infinity },
      { type: 'repeat', node: lit('a'), min: 3, max: 2 },
      { type: 'alt', options: [{ type: 'seq', items: [] }, lit('a')] },
      { type: 'seq', items: [lit('\0'), lit('1')] },
      { type: 'seq', items: [{ type: 'chars', set: charSetOf([0, 0x1f]), text: '' }, lit('\n')] },
      { type: 'and', left: { type: 'anything' }, right: { type: 'not', node: lit('a') } },
    ];
    for (const node of cases) {
      const brics = compileRegex(printBrics(node), 'brics');
      const es = compileRegex(printEcmascript(node), 'ecmascript');
      expect(sameLanguage(brics, es), `${printBrics(node)} vs ${printEcmascript(node)}`).toBeNull();
    }
    expect(compileRegex(printEcmascript(cases[7] as RegexNode), 'ecmascript').test?.('\u00001')).toBe(true);
  });
});

describe.skipIf(!targLines)('printers over NL-RX-Turk targ.txt', () => {
  const lines = targLines ?? [];

  it('printBrics re-parses to the same language for every line', () => {
    const failures: string[] = [];
    for (const line of lines) {
      const gold = compileRegex(line, 'brics');
      const problem = sameLanguage(gold, compileRegex(printBrics(gold.node as RegexNode), 'brics'));
      if (problem) failures.push(`${line}: ${problem}`);
    }
    expect(failures).toEqual([]);
  });

  it('printEcmascript gives the same language (all plain lines, every 4th & / ~ line)', () => {
    const failures: string[] = [];
    let checked = 0;
    lines.forEach((line, i) => {
      if (/[&~]/.test(line) && i % 4 !== 0) return;
      checked++;
      const gold = compileRegex(line, 'brics');
      const problem = sameLanguage(gold, compileRegex(printEcmascript(gold.node as RegexNode), 'ecmascript'));
      if (problem) failures.push(`${line}: ${problem}`);
    });
    console.info(`printEcmascript round trip: ${checked} targ.txt lines checked`);
    expect(failures).toEqual([]);
  });
});
