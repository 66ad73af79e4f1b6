import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashRow, RowTable } from './result-equality.mjs';
import { fewSqlValues } from '../../testing/sql.ts';
import { rowKey, type SqlRow, type SqlValue } from './values.ts';

const rows = fc.array(fc.array(fewSqlValues, { minLength: 1, maxLength: 2 }), { maxLength: 40 });

/** Distinct rows and their counts by the keys of values.ts (Python's equality). */
function byKey(list: readonly SqlRow[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of list) counts.set(rowKey(row), (counts.get(rowKey(row)) ?? 0) + 1);
  return counts;
}

describe('the table of a result’s distinct rows', () => {
  it('holds each distinct row once with its count, and finds exactly the rows Python finds equal — also when every hash collides', () => {
    for (const hash of [hashRow, () => 7]) {
      fc.assert(
        fc.property(rows, rows, (held, probes) => {
          const table = new RowTable(held, hash);
          const counts = byKey(held);
          expect(table.rows.map(rowKey)).toEqual([...counts.keys()]);
          expect([...table.counts.slice(0, table.rows.length)]).toEqual([...counts.values()]);
          for (const probe of probes) {
            const at = table.find(probe);
            expect(at >= 0).toBe(counts.has(rowKey(probe)));
            if (at >= 0) expect(rowKey(table.rows[at] as SqlRow)).toBe(rowKey(probe));
          }
        }),
        { numRuns: 1000 },
      );
    }
  });

  it('hashes equal rows alike, whatever type holds each number', () => {
    expect(hashRow([1, -0, 2 ** 53])).toBe(hashRow([1n, 0, 2n ** 53n]));
    expect(hashRow([1.0, 'a'])).toBe(hashRow([1, 'a']));
  });

  it('takes a result of a few hundred thousand rows in one pass', () => {
    const many = Array.from({ length: 300_000 }, (_, i) => [i % 1000, `d${i % 7}`, i / 4]);
    const table = new RowTable(many);
    expect(table.rows).toHaveLength(300_000); // i / 4 keeps every row distinct
    expect(table.find([5, 'd5', 5 / 4])).toBe(5);
    expect(table.find([5, 'd5', 5])).toBe(-1);
    const repeated = new RowTable(many.map((row) => row.slice(0, 2)));
    expect(repeated.rows).toHaveLength(7000); // (i mod 1000, i mod 7) repeats every 7,000 rows
    expect(repeated.counts[repeated.find([0, 'd0'])]).toBe(43); // i = 0, 7,000, …, 294,000
    expect(repeated.counts.reduce((sum, n) => sum + n, 0)).toBe(300_000);
  });
});
