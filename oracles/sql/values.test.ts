import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRow, encodeRow, formatRow, formatValue, rowKey, sameRow, type SqlValue } from './values.ts';

/** Python's `==` on the values BIRD's evaluator gets from `sqlite3` (None, int, float, str, bytes). */
function pythonEqual(a: SqlValue, b: SqlValue): boolean {
  const numeric = (v: SqlValue) => typeof v === 'number' || typeof v === 'bigint';
  if (numeric(a) && numeric(b)) {
    if (typeof a === 'number' && typeof b === 'number') return a === b;
    const [big, other] = (typeof a === 'bigint' ? [a, b] : [b, a]) as [bigint, number | bigint];
    if (typeof other === 'bigint') return big === other;
    return Number.isInteger(other) && BigInt(other) === big; // int vs float: exact, as Python compares them
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array)
    return a.length === b.length && a.every((byte, i) => byte === b[i]);
  return a === b; // None, str; and across types never equal
}

/** A value Python finds equal to `v`, of another type where there is one (int ↔ float, a copy of bytes). */
function twin(v: SqlValue): SqlValue {
  if (typeof v === 'bigint') return Number(v) === Number(v) && BigInt(Number(v)) === v ? Number(v) : v;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  return v instanceof Uint8Array ? new Uint8Array(v) : v;
}

/** Values chosen to collide: the same number as INTEGER, REAL and bigint, -0, 2^53 ± 1, text that looks like numbers or keys, bytes of that text. */
const collidingValue: fc.Arbitrary<SqlValue> = fc.oneof(
  fc.constantFrom<SqlValue>(
    null,
    0,
    -0,
    1,
    1.0,
    -1,
    0.5,
    2 ** 31,
    -(2 ** 31),
    2 ** 31 - 1,
    2 ** 32,
    2 ** 53,
    Infinity,
    -Infinity,
  ),
  fc.constantFrom<SqlValue>(0n, 1n, -1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 63n), 2n ** 63n - 1n, 2n ** 31n),
  fc.integer({ min: -70_000, max: 70_000 }),
  fc.double({ noNaN: true }),
  fc.constantFrom<SqlValue>('', '1', '0', 'a', 'ab', '\u0000', '\u0001\u0000\u0000', 'N', 'n1;', 'b', 'a\u0004b'),
  fc.string({ maxLength: 4 }),
  fc.constantFrom<SqlValue>(
    new Uint8Array([]),
    new Uint8Array([0x31]),
    new Uint8Array([0, 0]),
    new Uint8Array([1, 0, 0]),
  ),
  fc.uint8Array({ maxLength: 3 }),
);

describe('SQL values', () => {
  it('round-trip losslessly through JSON, keys included', () => {
    const row = [null, 1, 2.5, -0, 'x', 9007199254740993n, new Uint8Array([0, 255]), Infinity];
    const back = decodeRow(JSON.parse(JSON.stringify(encodeRow(row))));
    expect(rowKey(back)).toBe(rowKey(row));
    expect(back[5]).toBe(9007199254740993n);
    expect(back[7]).toBe(Infinity);
  });

  it('have keys that are equal, and are the same rows, exactly when Python finds the rows equal (tuples: same length, values ==)', () => {
    const row = fc.array(collidingValue, { maxLength: 3 });
    // A row and another that holds, value by value, an equal value of another type or a random one.
    const near = row.chain((a) =>
      fc.tuple(fc.constant(a), fc.tuple(...a.map((v) => fc.oneof(fc.constant(twin(v)), collidingValue)))),
    );
    const agrees = ([a, b]: [SqlValue[], SqlValue[]]) => {
      const python = a.length === b.length && a.every((v, i) => pythonEqual(v, b[i] as SqlValue));
      expect(rowKey(a) === rowKey(b)).toBe(python);
      expect(sameRow(a, b)).toBe(python);
    };
    // Rows whose values' keys would run together without tags and lengths.
    const examples: [SqlValue[], SqlValue[]][] = [
      [['a\u0004b'], ['a', 'b']],
      [['\u0001\u0000\u0000'], [0]],
      [[new Uint8Array([0x61, 0x62])], ['ab']],
      [['', ''], ['']],
      [[2 ** 53], [2n ** 53n]],
      [[2 ** 53], [2n ** 53n + 1n]],
    ];
    fc.assert(fc.property(fc.tuple(row, row), agrees), { numRuns: 10_000, examples: examples.map((e) => [e]) });
    fc.assert(fc.property(near, agrees), { numRuns: 10_000 });
  });

  it('print as SQL literals, cutting long text and wide rows', () => {
    expect(formatRow([1, "O'Brien", null, 2.5])).toBe("(1, 'O''Brien', NULL, 2.5)");
    expect(formatValue('x'.repeat(50), 10)).toBe(`'${'x'.repeat(10)}…'`);
    expect(formatValue(new Uint8Array([10, 27]))).toBe("X'0A1B'");
    expect(
      formatRow(
        Array.from({ length: 11 }, (_, i) => i),
        { maxText: 40, maxColumns: 8 },
      ),
    ).toBe('(0, 1, 2, 3, 4, 5, 6, 7, … 3 more columns)');
  });

  it('refuse to decode what is not an encoded value', () => {
    expect(() => decodeRow({ x: 1 })).toThrow(/not an encoded row/);
    expect(() => decodeRow([{ x: 1 }])).toThrow(/not an encoded SQL value/);
  });
});
