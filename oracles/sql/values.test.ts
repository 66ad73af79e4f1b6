import { describe, expect, it } from 'vitest';
import { decodeRow, encodeRow, formatRow, formatValue, rowKey } from './values.ts';

describe('SQL values', () => {
  it('round-trip losslessly through JSON, keys included', () => {
    const row = [null, 1, 2.5, -0, 'x', 9007199254740993n, new Uint8Array([0, 255]), Infinity];
    const back = decodeRow(JSON.parse(JSON.stringify(encodeRow(row))));
    expect(rowKey(back)).toBe(rowKey(row));
    expect(back[5]).toBe(9007199254740993n);
    expect(back[7]).toBe(Infinity);
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
