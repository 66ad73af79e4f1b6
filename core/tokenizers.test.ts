import { describe, expect, it } from 'vitest';
import { recordedTokenizer, tokenizeProgram } from './tokenizers.ts';

const regex = (source: string) => tokenizeProgram('regex', source);
const code = (source: string) => tokenizeProgram('code', source);

describe('tokenizeProgram (regex)', () => {
  it('keeps escapes, classes and counted quantifiers whole', () => {
    expect(regex('\\d{2,3}[a-z\\]]+(fo|b\\.r){3}x{,2}y{4,}')).toEqual([
      '\\d',
      '{2,3}',
      '[a-z\\]]',
      '+',
      '(',
      'f',
      'o',
      '|',
      'b',
      '\\.',
      'r',
      ')',
      '{3}',
      'x',
      '{,2}',
      'y',
      '{4,}',
    ]);
  });

  it('reads multi-character escapes as one token', () => {
    expect(regex('\\x41\\u0041\\u{1F600}\\p{L}\\k<name>\\cA\\12')).toEqual([
      '\\x41',
      '\\u0041',
      '\\u{1F600}',
      '\\p{L}',
      '\\k<name>',
      '\\cA',
      '\\12',
    ]);
  });

  it('treats a leading ] as a class member and an unterminated [ as a plain token', () => {
    expect(regex('[]a][^]]')).toEqual(['[]a]', '[^]]']);
    expect(regex('[ab')).toEqual(['[', 'a', 'b']);
  });

  it('splits braces that are not quantifiers and keeps astral characters whole', () => {
    expect(regex('{a}')).toEqual(['{', 'a', '}']);
    expect(regex('😀+')).toEqual(['😀', '+']);
    expect(regex('')).toEqual([]);
    expect(regex('a\\')).toEqual(['a', '\\']);
  });
});

// Cases of the removed second regex tokenizer (oracles/regex/tokens.ts) on which both agreed.
describe('tokenizeProgram (regex), cases shared with the removed oracle-side tokenizer', () => {
  it.each([
    ['.*(dog).*', ['.', '*', '(', 'd', 'o', 'g', ')', '.', '*']],
    ['\\b([A-Z])&([AEIOUaeiou])\\b', ['\\b', '(', '[A-Z]', ')', '&', '(', '[AEIOUaeiou]', ')', '\\b']],
    ['(dog){2,}a{3}b{1,7}', ['(', 'd', 'o', 'g', ')', '{2,}', 'a', '{3}', 'b', '{1,7}']],
    ['[^\\]a-z]+\\d', ['[^\\]a-z]', '+', '\\d']],
    ['\\u0041\\x41\\cJ\\p{L}\\k<n>\\12', ['\\u0041', '\\x41', '\\cJ', '\\p{L}', '\\k<n>', '\\12']],
    ['a\\', ['a', '\\']],
    ['', []],
  ])('%j', (source, tokens) => {
    expect(regex(source)).toEqual(tokens);
    expect(regex(source).join('')).toBe(source);
  });
});

describe('recordedTokenizer', () => {
  it('uses the recorded name, and for older files without one the regex tokenizer for the regex oracle only', () => {
    expect(recordedTokenizer({ name: 'sql', tokenizer: 'regex' })).toBe('regex');
    expect(recordedTokenizer({ name: 'regex', tokenizer: 'code' })).toBe('code');
    expect(recordedTokenizer({ name: 'regex' })).toBe('regex');
    expect(recordedTokenizer({ name: 'cypher' })).toBe('code');
  });
});

describe('tokenizeProgram (generic code)', () => {
  it('splits identifiers, numbers, strings and punctuation, skipping whitespace', () => {
    expect(code("SELECT name, COUNT(*) FROM t WHERE x >= 3.5e2 AND y = 'a b';")).toEqual([
      'SELECT',
      'name',
      ',',
      'COUNT',
      '(',
      '*',
      ')',
      'FROM',
      't',
      'WHERE',
      'x',
      '>',
      '=',
      '3.5e2',
      'AND',
      'y',
      '=',
      "'a b'",
      ';',
    ]);
  });

  it('handles escapes, triple quotes, hex numbers and unterminated strings', () => {
    expect(tokenizeProgram('code', 'def f(x):\n    return "a\\"b" + 0x1F')).toEqual([
      'def',
      'f',
      '(',
      'x',
      ')',
      ':',
      'return',
      '"a\\"b"',
      '+',
      '0x1F',
    ]);
    expect(tokenizeProgram('code', '"""doc "x" """\nx_1')).toEqual(['"""doc "x" """', 'x_1']);
    expect(code("x = 'open")).toEqual(['x', '=', "'open"]);
  });

  it('does not apply regex rules to other oracles', () => {
    expect(code('a{2}')).toEqual(['a', '{', '2', '}']);
  });
});
