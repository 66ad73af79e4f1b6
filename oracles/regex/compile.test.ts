import { describe, expect, it } from 'vitest';
import { compileRegex, parseRegexLiteral } from './compile.ts';
import { RegexSyntaxError } from './errors.ts';

describe('compileRegex', () => {
  it('gives a DFA and a full-match test for regular regexes', () => {
    const compiled = compileRegex('.*dog.*', 'brics');
    expect(compiled.dfa).not.toBeNull();
    expect(compiled.node).not.toBeNull();
    expect(compiled.test?.('hotdogs')).toBe(true);
    expect(compiled.test?.('do g')).toBe(false);
    expect(compileRegex('dog', 'ecmascript').test?.('dogs')).toBe(false);
  });

  it('caches by (dialect, flags, source)', () => {
    expect(compileRegex('a+b', 'brics')).toBe(compileRegex('a+b', 'brics'));
    expect(compileRegex('a+b', 'ecmascript')).not.toBe(compileRegex('a+b', 'brics'));
    expect(compileRegex('a+b', 'ecmascript', 'i')).not.toBe(compileRegex('a+b', 'ecmascript'));
  });

  it('throws (and re-throws from the cache) syntax errors', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => compileRegex('(ab', 'brics')).toThrow(RegexSyntaxError);
      expect(() => compileRegex('(ab', 'ecmascript')).toThrow('Unterminated group');
    }
  });

  it('rejects flags on brics regexes', () => {
    expect(() => compileRegex('a', 'brics', 'i')).toThrow(/take no flags/);
  });

  it('records the effective flags', () => {
    expect(compileRegex('a', 'ecmascript', 'gi').flags).toBe('is');
    expect(compileRegex('a', 'brics').flags).toBe('');
  });
});

describe('parseRegexLiteral', () => {
  it.each([
    ['/abc/i', { source: 'abc', flags: 'i' }],
    ['/abc/', { source: 'abc', flags: '' }],
    ['  /a\\/b[/]c/gm ', { source: 'a\\/b[/]c', flags: 'gm' }],
    ['/^(?:dog|cat)$/', { source: '^(?:dog|cat)$', flags: '' }],
  ])('%j', (text, expected) => {
    expect(parseRegexLiteral(text)).toEqual(expected);
  });

  it.each(['abc', '//', '/abc', '/a/b/', '/abc/I', 'x/abc/', '/a\nb/'])('%j is not a literal', (text) => {
    expect(parseRegexLiteral(text)).toBeNull();
  });
});
