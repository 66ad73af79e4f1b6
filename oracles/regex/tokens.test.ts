import { describe, expect, it } from 'vitest';
import { tokenizeRegex } from './tokens.ts';

describe('tokenizeRegex', () => {
  it.each([
    ['.*(dog).*', ['.', '*', '(', 'd', 'o', 'g', ')', '.', '*']],
    ['\\b([A-Z])&([AEIOUaeiou])\\b', ['\\b', '(', '[A-Z]', ')', '&', '(', '[AEIOUaeiou]', ')', '\\b']],
    ['(dog){2,}a{3}b{1,7}', ['(', 'd', 'o', 'g', ')', '{2,}', 'a', '{3}', 'b', '{1,7}']],
    ['[^\\]a-z]+\\d', ['[^\\]a-z]', '+', '\\d']],
    ['\\u0041\\x41\\cJ\\p{L}\\k<n>\\12', ['\\u0041', '\\x41', '\\cJ', '\\p{L}', '\\k<n>', '\\12']],
    ['(?:a)(?=b)(?!c)(?<=d)(?<!e)(?<n>f)', ['(?:', 'a', ')', '(?=', 'b', ')', '(?!', 'c', ')', '(?<=', 'd', ')', '(?<!', 'e', ')', '(?<n>', 'f', ')']],
    ['a{,2}[]x', ['a', '{', ',', '2', '}', '[]', 'x']],
    ['[abc', ['[abc']],
    ['a\\', ['a', '\\']],
    ['', []],
  ])('%j', (source, tokens) => {
    expect(tokenizeRegex(source)).toEqual(tokens);
    expect(tokenizeRegex(source).join('')).toBe(source);
  });
});
