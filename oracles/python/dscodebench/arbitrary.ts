/**
 * fast-check arbitraries for a DSCodeBench task's input domain, built from the schema the
 * reference's 200 generated inputs were summarised into (py/domain.py): the same types, shapes,
 * lengths and value ranges, with fast-check's bias toward small and boundary values. Values are
 * tagged JSON that py/domain.py decodes (`{"$f": x}` floats, `{"$tuple": […]}`, `{"$ndarray": …}`, …).
 */
import fc from 'fast-check';
import type { Json } from '../../../core/types.ts';

export type Schema =
  | { kind: 'none' }
  | { kind: 'bool' }
  | { kind: 'int'; min: number; max: number }
  | { kind: 'float'; min: number; max: number }
  | { kind: 'str'; minLength: number; maxLength: number; alphabet: string }
  | { kind: 'list' | 'tuple'; minLength: number; maxLength: number; elem: Schema; items?: Schema[] }
  | { kind: 'record'; fields: Record<string, Schema> }
  | { kind: 'ndarray'; dtype: string; shapeMin: number[]; shapeMax: number[]; min?: number; max?: number }
  | { kind: 'dataframe'; columns: Column[]; minRows: number; maxRows: number }
  | { kind: 'series'; name: string | null; column: Column; minLength: number; maxLength: number }
  | { kind: 'union'; options: Schema[] }
  | { kind: 'opaque' };

export interface Column {
  name?: string;
  dtype: string;
  min?: number;
  max?: number;
  categories?: string[];
}

export interface ArgumentsSchema {
  kind: 'arguments';
  single: boolean;
  arguments: Schema[];
  usable: boolean;
}

/** Longest list, string or array dimension a probe may have (keeps probes cheap). */
const MAX_LENGTH = 64;

const cap = (n: number) => Math.min(n, MAX_LENGTH);

function floatArb(min: number, max: number): fc.Arbitrary<number> {
  if (min === max) return fc.constant(min);
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function intArb(min: number, max: number): fc.Arbitrary<number> {
  return fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) });
}

function columnArb(column: Column, rows: number): fc.Arbitrary<Json[]> {
  const length = { minLength: rows, maxLength: rows };
  if (column.dtype === 'object')
    return fc.array(fc.constantFrom(...(column.categories?.length ? column.categories : ['a'])), length);
  if (column.dtype === 'bool') return fc.array(fc.boolean(), length);
  if (column.dtype === 'int64') return fc.array(intArb(column.min ?? 0, column.max ?? 100), length);
  return fc.array(floatArb(column.min ?? 0, column.max ?? 1), length);
}

function ndarrayArb(s: Extract<Schema, { kind: 'ndarray' }>): fc.Arbitrary<Json> {
  const dims = s.shapeMin.map((lo, i) =>
    fc.integer({ min: cap(lo), max: Math.max(cap(lo), cap(s.shapeMax[i] ?? lo)) }),
  );
  const kind = s.dtype.startsWith('int') || s.dtype.startsWith('uint') ? 'int' : s.dtype === 'bool' ? 'bool' : 'float';
  const value: fc.Arbitrary<Json> =
    kind === 'bool'
      ? fc.boolean()
      : kind === 'int'
        ? intArb(s.min ?? 0, s.max ?? 100)
        : floatArb(s.min ?? 0, s.max ?? 1);
  return fc.tuple(...dims).chain((shape) => {
    const size = shape.reduce((a, b) => a * b, 1);
    return fc
      .array(value, { minLength: size, maxLength: size })
      .map((data): Json => ({ $ndarray: { dtype: s.dtype, shape, data } }));
  });
}

/** The arbitrary for one schema, or null when the schema cannot be generated (opaque parts). */
export function arbitraryFor(schema: Schema): fc.Arbitrary<Json> | null {
  switch (schema.kind) {
    case 'none':
      return fc.constant(null);
    case 'bool':
      return fc.boolean();
    case 'int':
      return intArb(schema.min, schema.max);
    case 'float':
      return floatArb(schema.min, schema.max).map((x): Json => ({ $f: x }));
    case 'str': {
      const alphabet = schema.alphabet.length ? [...schema.alphabet] : ['a'];
      return fc.string({
        unit: fc.constantFrom(...alphabet),
        minLength: cap(schema.minLength),
        maxLength: Math.max(cap(schema.minLength), cap(schema.maxLength)),
      });
    }
    case 'list':
    case 'tuple': {
      if (schema.kind === 'tuple' && schema.items) {
        const items = schema.items.map(arbitraryFor);
        if (items.some((a) => a === null)) return null;
        return fc.tuple(...(items as fc.Arbitrary<Json>[])).map((values): Json => ({ $tuple: values }));
      }
      const elem = arbitraryFor(schema.elem);
      if (!elem) return null;
      const array = fc.array(elem, {
        minLength: cap(schema.minLength),
        maxLength: Math.max(cap(schema.minLength), cap(schema.maxLength)),
      });
      return schema.kind === 'tuple' ? array.map((values): Json => ({ $tuple: values })) : array;
    }
    case 'record': {
      const entries = Object.entries(schema.fields).map(([k, s]) => [k, arbitraryFor(s)] as const);
      if (entries.some(([, a]) => a === null)) return null;
      return fc
        .record(Object.fromEntries(entries) as Record<string, fc.Arbitrary<Json>>)
        .map((value): Json => ({ $record: value }));
    }
    case 'ndarray':
      return ndarrayArb(schema);
    case 'dataframe': {
      const rows = fc.integer({ min: cap(schema.minRows), max: Math.max(cap(schema.minRows), cap(schema.maxRows)) });
      return rows.chain((n) =>
        fc.tuple(...schema.columns.map((c) => columnArb(c, n))).map((data): Json => ({
          $dataframe: {
            columns: schema.columns.map((c, i) => ({ name: c.name ?? `c${i}`, dtype: c.dtype, data: data[i] ?? [] })),
          },
        })),
      );
    }
    case 'series': {
      const length = fc.integer({
        min: cap(schema.minLength),
        max: Math.max(cap(schema.minLength), cap(schema.maxLength)),
      });
      return length.chain((n) =>
        columnArb(schema.column, n).map((data): Json => ({
          $series: { name: schema.name, dtype: schema.column.dtype, data },
        })),
      );
    }
    case 'union': {
      const options = schema.options.map(arbitraryFor);
      if (options.some((a) => a === null)) return null;
      return fc.oneof(...(options as fc.Arbitrary<Json>[]));
    }
    default:
      return null;
  }
}

/** The arbitrary for a whole call's arguments (one value for one-parameter functions, else a tuple), or null. */
export function argumentsArbitrary(schema: ArgumentsSchema | null | undefined): fc.Arbitrary<Json> | null {
  if (!schema || schema.kind !== 'arguments' || !schema.usable) return null;
  const args = schema.arguments.map(arbitraryFor);
  if (args.some((a) => a === null)) return null;
  if (schema.single) return args[0] as fc.Arbitrary<Json>;
  return fc.tuple(...(args as fc.Arbitrary<Json>[])).map((values): Json => ({ $tuple: values }));
}

/** `count` values of the task's domain, deterministic for the seed. */
export function sampleInputs(schema: ArgumentsSchema | null | undefined, seed: number, count: number): Json[] {
  const arbitrary = argumentsArbitrary(schema);
  if (!arbitrary || count <= 0) return [];
  return fc.sample(arbitrary, { seed, numRuns: count });
}
