/** Types of result-equality.mjs (plain JS so the SQLite child process can load it without TypeScript tooling). */

/** INTEGER outside ±2^53 arrives as bigint; BLOB as bytes. */
export type SqlValue = null | number | bigint | string | Uint8Array;
export type SqlRow = SqlValue[];
export type CompareMode = 'set' | 'multiset' | 'ordered';

/** Rows out of values held flat, in chunks of whole rows of `width` values (as the SQLite process sends them). */
export function flatRows(width: number, chunks: readonly (readonly SqlValue[])[], rowCount: number): SqlRow[];
/** The double equal to a bigint, when one is (Python compares int and float exactly), else null. */
export function exactDouble(value: bigint): number | null;
/** Python's `==` on two values, as their keys decide it (`rowKey(a) === rowKey(b)`), without building them. */
export function sameValue(a: SqlValue, b: SqlValue): boolean;
/** Python's `==` on two rows (tuples): as many values, each equal. */
export function sameRow(a: readonly SqlValue[], b: readonly SqlValue[]): boolean;
/** The row's hash (MurmurHash3's finalizer over its values' mix); equal rows under Python's equality hash alike. */
export function hashRow(row: readonly SqlValue[]): number;

/** The distinct rows of a result and how often each occurs, under Python's equality. */
export class RowTable {
  /** `hash` is a parameter for tests (a constant one makes every row collide). */
  constructor(rows: readonly SqlRow[], hash?: (row: readonly SqlValue[]) => number);
  /** One row of each distinct kind, in the order they first occur. */
  readonly rows: SqlRow[];
  /** How often each distinct row occurs, by its position in `rows`. */
  readonly counts: Int32Array;
  /** The position in `rows` of the row equal to `row`, or -1. */
  find(row: readonly SqlValue[]): number;
}

/** Does the candidate's result count as correct? (`goldOrdered` only matters in `ordered` mode.) */
export function resultsEqual(
  actual: readonly SqlRow[],
  expected: readonly SqlRow[],
  mode: CompareMode,
  goldOrdered?: boolean,
): boolean;
