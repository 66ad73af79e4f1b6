/**
 * SQL witnesses: rows the candidate's result lacks (`missing-row`) or should not hold
 * (`extra-row`), a misplaced row in `ordered` mode (`misordered-row`), and a `column-mismatch`
 * (column count, or a column of text where numbers are expected). Witnesses found on a perturbed
 * copy of the database carry the change that made the copy. `agreesWith` decides whether another
 * candidate's result matches what a witness says of the gold (the sim's CEGIS step).
 */
import type { Json, Witness } from '../../core/types.ts';
import { columnKinds, type CompareMode, type ResultDiff } from './compare.ts';
import { decodeRow, encodeRow, formatRow, rowKey, type ResultSet, type SqlRow } from './values.ts';

const SQL_WITNESS_KINDS = ['missing-row', 'extra-row', 'misordered-row', 'column-mismatch'] as const;
export type SqlWitnessKind = (typeof SQL_WITNESS_KINDS)[number];

/** Witnesses kept per kind and case (strategies disclose at most two of each). */
const PER_KIND = 6;

function where(change: string[] | undefined): { change?: Json[] } {
  return change && change.length > 0 ? { change } : {};
}

const changeSize = (change: string[] | undefined) => (change ?? []).reduce((n, c) => n + c.length, 0);

/** Witnesses of a difference, shortest first within each kind. */
export function witnessesFromDiff(diff: ResultDiff, caseId: string, change?: string[]): Witness[] {
  const extraSize = changeSize(change);
  const rows = (kind: 'missing-row' | 'extra-row', deltas: ResultDiff['missing']): Witness[] =>
    deltas
      .map((d) => ({ d, text: formatRow(d.row) }))
      .sort((a, b) => a.text.length - b.text.length || a.text.localeCompare(b.text))
      .slice(0, PER_KIND)
      .map(({ d, text }) => ({
        kind,
        label: kind === 'missing-row' ? 'missing row' : 'unexpected row',
        input: { row: encodeRow(d.row), ...where(change) },
        expected: d.expected,
        actual: d.actual,
        size: text.length + extraSize,
        caseId,
      }));
  const out = [...rows('missing-row', diff.missing), ...rows('extra-row', diff.extra)];
  if (diff.misordered) {
    const { index, expected, actual } = diff.misordered;
    out.push({
      kind: 'misordered-row',
      label: 'wrong order',
      input: { position: index + 1, ...where(change) },
      expected: encodeRow(expected),
      actual: encodeRow(actual),
      size: formatRow(expected).length + extraSize,
      caseId,
    });
  }
  if (diff.columns) {
    const c = diff.columns;
    out.push({
      kind: 'column-mismatch',
      label: c.column ? 'wrong column type' : 'wrong column count',
      input: {
        expectedColumns: c.expectedColumns,
        actualColumns: c.actualColumns,
        ...(c.column
          ? { column: c.column, expectedKinds: c.expectedKinds ?? [], actualKinds: c.actualKinds ?? [] }
          : {}),
        ...where(change),
      },
      expected: c.expectedColumns,
      actual: c.actualColumns,
      size: extraSize,
      caseId,
    });
  }
  return out;
}

function count(rows: readonly SqlRow[], key: string): number {
  let n = 0;
  for (const row of rows) if (rowKey(row) === key) n++;
  return n;
}

/** Does a candidate's result match what the witness says the gold's result is like? */
export function agreesWith(witness: Witness, result: ResultSet, mode: CompareMode): boolean {
  const input = (witness.input ?? {}) as Record<string, Json>;
  switch (witness.kind as SqlWitnessKind) {
    case 'missing-row': {
      const n = count(result.rows, rowKey(decodeRow(input.row ?? null)));
      return mode === 'set' ? n > 0 : n === witness.expected;
    }
    case 'extra-row': {
      const n = count(result.rows, rowKey(decodeRow(input.row ?? null)));
      return mode === 'set' ? n === 0 : n === witness.expected;
    }
    case 'misordered-row': {
      const row = result.rows[(input.position as number) - 1];
      return row !== undefined && rowKey(row) === rowKey(decodeRow(witness.expected ?? null));
    }
    case 'column-mismatch': {
      if (result.columns.length !== input.expectedColumns) return false;
      if (typeof input.column !== 'number') return true;
      const wanted = new Set((input.expectedKinds ?? []) as Json[]);
      const kinds = columnKinds(result.rows, (input.column as number) - 1);
      return kinds.size === 0 || [...kinds].some((k) => wanted.has(k));
    }
    default:
      return false;
  }
}
