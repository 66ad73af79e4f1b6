import { describe, expect, it } from 'vitest';
import type { Dialect } from './ast.ts';
import { compileRegex, type CompiledRegex } from './compile.ts';
import { compareLanguages, isEmptyLanguage, isomorphic, shortestMember } from './equivalence.ts';

const compile = (source: string, dialect: Dialect = 'brics') => compileRegex(source, dialect);

/** Every counterexample must be accepted by exactly the side it is attributed to. */
function checkWitnesses(gold: CompiledRegex, candidate: CompiledRegex) {
  const result = compareLanguages(gold, candidate);
  if (result.decided && !result.equivalent) {
    expect(result.falsePositive !== undefined || result.falseNegative !== undefined).toBe(true);
    if (result.falsePositive !== undefined) {
      expect(candidate.test?.(result.falsePositive)).toBe(true);
      expect(gold.test?.(result.falsePositive)).toBe(false);
    }
    if (result.falseNegative !== undefined) {
      expect(gold.test?.(result.falseNegative)).toBe(true);
      expect(candidate.test?.(result.falseNegative)).toBe(false);
    }
  }
  return result;
}

describe('compareLanguages (environment.md §4.2, brics gold vs ECMAScript candidate)', () => {
  it.each([
    ['.*dog.*', '.*(dog).*'],
    ['([A-Z]).*', '[A-Z].*'],
    ['([A-Z]).*', '([A-Z])+.*'],
    ['(.*[0-9].*){3,}', '.*[0-9].*[0-9].*[0-9].*'],
    ['((.*[a-z].*){7,})|([A-Z].*)', '(.*[a-z].*){7,}|[A-Z].*'],
    ['~(.*[0-9].*)', '[^0-9]*'],
  ])('%s ≡ %s', (gold, candidate) => {
    expect(checkWitnesses(compile(gold), compile(candidate, 'ecmascript'))).toEqual({
      decided: true,
      equivalent: true,
    });
  });

  it.each([
    ['.*dog.*', '.*dogs.*', undefined, 'dog'],
    ['([A-Z]).*', '[A-Za-z].*', 'a', undefined],
    ['(.*[0-9].*){3,}', '(.*[0-9].*){2,}', '00', undefined],
    ['(.*[0-9].*){3,}', '.*[0-9].*', '0', undefined],
    ['(.*dog.*)&(.*cat.*)', 'catdog', undefined, 'dogcat'],
    ['dog', 'cat', 'cat', 'dog'],
  ])('%s vs %s: only candidate %j, only gold %j', (gold, candidate, falsePositive, falseNegative) => {
    const result = checkWitnesses(compile(gold), compile(candidate, 'ecmascript'));
    expect(result).toEqual({
      decided: true,
      equivalent: false,
      ...(falsePositive === undefined ? {} : { falsePositive }),
      ...(falseNegative === undefined ? {} : { falseNegative }),
    });
  });

  it('never calls different languages equal: A|[Aa]x* vs A|[Aa]x+ differ on "a" (refa structurallyEqual said equal)', () => {
    const gold = compile('A|[Aa]x*', 'ecmascript');
    const candidate = compile('A|[Aa]x+', 'ecmascript');
    expect(isomorphic(gold.dfa!, candidate.dfa!)).toBe(false);
    expect(isomorphic(candidate.dfa!, gold.dfa!)).toBe(false);
    expect(checkWitnesses(gold, candidate)).toEqual({ decided: true, equivalent: false, falseNegative: 'a' });
    // A real NL-RX-Turk line and one mutation of it (line 801 of targ.txt).
    expect(checkWitnesses(compile('((.)|([0-9])).*([A-Z]).*'), compile('(.|[0-9]).?[A-Z].*'))).toMatchObject({
      decided: true,
      equivalent: false,
    });
  });

  it('isomorphic accepts a DFA and its copy', () => {
    const dfa = compile('(.*dog.*)&(.*[0-9].*)').dfa!;
    expect(isomorphic(dfa, dfa.copy())).toBe(true);
  });

  it('counterexamples are the shortest differences', () => {
    const result = compareLanguages(compile('[a-z]{3,}'), compile('[a-z]{5,}', 'ecmascript'));
    expect(result).toMatchObject({ decided: true, equivalent: false });
    if (result.decided && !result.equivalent) expect(result.falseNegative).toHaveLength(3);
  });

  it('decodes counterexamples as UTF-16 code units', () => {
    const result = checkWitnesses(compile('\ud83d\ude00|a', 'ecmascript'), compile('a', 'ecmascript'));
    expect(result).toEqual({ decided: true, equivalent: false, falseNegative: '\u{1F600}' });
  });

  it('is undecided when a side is not regular', () => {
    const result = compareLanguages(compile('.*dog.*'), compile('(?=.*d).*dog.*', 'ecmascript'));
    expect(result).toMatchObject({ decided: false });
    if (!result.decided) expect(result.reason).toMatch(/candidate regex: .*lookahead/);
  });
});

describe('isEmptyLanguage / shortestMember', () => {
  it('tells empty, non-empty and unknown apart', () => {
    expect(isEmptyLanguage(compile('ab&cd'))).toBe(true);
    expect(isEmptyLanguage(compile('dog'))).toBe(false);
    expect(isEmptyLanguage(compile('(a+)\\1', 'ecmascript'))).toBeNull();
    expect(shortestMember(compile('(dog)+|[0-9]{2}'))).toBe('00');
    expect(shortestMember(compile('#'))).toBeUndefined();
  });
});

describe('compareLanguages without full DFAs (lazy product)', () => {
  it('finds "b" at once for a* vs a{0,99999}b{0,99999}, whose DFA is past the budget', () => {
    const candidate = compile('a{0,99999}b{0,99999}', 'ecmascript');
    expect(candidate.dfa).toBeNull();
    const started = performance.now();
    expect(compareLanguages(compile('a*', 'ecmascript'), candidate)).toEqual({
      decided: true,
      equivalent: false,
      falsePositive: 'b',
      partial: true,
    });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('proves equality when the product is small even if a DFA is not', () => {
    const gold = compile('(a|b)*a(a|b){16}', 'ecmascript');
    expect(gold.dfa).toBeNull();
    expect(compareLanguages(gold, compile('(?:a|b)*a(?:a|b){16}', 'ecmascript'))).toEqual({
      decided: true,
      equivalent: true,
    });
  });

  it('says undecided, with the reason, when the product outgrows its budget', () => {
    const result = compareLanguages(compile('a*', 'ecmascript'), compile('a{0,99999}|a{100000,}', 'ecmascript'));
    expect(result).toMatchObject({ decided: false });
    if (!result.decided)
      expect(result.reason).toMatch(
        /lazy product stopped at more than 20,000 state pairs with no difference among the words up to length \d+/,
      );
  });
});
