/** How SQL verdicts read in feedback: rows as SQL tuples (long text and wide rows cut), counts, the database's error text. */
import type { FeedbackRenderer } from '../../core/oracle.ts';
import type { Json, Verdict, VerdictError, Witness } from '../../core/types.ts';
import { decodeRow, formatRow } from './values.ts';

const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
const times = (n: number) => `${n} time${n === 1 ? '' : 's'}`;
const columns = (n: number) => `${n} column${n === 1 ? '' : 's'}`;
const kinds = (list: Json) =>
  Array.isArray(list)
    ? list.map((k) => (k === 'number' ? 'numbers' : k === 'text' ? 'text' : `${String(k)}s`)).join(' and ')
    : '';

function onCopy(input: Record<string, Json>): string {
  const change = Array.isArray(input.change) ? (input.change as string[]) : [];
  return change.length ? ` — on a modified copy of the database, where I ${change.join('; ')}` : '';
}

function describeWitness(w: Witness): string {
  const input = (w.input ?? {}) as Record<string, Json>;
  const expected = typeof w.expected === 'number' ? w.expected : 0;
  const actual = typeof w.actual === 'number' ? w.actual : 0;
  switch (w.kind) {
    case 'missing-row': {
      const row = formatRow(decodeRow(input.row ?? null));
      return actual === 0
        ? `missing row ${row}: the expected result has it, yours does not`
        : `row ${row} appears ${times(actual)} in your result but ${times(expected)} in the expected result`;
    }
    case 'extra-row': {
      const row = formatRow(decodeRow(input.row ?? null));
      return expected === 0
        ? `unexpected row ${row}: your result has it, the expected result does not`
        : `row ${row} appears ${times(actual)} in your result but ${times(expected)} in the expected result`;
    }
    case 'misordered-row':
      return `row ${String(input.position)} of your result is ${formatRow(decodeRow(w.actual ?? null))} but should be ${formatRow(decodeRow(w.expected ?? null))} (right rows, wrong order)`;
    case 'column-mismatch':
      return typeof input.column === 'number'
        ? `column ${input.column} of your result holds ${kinds(input.actualKinds ?? null)} where the expected result holds ${kinds(input.expectedKinds ?? null)}`
        : `your result has ${columns(Number(input.actualColumns))} per row; the expected result has ${columns(Number(input.expectedColumns))}`;
    default:
      return `${w.label}: ${JSON.stringify(w.input)}`;
  }
}

export function sqlRenderer(): FeedbackRenderer {
  return {
    witness: (w) => describeWitness(w) + onCopy((w.input ?? {}) as Record<string, Json>),
    failureSummary: (verdict: Verdict) => {
      const detail = verdict.detail ?? {};
      const got = detail.result as { rows?: number } | undefined;
      const want = detail.expected as { rows?: number } | undefined;
      const counts =
        got && want && typeof got.rows === 'number' && typeof want.rows === 'number'
          ? `: it returned ${rows(got.rows)}; the expected result has ${rows(want.rows)}`
          : '';
      return detail.failedOn && detail.failedOn !== 'original'
        ? `Your query returns the right result on the database, but a wrong one on a modified copy of it${counts}.`
        : `Your query ran, but the result is wrong${counts}.`;
    },
    error: (e: VerdictError) => {
      switch (e.kind) {
        case 'syntax':
          return `Your query failed: ${e.message}`;
        case 'runtime':
          return `Your query failed while running: ${e.message}`;
        case 'timeout':
          return `Your query was stopped: ${e.message}.`;
        case 'unsafe':
          return `Your query was not run: ${e.message}.`;
        case 'too-large':
          return `Your query was stopped: ${e.message}. Return only the rows and columns the question asks for.`;
        case 'too-complex':
          return `Your query could not be run: ${e.message}. Write a shorter, simpler query.`;
        case 'no-artifact':
          return 'I could not find an SQL query in your reply.';
        default:
          return `Your query could not be checked: ${e.message}`;
      }
    },
    retry: 'Reply with the corrected SQLite query in a ```sql code block.',
  };
}
