import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPARE_MODES, diffResults, hasTopLevelOrderBy, resultsEqual } from './compare.ts';
import { fewSqlValues } from '../../testing/sql.ts';
import { rowKey, type SqlRow, type SqlValue } from './values.ts';

const rs = (rows: SqlRow[], columns = rows[0]?.length ?? 1) => ({
  columns: Array.from({ length: columns }, (_, i) => `c${i}`),
  rows,
});

// Each expectation below was checked by hand against BIRD's rule `set(predicted_res) == set(ground_truth_res)`
// on Python tuples (run with CPython 3.11's sqlite3 rows).
describe('BIRD EX (set mode)', () => {
  const ex = (pred: SqlRow[], gold: SqlRow[]) => resultsEqual(pred, gold, 'set');

  it('ignores duplicates and row order, even when the gold has ORDER BY', () => {
    expect(ex([[1], [1], [2]], [[2], [1]])).toBe(true);
    expect(ex([[1], [2]], [[2], [1]])).toBe(true);
    expect(resultsEqual([[1], [2]], [[2], [1]], 'set', true)).toBe(true);
  });

  it('compares columns by position: column order matters, names do not', () => {
    expect(ex([[1, 'a']], [['a', 1]])).toBe(false);
    expect(ex([[1, 'a']], [[1, 'a']])).toBe(true);
    expect(ex([[1]], [[1, 1]])).toBe(false);
  });

  it('uses Python equality: 1 == 1.0, NULL == NULL, exact floats, text never equals a number, bytes never equal text', () => {
    expect(ex([[1]], [[1.0]])).toBe(true);
    expect(ex([[-0]], [[0]])).toBe(true);
    expect(ex([[null]], [[null]])).toBe(true);
    expect(ex([[null]], [[0]])).toBe(false);
    expect(ex([[null]], [['']])).toBe(false);
    expect(ex([[0.1 + 0.2]], [[0.3]])).toBe(false);
    expect(ex([['1']], [[1]])).toBe(false);
    expect(ex([[new Uint8Array([97])]], [['a']])).toBe(false);
    expect(ex([[new Uint8Array([97])]], [[new Uint8Array([97])]])).toBe(true);
  });

  it('compares integers beyond 2^53 exactly, and against reals as Python does', () => {
    expect(ex([[9007199254740993n]], [[9007199254740992]])).toBe(false); // 2**53 + 1 != 2.0**53
    expect(ex([[9007199254740992n]], [[9007199254740992]])).toBe(true); // 2**53 == 2.0**53
    expect(ex([[10n ** 21n]], [[1e21]])).toBe(true); // 10**21 == 1e21
    expect(ex([[9007199254740993n]], [[9007199254740993n]])).toBe(true);
  });

  it('counts two empty results as equal and one empty result as different', () => {
    expect(ex([], [])).toBe(true);
    expect(ex([], [[1]])).toBe(false);
    expect(ex([[null]], [])).toBe(false);
  });

  it('does not confuse values that print alike across cells', () => {
    expect(ex([['a', 'bc']], [['ab', 'c']])).toBe(false);
    expect(ex([['1;', 'x']], [['1', ';x']])).toBe(false);
  });
});

