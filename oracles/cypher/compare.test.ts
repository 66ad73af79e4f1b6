/** Hand-checked cases of the CypherBench comparison (benchmarks.md §2.1), each worked out by hand. */
import { describe, expect, it } from 'vitest';
import { compareResults, orderMattersFor } from './compare.ts';
import { diffResults } from './diff.ts';
import { findColumnPermutation } from './permutation.ts';
import { OpaqueValue, UncomparableValueError, type Cell, type ResultTable } from './values.ts';

const table = (columns: string[], rows: Cell[][]): ResultTable => ({ columns, rows });
const unordered = { orderMatters: false };
const ordered = { orderMatters: true };

describe('orderMattersFor', () => {
  it('is the substring rule of the original, case-insensitive', () => {
    expect(orderMattersFor('MATCH (n) RETURN n.name ORDER BY n.name')).toBe(true);
    expect(orderMattersFor('match (n) return n.name order by n.name')).toBe(true);
    expect(orderMattersFor('MATCH (n) RETURN n.name')).toBe(false);
    // literally a substring: two spaces do not count, a string literal does (as in the original)
    expect(orderMattersFor('MATCH (n) RETURN n.name ORDER  BY n.name')).toBe(false);
    expect(orderMattersFor("MATCH (n {name: 'sort order by size'}) RETURN n.x")).toBe(true);
  });
});

describe('compareResults', () => {
  it('ignores column names and finds permuted columns', () => {
    const gold = table(
      ['name', 'n'],
      [
        ['a', 1],
        ['b', 2],
      ],
    );
    const pred = table(
      ['count', 'airline'],
      [
        [2, 'b'],
        [1, 'a'],
      ],
    );
    expect(compareResults(gold, pred, unordered)).toEqual({ equal: true, reason: 'equal', permutation: [1, 0] });
  });

  it('needs one permutation for all rows, not one per row', () => {
    // Each row of pred is a permutation of a gold row, but no single column order works.
    const gold = table(
      ['x', 'y'],
      [
        [1, 2],
        [3, 4],
      ],
    );
    const pred = table(
      ['x', 'y'],
      [
        [1, 2],
        [4, 3],
      ],
    );
    expect(compareResults(gold, pred, unordered)).toEqual({ equal: false, reason: 'no-permutation' });
  });

  it('compares rows as a multiset: duplicate rows must match in number', () => {
    const gold = table(['a'], [['x'], ['x'], ['y']]);
    expect(compareResults(gold, table(['a'], [['y'], ['x'], ['x']]), unordered).equal).toBe(true);
    expect(compareResults(gold, table(['a'], [['x'], ['y'], ['y']]), unordered)).toEqual({
      equal: false,
      reason: 'no-permutation',
    });
    expect(compareResults(gold, table(['a'], [['x'], ['y']]), unordered)).toEqual({
      equal: false,
      reason: 'row-count',
    });
  });

  it('compares rows as a list when the gold has ORDER BY', () => {
    const gold = table(
      ['name', 'n'],
      [
        ['a', 3],
        ['b', 2],
        ['c', 1],
      ],
    );
    const sameOrder = table(
      ['n', 'name'],
      [
        [3, 'a'],
        [2, 'b'],
        [1, 'c'],
      ],
    );
    const otherOrder = table(
      ['name', 'n'],
      [
        ['c', 1],
        ['b', 2],
        ['a', 3],
      ],
    );
    expect(compareResults(gold, sameOrder, ordered).equal).toBe(true);
    expect(compareResults(gold, otherOrder, ordered).equal).toBe(false);
    expect(compareResults(gold, otherOrder, unordered).equal).toBe(true);
  });

  it('compares lists inside cells sorted, nested lists too', () => {
    const gold = table(['names'], [[['b', 'a', 'c']]]);
    expect(compareResults(gold, table(['x'], [[['a', 'b', 'c']]]), unordered).equal).toBe(true);
    expect(compareResults(gold, table(['x'], [[['a', 'b']]]), unordered).equal).toBe(false);
    // duplicates inside a list count: sorted tuples, not sets
    expect(compareResults(table(['l'], [[['a', 'a']]]), table(['l'], [[['a']]]), unordered).equal).toBe(false);
    const nested = table(['l'], [[[[2, 1], [3]]]]);
    expect(compareResults(nested, table(['l'], [[[[3], [1, 2]]]]), unordered).equal).toBe(true);
    expect(compareResults(nested, table(['l'], [[[[3, 1], [2]]]]), unordered).equal).toBe(false);
  });

  it('compares maps by their key/value pairs, whatever the key order', () => {
    const gold = table(['m'], [[{ a: 1, b: ['y', 'x'] }]]);
    expect(compareResults(gold, table(['m'], [[{ b: ['x', 'y'], a: 1 }]]), unordered).equal).toBe(true);
    expect(compareResults(gold, table(['m'], [[{ a: 1 }]]), unordered).equal).toBe(false);
  });

  it('treats dates as ISO strings (converted before comparison) and ints equal to floats by value', () => {
    // Dates arrive as ISO strings (values.ts), so a date equals the same text returned as a string.
    expect(compareResults(table(['d'], [['2001-09-11']]), table(['s'], [['2001-09-11']]), unordered).equal).toBe(true);
    expect(compareResults(table(['n'], [[1]]), table(['n'], [[1.0]]), unordered).equal).toBe(true);
    expect(compareResults(table(['n'], [[2n ** 60n]]), table(['n'], [[2 ** 60]]), unordered).equal).toBe(true);
    expect(compareResults(table(['n'], [[2n ** 60n + 1n]]), table(['n'], [[2 ** 60]]), unordered).equal).toBe(false);
    expect(compareResults(table(['n'], [[1.5]]), table(['n'], [['1.5']]), unordered).equal).toBe(false);
  });

  it('treats NULL as an ordinary value', () => {
    const gold = table(
      ['name', 'ceo'],
      [
        ['a', null],
        ['b', 'x'],
      ],
    );
    expect(
      compareResults(
        gold,
        table(
          ['ceo', 'name'],
          [
            ['x', 'b'],
            [null, 'a'],
          ],
        ),
        unordered,
      ).equal,
    ).toBe(true);
    expect(
      compareResults(
        gold,
        table(
          ['name', 'ceo'],
          [
            ['a', 'x'],
            ['b', null],
          ],
        ),
        unordered,
      ).equal,
    ).toBe(false);
    expect(compareResults(table(['x'], [[null]]), table(['x'], [['null']]), unordered).equal).toBe(false);
  });

  it('keeps booleans apart from numbers unless asked for Python equality', () => {
    expect(compareResults(table(['b'], [[true]]), table(['b'], [[1]]), unordered).equal).toBe(false);
    expect(
      compareResults(table(['b'], [[true]]), table(['b'], [[1]]), { orderMatters: false, boolEqualsInt: true }).equal,
    ).toBe(true);
  });

  it('counts both empty as correct, one empty as wrong, whatever the columns', () => {
    expect(compareResults(table(['a', 'b'], []), table(['x'], []), unordered)).toEqual({
      equal: true,
      reason: 'both-empty',
    });
    expect(compareResults(table(['a'], []), table(['a'], [[1]]), unordered)).toEqual({
      equal: false,
      reason: 'one-empty',
    });
    expect(compareResults(table(['a'], [[1]]), table(['a'], []), unordered)).toEqual({
      equal: false,
      reason: 'one-empty',
    });
  });

  it('requires equal column counts', () => {
    expect(compareResults(table(['a'], [[1]]), table(['a', 'b'], [[1, 1]]), unordered)).toEqual({
      equal: false,
      reason: 'column-count',
    });
  });

  it('refuses relationships, paths and other opaque values like the original (TypeError)', () => {
    const pred = table(['r'], [[new OpaqueValue('relationship', '[:operatedBy {}]')]]);
    expect(() => compareResults(table(['a'], [[1]]), pred, unordered)).toThrow(UncomparableValueError);
  });
});

