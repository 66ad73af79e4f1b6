/**
 * SQLite values as they come back from the child process, with Python's equality (BIRD's
 * evaluator compares Python tuples): `1 == 1.0`, NULL equals NULL, floats compare exactly,
 * `'1' != 1`, bytes never equal text, integers beyond 2^53 compare exactly.
 */
import type { Json } from '../../core/types.ts';
import { exactDouble, type SqlRow, type SqlValue } from './result-equality.mjs';

export type { SqlRow, SqlValue };
export { sameRow } from './result-equality.mjs';

export interface ResultSet {
  columns: string[];
  rows: SqlRow[];
}

const float = new Float64Array(1);
const floatHalves = new Uint16Array(float.buffer);
const chars = String.fromCharCode;
/** A length as two UTF-16 code units (results are far below 2^32 characters or bytes). */
const lengthChars = (n: number) => chars(n & 0xffff, n >>> 16);

/**
 * A self-delimiting key with Python's equality: equal keys ⇔ equal Python values. Numbers of
 * either storage class share one form, so INTEGER 1 and REAL 1.0 meet (and -0.0 meets 0); a
 * bigint that a double represents exactly uses the double's form (Python compares int and float
 * exactly). Keys are compact rather than readable — a tag, then a number's bits or a length and
 * the text — since a comparison builds one per row: no decimal formatting of floats, no hex.
 */
function cellKey(value: SqlValue): string {
  if (value === null) return '\u0000';
  if (typeof value === 'number') {
    if ((value | 0) === value) return chars(1, value & 0xffff, value >>> 16); // -0 too
    float[0] = value; // a double has one bit pattern here (NaN aside: SQLite returns none)
    return chars(
      2,
      floatHalves[0] as number,
      floatHalves[1] as number,
      floatHalves[2] as number,
      floatHalves[3] as number,
    );
  }
  if (typeof value === 'bigint') {
    const asDouble = exactDouble(value);
    if (asDouble !== null) return cellKey(asDouble);
    const digits = value.toString();
    return chars(3, digits.length) + digits;
  }
  if (typeof value === 'string') return chars(4) + lengthChars(value.length) + value;
  return (
    chars(5) +
    lengthChars(value.byteLength) +
    Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1')
  );
}

/** The key of a row: its values' keys, one after the other (each is self-delimiting). */
export function rowKey(row: readonly SqlValue[]): string {
  let key = '';
  for (const value of row) key += cellKey(value);
  return key;
}

export type ValueKind = 'null' | 'number' | 'text' | 'blob';

export function valueKind(value: SqlValue): ValueKind {
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  return typeof value === 'string' ? 'text' : 'blob';
}

/** JSON-safe, lossless form for witnesses and trajectories. */
export function encodeValue(value: SqlValue): Json {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number')
    return Number.isFinite(value) && !Object.is(value, -0) ? value : { real: String(value) };
  if (typeof value === 'bigint') return { int: value.toString() };
  return { blob: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex') };
}

export function decodeValue(json: Json): SqlValue {
  if (json === null || typeof json === 'string' || typeof json === 'number') return json;
  if (typeof json === 'object' && !Array.isArray(json)) {
    if (typeof json.int === 'string') return BigInt(json.int);
    if (typeof json.real === 'string') return Number(json.real);
    if (typeof json.blob === 'string') return new Uint8Array(Buffer.from(json.blob, 'hex'));
  }
  throw new Error(`not an encoded SQL value: ${JSON.stringify(json)}`);
}

export const encodeRow = (row: readonly SqlValue[]): Json[] => row.map(encodeValue);
export const decodeRow = (row: Json): SqlRow => {
  if (!Array.isArray(row)) throw new Error(`not an encoded row: ${JSON.stringify(row)}`);
  return row.map(decodeValue);
};

export interface FormatLimits {
  /** Characters kept of a long text value (default 40). */
  maxText: number;
  /** Columns shown before "… N more" (default 8). */
  maxColumns: number;
}

const DEFAULT_FORMAT_LIMITS: FormatLimits = { maxText: 40, maxColumns: 8 };

/** A value as an SQL literal, long text cut with "…": NULL, 12, 1.5, 'O''Brien', X'0A1B'. */
export function formatValue(value: SqlValue, maxText = DEFAULT_FORMAT_LIMITS.maxText): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') {
    const cut = value.length > maxText ? `${value.slice(0, maxText)}…` : value;
    return `'${cut.replace(/'/g, "''")}'`;
  }
  const hex = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex').toUpperCase();
  return hex.length > maxText ? `X'${hex.slice(0, maxText)}…' (${value.byteLength} bytes)` : `X'${hex}'`;
}

/** A row as a tuple: `(1, 'Alameda', NULL)`, wide rows cut after `maxColumns` columns. */
export function formatRow(row: readonly SqlValue[], limits: FormatLimits = DEFAULT_FORMAT_LIMITS): string {
  const shown = row.slice(0, limits.maxColumns).map((v) => formatValue(v, limits.maxText));
  if (row.length > limits.maxColumns) shown.push(`… ${row.length - limits.maxColumns} more columns`);
  return `(${shown.join(', ')})`;
}
