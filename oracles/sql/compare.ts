/**
 * Result comparison. `set` is BIRD's official EX: the set of predicted row tuples equals the set of
 * gold row tuples (duplicates and row order ignored, column order matters, column names ignored,
 * values under Python equality, both empty = equal). `multiset` also counts duplicates. `ordered`
 * compares rows as lists (duplicates and order count) when the gold query has a top-level ORDER
 * BY, and as multisets otherwise.
 */
import { isTrivia, tokenize } from './sql-text.mjs';
import { resultsEqual, RowTable, sameRow, type CompareMode } from './result-equality.mjs';
import { rowKey, valueKind, type ResultSet, type SqlRow, type ValueKind } from './values.ts';

export type { CompareMode };
export { resultsEqual };
export const COMPARE_MODES: readonly CompareMode[] = ['set', 'multiset', 'ordered'];

/** A row whose count differs: how often the gold result holds it, and how often the candidate's. */
export interface RowDelta {
  row: SqlRow;
  expected: number;
  actual: number;
}

export interface ColumnMismatch {
  expectedColumns: number;
  actualColumns: number;
  /** First column (1-based) whose values are of different kinds on each side, when the counts agree. */
  column?: number;
  expectedKinds?: ValueKind[];
  actualKinds?: ValueKind[];
}

export interface ResultDiff {
  equal: boolean;
  /** Rows the candidate lacks (or holds too few times), gold order. */
  missing: RowDelta[];
  /** Rows the candidate should not hold (or holds too many times), candidate order. */
  extra: RowDelta[];
  /** `ordered` only: the first position where the same rows come in a different order. */
  misordered?: { index: number; expected: SqlRow; actual: SqlRow };
  columns?: ColumnMismatch;
}

/** The text without its run of semicolons at the end (and whitespace after them), in one backward scan. */
export function withoutFinalSemicolons(text: string): string {
  const trimmed = text.trimEnd();
  let end = trimmed.length;
  while (end > 0 && trimmed[end - 1] === ';') end--;
  return end === trimmed.length ? text : trimmed.slice(0, end);
}

/** The query's tokens without whitespace, comments and trailing semicolons, keywords upper-cased: equal ⇒ the same program. */
export function normalizeSql(sql: string): string {
  return tokenize(withoutFinalSemicolons(sql.trim()))
    .filter((t) => !isTrivia(t))
    .map((t) => (t.type === 'word' ? t.text.toUpperCase() : t.text))
    .join(' ');
}

/** True when the query's outermost level sorts its rows (ORDER BY outside parentheses). */
export function hasTopLevelOrderBy(sql: string): boolean {
  let depth = 0;
  let previous = '';
  for (const token of tokenize(sql)) {
    if (isTrivia(token)) continue;
    if (token.text === '(') depth++;
    else if (token.text === ')') depth--;
    const word = token.type === 'word' ? token.text.toUpperCase() : '';
    if (depth === 0 && previous === 'ORDER' && word === 'BY') return true;
    previous = word;
  }
  return false;
}

function counts(rows: readonly SqlRow[]): Map<string, { row: SqlRow; n: number }> {
  const map = new Map<string, { row: SqlRow; n: number }>();
  for (const row of rows) {
    const key = rowKey(row);
    const entry = map.get(key);
    if (entry) entry.n++;
    else map.set(key, { row, n: 1 });
  }
  return map;
}

/** The kinds of the non-NULL values of one column (0-based). */
export function columnKinds(rows: readonly SqlRow[], column: number): Set<ValueKind> {
  const kinds = new Set<ValueKind>();
  for (const row of rows) {
    const kind = valueKind(row[column] ?? null);
    if (kind !== 'null') kinds.add(kind);
  }
  return kinds;
}

/** Column count, or else the first column whose values are of disjoint kinds (text vs numbers). */
function columnMismatch(actual: ResultSet, expected: ResultSet): ColumnMismatch | undefined {
  const actualColumns = actual.columns.length;
  const expectedColumns = expected.columns.length;
  if (actualColumns !== expectedColumns) return { expectedColumns, actualColumns };
  for (let c = 0; c < expectedColumns; c++) {
    const want = columnKinds(expected.rows, c);
    const got = columnKinds(actual.rows, c);
    if (want.size > 0 && got.size > 0 && ![...got].some((k) => want.has(k))) {
      return {
        expectedColumns,
        actualColumns,
        column: c + 1,
        expectedKinds: [...want].sort(),
        actualKinds: [...got].sort(),
      };
    }
  }
  return undefined;
}

/** The full difference: missing and extra rows under the mode, a misordering, a column mismatch. */
export function diffResults(
  actual: ResultSet,
  expected: ResultSet,
  mode: CompareMode,
  goldOrdered = false,
): ResultDiff {
  const equal = resultsEqual(actual.rows, expected.rows, mode, goldOrdered);
  if (equal) return { equal, missing: [], extra: [] };
  const want = counts(expected.rows);
  const got = counts(actual.rows);
  const missing: RowDelta[] = [];
  const extra: RowDelta[] = [];
  const bySet = mode === 'set';
  for (const [key, { row, n }] of want) {
    const have = got.get(key)?.n ?? 0;
    if (bySet ? have === 0 : have < n) missing.push({ row, expected: n, actual: have });
  }
  for (const [key, { row, n }] of got) {
    const need = want.get(key)?.n ?? 0;
    if (bySet ? need === 0 : n > need) extra.push({ row, expected: need, actual: n });
  }
  const diff: ResultDiff = { equal, missing, extra };
  if (missing.length === 0 && extra.length === 0 && mode === 'ordered') {
    const index = actual.rows.findIndex((row, i) => !sameRow(row, expected.rows[i] as SqlRow));
    if (index >= 0)
      diff.misordered = { index, expected: expected.rows[index] as SqlRow, actual: actual.rows[index] as SqlRow };
  }
  const columns = columnMismatch(actual, expected);
  if (columns) diff.columns = columns;
  return diff;
}
