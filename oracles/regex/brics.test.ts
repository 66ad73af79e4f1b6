import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RegexNode } from './ast.ts';
import { parseBrics } from './brics.ts';
import { compileRegex } from './compile.ts';
import { compareLanguages } from './equivalence.ts';
import { RegexSyntaxError, RegexUnsupportedError } from './errors.ts';
import { findNlRxTurk, NLRX_TURK_SETTING } from './loader.ts';
import { runConfig } from '../../core/run-config.ts';

const TURK = findNlRxTurk(runConfig().config.suites['nl-rx'].data);
const TARG = TURK ? join(TURK, 'targ.txt') : NLRX_TURK_SETTING;
const targLines = existsSync(TARG) ? readFileSync(TARG, 'utf8').split('\n') : null;
if (!targLines) console.warn(`NL-RX-Turk targ.txt not found at ${TARG}: its tests are skipped`);

const brics = (source: string) => compileRegex(source, 'brics');
const es = (source: string, flags = '') => compileRegex(source, 'ecmascript', flags);

function equivalent(a: ReturnType<typeof brics>, b: ReturnType<typeof brics>): boolean {
  const result = compareLanguages(a, b);
  if (!result.decided) throw new Error(result.reason);
  return result.equivalent;
}

function shape(node: RegexNode): string {
  switch (node.type) {
    case 'chars':
      return node.text;
    case 'seq':
      return `seq(${node.items.map(shape).join(',')})`;
    case 'alt':
      return `alt(${node.options.map(shape).join(',')})`;
    case 'repeat':
      return `rep(${shape(node.node)},${node.min},${node.max})`;
    case 'and':
      return `and(${shape(node.left)},${shape(node.right)})`;
    case 'not':
      return `not(${shape(node.node)})`;
    default:
      return node.type;
  }
}

describe('brics precedence (benchmarks.md §5.3)', () => {
  it('& binds looser than concatenation: ab&cd = (ab)&(cd), the empty language', () => {
    expect(shape(parseBrics('ab&cd'))).toBe('and(seq(a,b),seq(c,d))');
    expect(brics('ab&cd').dfa?.isEmpty).toBe(true);
  });

  it('| binds looser than &: a|b&c = a|(b&c) = a', () => {
    expect(shape(parseBrics('a|b&c'))).toBe('alt(a,and(b,c))');
    expect(equivalent(brics('a|b&c'), es('a'))).toBe(true);
  });

  it('~ binds tighter than repetition: ~a* = (~a)*, every string but "a"', () => {
    expect(shape(parseBrics('~a*'))).toBe('rep(not(a),0,Infinity)');
    expect(equivalent(brics('~a*'), brics('~(a)'))).toBe(true);
    expect(equivalent(brics('~a*'), brics('~(a*)'))).toBe(false);
    expect(brics('~a*').test?.('a')).toBe(false);
    expect(brics('~a*').test?.('aa')).toBe(true);
  });

  it('~ applies to the next atom only inside a concatenation: ~.*dog.* = (~.)*dog.*', () => {
    expect(shape(parseBrics('~.*dog.*'))).toBe('seq(rep(not(.),0,Infinity),d,o,g,rep(.,0,Infinity))');
  });

  it('.*(dog)&([AEIOUaeiou])&(.).* is empty', () => {
    expect(brics('.*(dog)&([AEIOUaeiou])&(.).*').dfa?.isEmpty).toBe(true);
  });

  it('(.*~([0-9]).*)+ is every string', () => {
    expect(equivalent(brics('(.*~([0-9]).*)+'), brics('@'))).toBe(true);
    expect(equivalent(brics('(.*~([0-9]).*)+'), es('[^]*'))).toBe(true);
  });

  it('\\c is the literal c: \\bdog\\b = bdogb', () => {
    expect(equivalent(brics('\\bdog\\b'), es('bdogb'))).toBe(true);
    expect(brics('\\bdog\\b').test?.('bdogb')).toBe(true);
    expect(brics('\\bdog\\b').test?.('dog')).toBe(false);
  });

  it('intersection and complement at the top level', () => {
    const both = brics('(.*dog.*)&(.*cat.*)');
    expect(both.test?.('catdog')).toBe(true);
    expect(both.test?.('dog')).toBe(false);
    expect(equivalent(brics('~(.*[0-9].*)'), es('[^0-9]*'))).toBe(true);
  });
});

