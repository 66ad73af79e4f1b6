import { describe, expect, it } from 'vitest';
import { compileRegex } from './compile.ts';
import { parseEcmascript } from './ecmascript.ts';
import { compareLanguages } from './equivalence.ts';
import { RegexSyntaxError, RegexUnsupportedError } from './errors.ts';

const es = (source: string, flags = '') => compileRegex(source, 'ecmascript', flags);

function equivalent(a: ReturnType<typeof es>, b: ReturnType<typeof es>): boolean {
  const result = compareLanguages(a, b);
  if (!result.decided) throw new Error(result.reason);
  return result.equivalent;
}

describe('parseEcmascript', () => {
  it('accepts redundant ^ and $ under full-match semantics', () => {
    expect(equivalent(es('^abc$'), es('abc'))).toBe(true);
    expect(equivalent(es('^(dog).*$'), es('dog.*'))).toBe(true);
    expect(equivalent(es('a$|^b'), es('[ab]'))).toBe(true);
    expect(es('a^b').dfa?.isEmpty).toBe(true);
  });

  it('compiles . as if the s flag were set', () => {
    expect(es('.').test?.('\n')).toBe(true);
    expect(es('a.b').test?.('a\u2028b')).toBe(true);
  });

  it('resolves word boundaries refa can rewrite away', () => {
    expect(equivalent(es('\\bdog\\b'), es('dog'))).toBe(true);
    const inner = es('.*\\bdog\\b.*');
    expect(inner.dfa).not.toBeNull();
    expect(inner.test?.('a dog!')).toBe(true);
    expect(inner.test?.('adog')).toBe(false);
  });

  it('honours i and m, ignores g, y and d', () => {
    expect(equivalent(es('[a-z]+', 'i'), es('[A-Za-z]+'))).toBe(true);
    expect(equivalent(es('^a$', 'm'), es('a'))).toBe(true);
    expect(es('^a$', 'm').test?.('a\n')).toBe(false);
    expect(equivalent(es('a+', 'gyd'), es('a+'))).toBe(true);
    expect(es('a', 'gim').flags).toBe('ims');
  });

  it.each(['u', 'v'])('rejects the %s flag with a clear error naming it', (flag) => {
    expect(() => parseEcmascript('a', flag)).toThrow(RegexUnsupportedError);
    expect(() => parseEcmascript('a', flag)).toThrow(new RegExp(`'${flag}' flag is not supported`));
  });

  it('expands finite backreferences', () => {
    expect(equivalent(es('(a|b)\\1'), es('aa|bb'))).toBe(true);
  });

  it.each([
    ['(?=.*\\d)[a-z0-9]+', /lookahead/],
    ['x.*(?<=a.*b)c', /lookbehind/],
    ['(a+)+\\1b', /backreference/],
    ['(\\w+) \\1', /backreference/],
  ])('%j is non-regular, with a reason', (source, reason) => {
    const parsed = parseEcmascript(source);
    expect(parsed.node).toBeNull();
    expect(parsed.nonRegular).toMatch(reason);
    const compiled = es(source);
    expect(compiled.dfa).toBeNull();
    expect(compiled.test).toBeUndefined();
    expect(compiled.nonRegular).toMatch(reason);
  });

  it('reports a DFA past 20,000 nodes as non-regular', () => {
    const compiled = es('.*a.{20}');
    expect(compiled.dfa).toBeNull();
    expect(compiled.nonRegular).toMatch(/too large/);
  });

  it.each([
    ['(', '', 'Invalid regular expression: /(/: Unterminated group'],
    ['a**', '', 'Nothing to repeat'],
    ['[b-a]', '', 'Range out of order in character class'],
    ['a', 'gg', "Invalid flags supplied to RegExp constructor 'gg'"],
    ['a', 'x', "Invalid flags supplied to RegExp constructor 'x'"],
  ])('syntax error in /%s/%s carries V8’s message', (source, flags, message) => {
    expect(() => parseEcmascript(source, flags)).toThrow(RegexSyntaxError);
    expect(() => parseEcmascript(source, flags)).toThrow(message);
  });
});
