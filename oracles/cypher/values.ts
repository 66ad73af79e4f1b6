/**
 * Neo4j values as Witness sees them. Results are converted the way CypherBench's Python evaluator
 * sees `result.data()`: integers as JS numbers where safe (bigint beyond 2^53), dates as ISO
 * strings, nodes as their property maps; relationships, paths and the other temporal and spatial
 * types are kept as opaque values, which can be shown but not compared (CypherBench raises
 * TypeError on them and scores the prediction 0).
 */
import neo4j from 'neo4j-driver';
import type { Json } from '../../core/types.ts';

/** A value CypherBench's comparison cannot hash (relationship, path, DateTime, Point, …). */
export class OpaqueValue {
  constructor(
    readonly type: string,
    readonly text: string,
  ) {}
}

export type Cell = null | boolean | number | bigint | string | OpaqueValue | Cell[] | CellMap;
export interface CellMap {
  [key: string]: Cell;
}

/** A query result: column names and rows of converted values. */
export interface ResultTable {
  columns: string[];
  rows: Cell[][];
  /** Its size against the byte cap (8 per value plus string bytes), when it came from Neo4j. */
  bytes?: number;
}

/** Raised when a result holds a value the comparison cannot use. */
export class UncomparableValueError extends Error {
  constructor(readonly valueType: string) {
    super(
      `the result contains a ${valueType} value, which CypherBench's comparison cannot use; return names or properties (strings, numbers, dates, lists) instead`,
    );
    this.name = 'UncomparableValueError';
  }
}

function integerCell(value: { toString(): string; inSafeRange(): boolean; toNumber(): number }): number | bigint {
  return value.inSafeRange() ? value.toNumber() : BigInt(value.toString());
}

/** One driver value as a Cell. */
export function fromNeo4j(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (neo4j.isInt(value)) return integerCell(value);
  if (Array.isArray(value)) return value.map(fromNeo4j);
  if (neo4j.isDate(value)) return value.toString();
  if (neo4j.isNode(value)) return fromMap(value.properties as Record<string, unknown>);
  if (neo4j.isRelationship(value))
    return new OpaqueValue(
      'relationship',
      `[:${value.type} ${JSON.stringify(toJson(fromMap(value.properties as Record<string, unknown>)))}]`,
    );
  if (neo4j.isPath(value)) return new OpaqueValue('path', `path of ${value.length} relationships`);
  if (neo4j.isDateTime(value)) return new OpaqueValue('DateTime', value.toString());
  if (neo4j.isLocalDateTime(value)) return new OpaqueValue('LocalDateTime', value.toString());
  if (neo4j.isTime(value)) return new OpaqueValue('Time', value.toString());
  if (neo4j.isLocalTime(value)) return new OpaqueValue('LocalTime', value.toString());
  if (neo4j.isDuration(value)) return new OpaqueValue('Duration', value.toString());
  if (neo4j.isPoint(value)) return new OpaqueValue('Point', value.toString());
  if (value instanceof Uint8Array) return new OpaqueValue('ByteArray', `${value.length} bytes`);
  if (typeof value === 'object') return fromMap(value as Record<string, unknown>);
  return new OpaqueValue(typeof value, String(value));
}

// Object.fromEntries defines own properties: a key named "__proto__" stays a key (assignment would drop it).
function fromMap(map: Record<string, unknown>): CellMap {
  return Object.fromEntries(Object.entries(map).map(([key, v]) => [key, fromNeo4j(v)]));
}

/** What a value costs against the result byte cap: 8 bytes per value (map keys included) plus the UTF-8 bytes of strings. */
export function cellBytes(cell: Cell): number {
  if (typeof cell === 'string') return 8 + Buffer.byteLength(cell, 'utf8');
  if (cell instanceof OpaqueValue) return 8 + Buffer.byteLength(cell.text, 'utf8');
  if (Array.isArray(cell)) return cell.reduce<number>((n, c) => n + cellBytes(c), 8);
  if (cell !== null && typeof cell === 'object')
    return Object.entries(cell).reduce((n, [k, v]) => n + 8 + Buffer.byteLength(k, 'utf8') + cellBytes(v), 8);
  return 8;
}

export interface KeyOptions {
  /** Python's `True == 1` and `False == 0` (the original's quirk); default false: booleans are not numbers. */
  boolEqualsInt?: boolean;
}

function numberKey(value: number): string {
  if (Number.isNaN(value)) return 'n:nan';
  if (!Number.isFinite(value)) return value > 0 ? 'n:inf' : 'n:-inf';
  // Python compares int and float by value (1 == 1.0, 2**60 == 2.0**60): integral floats share the int's key.
  if (Number.isInteger(value)) return `n:${BigInt(value)}`;
  return `n:${value}`;
}