describe('brics syntax', () => {
  it('supports #, @, quoted strings, () and the empty regex', () => {
    expect(brics('#').dfa?.isEmpty).toBe(true);
    expect(brics('a#|b').test?.('b')).toBe(true);
    expect(brics('@').test?.('any\nthing')).toBe(true);
    expect(equivalent(brics('"a|b*"'), es('a\\|b\\*'))).toBe(true);
    expect(brics('()').test?.('')).toBe(true);
    expect(brics('()').test?.('a')).toBe(false);
    expect(brics('').test?.('')).toBe(true);
  });

  it('character classes: ranges, negation, a trailing dash, escapes', () => {
    expect(equivalent(brics('[^a-c]'), es('[^a-c]'))).toBe(true);
    expect(equivalent(brics('[a-]'), es('[a-]'))).toBe(true);
    expect(equivalent(brics('[\\]\\-]'), es('[\\]-]'))).toBe(true);
    expect(brics('[^a]').test?.('\n')).toBe(true);
    expect(brics('.').test?.('\u2028')).toBe(true);
  });

  it('repetition forms, stacked postfix operators, and {n,m} with n > m', () => {
    expect(equivalent(brics('a{2}'), es('aa'))).toBe(true);
    expect(equivalent(brics('a{2,}'), es('aaa*'))).toBe(true);
    expect(equivalent(brics('a{1,3}'), es('a|aa|aaa'))).toBe(true);
    expect(equivalent(brics('a**'), es('a*'))).toBe(true);
    expect(equivalent(brics('a{2}{3}'), es('a{6}'))).toBe(true);
    expect(brics('a{3,2}').dfa?.isEmpty).toBe(true);
  });

  it('a character that cannot start an operator is a literal, as in brics', () => {
    expect(equivalent(brics('*a'), es('\\*a'))).toBe(true);
    expect(equivalent(brics('a]'), es('a\\]'))).toBe(true);
    expect(equivalent(brics('(|a)'), es('\\|a'))).toBe(true);
  });

  it('numeric intervals <n-m>', () => {
    const fixed = brics('<07-12>');
    expect(['07', '08', '09', '10', '11', '12'].every((s) => fixed.test?.(s))).toBe(true);
    expect(['7', '06', '13', '012'].some((s) => fixed.test?.(s))).toBe(false);
    const free = brics('<7-123>');
    expect(['7', '07', '0007', '99', '100', '123', '0123'].every((s) => free.test?.(s))).toBe(true);
    expect(['6', '124', '', '1000'].some((s) => free.test?.(s))).toBe(false);
    expect(equivalent(brics('<5-3>'), es('[3-5]'))).toBe(true);
    expect(equivalent(brics('<0-255>'), es('0*(?:\\d|[1-9]\\d|1\\d\\d|2[0-4]\\d|25[0-5])'))).toBe(true);
  });

  it('named automata <name> are unsupported with a clear error', () => {
    expect(() => parseBrics('a<digits>')).toThrow(RegexUnsupportedError);
    expect(() => parseBrics('a<digits>')).toThrow(/unsupported: named automaton <digits>/);
  });

  it.each([
    ['(ab', "expected ')' at position 3", 3],
    ['[ab', "expected ']' at position 3", 3],
    ['a{', 'integer expected at position 2', 2],
    ['a{2', "expected '}' at position 3", 3],
    ['a|', 'unexpected end-of-string at position 2', 2],
    ['a)b', 'end-of-string expected at position 1', 1],
    ['"ab', `expected '"' at position 3`, 3],
    ['[z-a]', 'invalid range at position 1', 1],
    ['<1-x>', 'interval syntax error at position 4', 4],
  ])('syntax error in %j carries a message with its position', (source, message, position) => {
    let caught: unknown;
    try {
      parseBrics(source);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RegexSyntaxError);
    expect((caught as RegexSyntaxError).message).toContain(message);
    expect((caught as RegexSyntaxError).position).toBe(position);
    expect((caught as RegexSyntaxError).dialect).toBe('brics');
  });
});

describe.skipIf(!targLines)('NL-RX-Turk targ.txt', () => {
  it('every line parses and compiles to a DFA; & and ~ line counts match benchmarks.md', () => {
    const lines = targLines as string[];
    expect(lines).toHaveLength(10_000);
    let withAnd = 0;
    let withNot = 0;
    for (const line of lines) {
      const compiled = brics(line);
      expect(compiled.dfa, line).not.toBeNull();
      if (line.includes('&')) withAnd++;
      if (line.includes('~')) withNot++;
    }
    console.info(`targ.txt: ${lines.length} lines compiled; ${withAnd} use &, ${withNot} use ~`);
    expect(withAnd).toBe(2727);
    expect(withNot).toBe(1716);
  });
});
