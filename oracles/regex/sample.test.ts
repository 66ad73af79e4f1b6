import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/random.ts';
import type { Dialect } from './ast.ts';
import { compileRegex } from './compile.ts';
import { sampleLanguage } from './sample.ts';

const compile = (source: string, dialect: Dialect = 'brics') => compileRegex(source, dialect);
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

describe('sampleLanguage', () => {
  it.each([
    '.*dog.*',
    '([A-Z]).*',
    '(.*[0-9].*){3,}',
    '~(.*[0-9].*)',
    '((dog)|(truck)){2,}',
    '(.*dog.*)&(.*cat.*)',
    '\\b([a-z])(.*)\\b',
    '[^a-z]+',
  ])('%s: members are accepted, distinct and deterministic', (source) => {
    const compiled = compile(source);
    const first = sampleLanguage(compiled, new Rng(11), 20);
    expect(first.length).toBeGreaterThanOrEqual(15);
    expect(new Set(first).size).toBe(first.length);
    for (const word of first) expect(compiled.test?.(word), JSON.stringify(word)).toBe(true);
    expect(sampleLanguage(compiled, new Rng(11), 20)).toEqual(first);
    expect(sampleLanguage(compiled, new Rng(12), 20)).not.toEqual(first);
  });

  it('returns fewer for small languages and none for the empty one', () => {
    expect(sampleLanguage(compile('dog'), new Rng(1), 10)).toEqual(['dog']);
    expect(sampleLanguage(compile('dog|cat|()'), new Rng(1), 10).sort()).toEqual(['', 'cat', 'dog']);
    expect(sampleLanguage(compile('ab&cd'), new Rng(1), 10)).toEqual([]);
    expect(sampleLanguage(compile('#'), new Rng(1), 10)).toEqual([]);
  });

  it('respects minLength and maxLength', () => {
    const words = sampleLanguage(compile('[a-z]*'), new Rng(5), 50, { minLength: 3, maxLength: 6 });
    expect(words.length).toBeGreaterThan(30);
    for (const word of words) expect(word.length >= 3 && word.length <= 6, word).toBe(true);
    expect(sampleLanguage(compile('dog'), new Rng(5), 5, { minLength: 4 })).toEqual([]);
    const long = sampleLanguage(compile('a{30}b*'), new Rng(5), 5, { maxLength: 10 });
    expect(long).toContain('a'.repeat(30));
    expect(long.every((w) => w.length === 30)).toBe(true);
  });

  it('varies lengths', () => {
    const lengths = new Set(sampleLanguage(compile('.*'), new Rng(2), 60).map((w) => w.length));
    expect(lengths.size).toBeGreaterThan(8);
  });

  it('picks printable ASCII when the set allows it, and literal characters of the regex often', () => {
    const words = sampleLanguage(compile('.*dog.*'), new Rng(3), 40);
    for (const word of words) expect(word).toMatch(PRINTABLE_ASCII);
    const letters = words.join('').replace(/dog/g, '');
    expect([...letters].filter((c) => 'dog'.includes(c)).length).toBeGreaterThan(letters.length / 10);
    expect(sampleLanguage(compile('[^a]'), new Rng(3), 30).every((w) => PRINTABLE_ASCII.test(w))).toBe(true);
  });

  it('never picks a control character when a printable one is in the set', () => {
    const words = sampleLanguage(compile('[\\x00-\\x1f\\x7f-\\x9f\\u00e9]+', 'ecmascript'), new Rng(4), 10);
    for (const word of words) expect(word).toMatch(/^\u00e9+$/);
    const controls = sampleLanguage(compile('[\\x00-\\x1f]', 'ecmascript'), new Rng(4), 3);
    for (const word of controls) expect(['\t', '\n', '\r']).toContain(word);
  });

  it('requires a DFA', () => {
    expect(() => sampleLanguage(compile('(a+)\\1', 'ecmascript'), new Rng(1), 3)).toThrow(/needs a DFA/);
  });
});