describe('findColumnPermutation', () => {
  it('finds the permutation for many columns without sampling', () => {
    const width = 9;
    const gold = Array.from({ length: 30 }, (_, r) =>
      Array.from({ length: width }, (_, c) => `v${(r * 7 + c * 3) % 5}`),
    );
    const perm = [4, 8, 0, 2, 7, 1, 6, 3, 5];
    const pred = gold
      .map((row) => {
        const out = new Array<string>(width);
        perm.forEach((j, i) => (out[j] = row[i] as string));
        return out;
      })
      .reverse();
    const found = findColumnPermutation(gold, pred, false);
    expect(found).not.toBeNull();
    const rebuilt = pred.map((row) => (found as number[]).map((j) => row[j]));
    expect(rebuilt.map((r) => r.join()).sort()).toEqual(gold.map((r) => r.join()).sort());
  });

  it('handles many identical columns without blowing up', () => {
    const gold = Array.from({ length: 5 }, (_, r) => Array.from({ length: 12 }, () => `x${r}`));
    expect(findColumnPermutation(gold, gold, false)).toHaveLength(12);
  });

  it('rejects when columns have the same value multisets but no joint arrangement', () => {
    const gold = [
      ['1', 'a', 'p'],
      ['2', 'b', 'q'],
    ];
    const pred = [
      ['1', 'b', 'p'],
      ['2', 'a', 'q'],
    ];
    expect(findColumnPermutation(gold, pred, false)).toBeNull();
  });
});

describe('diffResults', () => {
  it('names missing and unexpected rows in the candidate’s own column order', () => {
    const gold = table(
      ['name', 'n'],
      [
        ['a', 1],
        ['b', 2],
        ['b', 2],
      ],
    );
    const pred = table(
      ['count', 'airline'],
      [
        [2, 'b'],
        [5, 'c'],
        [1, 'a'],
      ],
    );
    const diff = diffResults(gold, pred, unordered);
    expect(diff.permutation).toEqual([1, 0]);
    expect(diff.alignedColumns).toEqual(['airline', 'count']);
    expect(diff.missing).toEqual([['b', 2]]);
    expect(diff.extra).toEqual([['c', 5]]);
    expect(diff.goldPresent).toEqual([true, true, false]);
  });

  it('reports the first misplaced row when only the order is wrong', () => {
    const gold = table(['a'], [['x'], ['y'], ['z']]);
    const diff = diffResults(gold, table(['a'], [['x'], ['z'], ['y']]), ordered);
    expect(diff.missing).toEqual([]);
    expect(diff.misordered).toEqual({ position: 1, expected: ['y'], actual: ['z'] });
  });

  it('does not align rows when column counts differ', () => {
    const diff = diffResults(table(['a'], [['x']]), table(['a', 'b'], [['x', 1]]), unordered);
    expect(diff.aligned).toBe(false);
    expect(diff.goldPresent).toEqual([false]);
  });
});
