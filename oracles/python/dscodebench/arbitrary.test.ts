import { describe, expect, it } from 'vitest';
import { argumentsArbitrary, sampleInputs, type ArgumentsSchema, type Schema } from './arbitrary.ts';

const args = (single: boolean, ...schemas: Schema[]): ArgumentsSchema => ({
  kind: 'arguments',
  single,
  arguments: schemas,
  usable: true,
});

describe("fast-check arbitraries from a task's input schema", () => {
  it('stays inside the observed ranges, lengths, alphabets and shapes', () => {
    const values = sampleInputs(
      args(
        false,
        { kind: 'int', min: -3, max: 5 },
        { kind: 'str', minLength: 1, maxLength: 4, alphabet: 'ab' },
        { kind: 'list', minLength: 0, maxLength: 3, elem: { kind: 'float', min: 0, max: 1 } },
      ),
      7,
      100,
    ) as { $tuple: [number, string, { $f: number }[]] }[];
    expect(values).toHaveLength(100);
    for (const {
      $tuple: [n, s, list],
    } of values) {
      expect(Number.isInteger(n) && n >= -3 && n <= 5).toBe(true);
      expect(s).toMatch(/^[ab]{1,4}$/);
      expect(list.length).toBeLessThanOrEqual(3);
      for (const x of list) expect(x.$f >= 0 && x.$f <= 1).toBe(true);
    }
    expect(new Set(values.map((v) => v.$tuple[0])).size).toBeGreaterThan(5);
  });

  it('builds arrays, frames and series with consistent shapes', () => {
    const [array] = sampleInputs(
      args(true, { kind: 'ndarray', dtype: 'int64', shapeMin: [2, 1], shapeMax: [3, 2], min: 0, max: 9 }),
      1,
      1,
    ) as {
      $ndarray: { shape: number[]; data: number[]; dtype: string };
    }[];
    const shape = array!.$ndarray.shape;
    expect(shape[0]! >= 2 && shape[0]! <= 3 && shape[1]! >= 1 && shape[1]! <= 2).toBe(true);
    expect(array!.$ndarray.data).toHaveLength(shape[0]! * shape[1]!);
    const [frame] = sampleInputs(
      args(true, {
        kind: 'dataframe',
        minRows: 1,
        maxRows: 4,
        columns: [
          { name: 'g', dtype: 'object', categories: ['x', 'y'] },
          { name: 'v', dtype: 'float64', min: 0, max: 2 },
        ],
      }),
      2,
      1,
    ) as { $dataframe: { columns: { name: string; data: unknown[] }[] } }[];
    const [g, v] = frame!.$dataframe.columns;
    expect(g!.data.length).toBe(v!.data.length);
    expect(g!.data.every((x) => x === 'x' || x === 'y')).toBe(true);
  });

  it('gives nothing for opaque or unusable schemas, and the same values for the same seed', () => {
    expect(argumentsArbitrary(args(true, { kind: 'opaque' }))).toBeNull();
    expect(argumentsArbitrary({ ...args(true, { kind: 'int', min: 0, max: 1 }), usable: false })).toBeNull();
    expect(sampleInputs(null, 1, 10)).toEqual([]);
    const schema = args(true, {
      kind: 'union',
      options: [{ kind: 'none' }, { kind: 'bool' }, { kind: 'record', fields: { a: { kind: 'int', min: 1, max: 2 } } }],
    });
    expect(sampleInputs(schema, 9, 20)).toEqual(sampleInputs(schema, 9, 20));
  });
});