/**
 * A canonical string for a cell, equal exactly when CypherBench's `to_hashable` values compare
 * equal: lists (and lists nested in lists) compared as sorted, maps as sorted key/value pairs,
 * ints and floats by value, null an ordinary value. Throws UncomparableValueError for opaque values.
 */
export function cellKey(cell: Cell, options: KeyOptions = {}): string {
  if (cell === null) return 'z';
  if (typeof cell === 'boolean') return options.boolEqualsInt ? `n:${cell ? 1 : 0}` : `b:${cell ? 1 : 0}`;
  if (typeof cell === 'number') return numberKey(cell);
  if (typeof cell === 'bigint') return `n:${cell}`;
  if (typeof cell === 'string') return `s:${JSON.stringify(cell)}`;
  if (cell instanceof OpaqueValue) throw new UncomparableValueError(cell.type);
  if (Array.isArray(cell))
    return `l:[${cell
      .map((c) => cellKey(c, options))
      .sort()
      .join(',')}]`;
  const entries = Object.entries(cell)
    .map(([k, v]) => `${JSON.stringify(k)}=${cellKey(v, options)}`)
    .sort();
  return `m:{${entries.join(',')}}`;
}

/** A cell as JSON for witnesses and reports: bigints as decimal strings, opaque values as their text. */
export function toJson(cell: Cell): Json {
  if (cell === null || typeof cell === 'boolean' || typeof cell === 'number' || typeof cell === 'string') {
    return typeof cell === 'number' && !Number.isFinite(cell) ? String(cell) : cell;
  }
  if (typeof cell === 'bigint') return cell.toString();
  if (cell instanceof OpaqueValue) return cell.text;
  if (Array.isArray(cell)) return cell.map(toJson);
  return Object.fromEntries(Object.entries(cell).map(([k, v]) => [k, toJson(v)]));
}

/** A row as JSON. */
export function rowJson(row: readonly Cell[]): Json[] {
  return row.map(toJson);
}

/** Longest string and list a witness shows in full. */
const WITNESS_STRING = 200;
const WITNESS_LIST = 20;

/** A cell as JSON for a witness: strings past 200 characters and lists past 20 elements are cut, and say so. */
function witnessJson(cell: Cell): Json {
  if (typeof cell === 'string')
    return cell.length > WITNESS_STRING
      ? `${cell.slice(0, WITNESS_STRING)}… (${cell.length.toLocaleString('en-US')} characters)`
      : cell;
  if (Array.isArray(cell)) {
    const shown = cell.slice(0, WITNESS_LIST).map(witnessJson);
    return cell.length > WITNESS_LIST
      ? [...shown, `… (${(cell.length - WITNESS_LIST).toLocaleString('en-US')} more)`]
      : shown;
  }
  if (cell !== null && typeof cell === 'object' && !(cell instanceof OpaqueValue)) {
    const entries = Object.entries(cell);
    const shown = entries
      .slice(0, WITNESS_LIST)
      .map(([k, v]): [string, Json] => [
        k.length > WITNESS_STRING ? `${k.slice(0, WITNESS_STRING)}…` : k,
        witnessJson(v),
      ]);
    if (entries.length > WITNESS_LIST)
      shown.push(['…', `${(entries.length - WITNESS_LIST).toLocaleString('en-US')} more keys`]);
    return Object.fromEntries(shown);
  }
  const json = toJson(cell);
  return typeof json === 'string' && json.length > WITNESS_STRING ? `${json.slice(0, WITNESS_STRING)}…` : json;
}

/** A row as JSON for a witness (long values cut). */
export function witnessRow(row: readonly Cell[]): Json[] {
  return row.map(witnessJson);
}

/** A short readable rendering of a cell (Cypher-like literals, strings quoted). */
export function formatCell(cell: Cell, maxLength = 80): string {
  const text = formatFull(cell);
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

function formatFull(cell: Cell): string {
  if (cell === null) return 'null';
  if (typeof cell === 'string') return JSON.stringify(cell);
  if (typeof cell === 'bigint' || typeof cell === 'number' || typeof cell === 'boolean') return String(cell);
  if (cell instanceof OpaqueValue) return `<${cell.type} ${cell.text}>`;
  if (Array.isArray(cell)) return `[${cell.map(formatFull).join(', ')}]`;
  return `{${Object.entries(cell)
    .map(([k, v]) => `${k}: ${formatFull(v)}`)
    .join(', ')}}`;
}