describe('every mode, by property', () => {
  const rows = (width: number) =>
    fc.array(fc.array(fewSqlValues, { minLength: width, maxLength: width }), { maxLength: 5 });
  const result = fc.integer({ min: 1, max: 2 }).chain((w) => fc.tuple(rows(w), fc.oneof(rows(w), rows(3 - w))));
  const keys = (rs: readonly SqlRow[]) => rs.map(rowKey);
  const counted = (rs: readonly SqlRow[]) => [...keys(rs)].sort().join('|');
  /** BIRD's rule and its stricter variants, on the keys of values.ts (Python equality). */
  const reference = (a: SqlRow[], b: SqlRow[], mode: string, ordered: boolean) =>
    mode === 'set'
      ? [...new Set(keys(a))].sort().join('|') === [...new Set(keys(b))].sort().join('|')
      : mode === 'ordered' && ordered
        ? keys(a).join('|') === keys(b).join('|') && a.length === b.length
        : counted(a) === counted(b) && a.length === b.length;

  it('agrees with the comparison of Python-equality keys, whatever the values, and a result equals its own copy', () => {
    fc.assert(
      fc.property(result, fc.constantFrom(...COMPARE_MODES), fc.boolean(), ([a, b], mode, ordered) => {
        expect(resultsEqual(a, b, mode, ordered)).toBe(reference(a, b, mode, ordered));
        expect(resultsEqual(a, structuredClone(a), mode, ordered)).toBe(true);
        expect(resultsEqual(a, a, mode, ordered)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('multiset and ordered modes', () => {
  it('multiset counts duplicates but ignores order', () => {
    expect(resultsEqual([[1], [1], [2]], [[2], [1]], 'multiset')).toBe(false);
    expect(resultsEqual([[1], [2], [1]], [[1], [1], [2]], 'multiset')).toBe(true);
  });

  it('ordered compares lists when the gold sorts, multisets otherwise', () => {
    expect(resultsEqual([[1], [2]], [[2], [1]], 'ordered', true)).toBe(false);
    expect(resultsEqual([[2], [1]], [[2], [1]], 'ordered', true)).toBe(true);
    expect(resultsEqual([[1], [2]], [[2], [1]], 'ordered', false)).toBe(true);
    expect(resultsEqual([[1], [1]], [[1]], 'ordered', false)).toBe(false);
  });

  it('finds the ORDER BY of the outermost query only', () => {
    expect(hasTopLevelOrderBy('SELECT name FROM t ORDER BY x DESC LIMIT 1')).toBe(true);
    expect(hasTopLevelOrderBy('select name from t order\n  by x')).toBe(true);
    expect(hasTopLevelOrderBy('SELECT * FROM (SELECT x FROM t ORDER BY x) LIMIT 3')).toBe(false);
    expect(hasTopLevelOrderBy("SELECT 'order by' FROM t -- order by x")).toBe(false);
    expect(hasTopLevelOrderBy('SELECT "order" FROM t')).toBe(false);
  });
});

describe('the difference between two results', () => {
  it('lists missing and extra rows with their counts', () => {
    const diff = diffResults(rs([[1], [3], [3]]), rs([[1], [2]]), 'set');
    expect(diff.equal).toBe(false);
    expect(diff.missing).toEqual([{ row: [2], expected: 1, actual: 0 }]);
    expect(diff.extra).toEqual([{ row: [3], expected: 0, actual: 2 }]);
    expect(diff.columns).toBeUndefined();
  });

  it('in multiset mode, a row held too often or too rarely is extra or missing', () => {
    const diff = diffResults(rs([[1], [1], [2]]), rs([[1], [2], [2]]), 'multiset');
    expect(diff.missing).toEqual([{ row: [2], expected: 2, actual: 1 }]);
    expect(diff.extra).toEqual([{ row: [1], expected: 1, actual: 2 }]);
  });

  it('in ordered mode, names the first misplaced row when the rows themselves agree', () => {
    const diff = diffResults(rs([['a'], ['b'], ['c']]), rs([['a'], ['c'], ['b']]), 'ordered', true);
    expect(diff).toMatchObject({
      equal: false,
      missing: [],
      extra: [],
      misordered: { index: 1, expected: ['c'], actual: ['b'] },
    });
  });

  it('reports a column-count mismatch, and a column whose values are text on one side and numbers on the other', () => {
    expect(diffResults(rs([[1]]), rs([[1, 'x']]), 'set').columns).toEqual({ expectedColumns: 2, actualColumns: 1 });
    const typed = diffResults(rs([['2021', 5]]), rs([[2021, 5]]), 'set');
    expect(typed.columns).toEqual({
      expectedColumns: 2,
      actualColumns: 2,
      column: 1,
      expectedKinds: ['number'],
      actualKinds: ['text'],
    });
    expect(diffResults(rs([[null, 1]]), rs([['x', 2]]), 'set').columns).toBeUndefined();
  });

  it('is empty for equal results', () => {
    expect(diffResults(rs([[2], [1]]), rs([[1], [2], [2]]), 'set')).toEqual({ equal: true, missing: [], extra: [] });
  });
});
