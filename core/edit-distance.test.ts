import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance } from './edit-distance.ts';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    // kitten → sitting: k→s, e→i, +g = 3
    expect(editDistance([...'kitten'], [...'sitting'])).toBe(3);
    expect(editDistance([], ['a', 'b'])).toBe(2);
    expect(editDistance(['a', 'b'], [])).toBe(2);
    expect(editDistance([], [])).toBe(0);
  });

  it('works on whole tokens, not characters', () => {
    expect(editDistance(['\\d', '{2}'], ['\\d', '{3}'])).toBe(1);
    expect(editDistance(['[a-z]', '+'], ['[a-z]', '+'])).toBe(0);
  });

  it('is symmetric', () => {
    const a = ['(', 'a', '|', 'b', ')', '*'];
    const b = ['a', '*', 'b'];
    expect(editDistance(a, b)).toBe(editDistance(b, a));
    expect(editDistance(a, b)).toBe(4); // del '(', keep a, '|'→'*', keep b, del ')', del '*'
  });
});

describe('editDistance on long programs that share most of their tokens', () => {
  it('is exact by property: trimming the common prefix and suffix never changes the distance', () => {
    const reference = <T>(a: readonly T[], b: readonly T[]): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) =>
        Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
      );
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++)
          d[i]![j] = Math.min(
            d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
            d[i - 1]![j]! + 1,
            d[i]![j - 1]! + 1,
          );
      }
      return d[a.length]![b.length]!;
    };
    const tokens = fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 12 });
    fc.assert(
      fc.property(
        tokens,
        tokens,
        tokens,
        tokens,
        (p, x, y, s) =>
          editDistance([...p, ...x, ...s], [...p, ...y, ...s]) === reference([...p, ...x, ...s], [...p, ...y, ...s]),
      ),
      { numRuns: 500 },
    );
  });

  it('compares a 200,000-token answer repeated turn after turn, or changed in one place, without a quadratic table', () => {
    const long: string[] = Array.from({ length: 200_000 }, (_, i) => (i % 2 ? '(' : ')'));
    expect(editDistance(long, [...long])).toBe(0);
    const changed = [...long];
    changed[100_000] = 'x';
    expect(editDistance(long, changed)).toBe(1);
    expect(editDistance(long, [...long, 'y'])).toBe(1);
  });
});
