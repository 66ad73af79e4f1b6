/**
 * From results to a Verdict (pure). The stable case list of a question: one case per gold row (in
 * chunks when there are many), `no-extra-rows`, `row-order` when the gold has ORDER BY, and one
 * case per graph variant added by hardening. Witnesses: missing and unexpected rows, the first
 * row out of place; details: row and column counts for error-only feedback.
 */
import type { CaseResult, JsonObject, Verdict, VerdictError, Witness } from '../../core/types.ts';
import { compareResults, type ComparisonOptions, type ComparisonOutcome } from './compare.ts';
import { diffResults, type RowDiff } from './diff.ts';
import { variantJson, type GraphVariant } from './perturb.ts';
import { UncomparableValueError, witnessRow, type Cell, type ResultTable } from './values.ts';

/** Gold rows covered by one case. */
export interface RowCase {
  id: string;
  rows: number[];
}

const MAX_ROW_CASES = 40;

/** One case per gold row, or MAX_ROW_CASES chunks of consecutive rows. */
export function rowCases(goldRows: number): RowCase[] {
  if (goldRows <= MAX_ROW_CASES) return Array.from({ length: goldRows }, (_, i) => ({ id: `row-${i + 1}`, rows: [i] }));
  const size = Math.ceil(goldRows / MAX_ROW_CASES);
  const cases: RowCase[] = [];
  for (let start = 0; start < goldRows; start += size) {
    const end = Math.min(goldRows, start + size);
    cases.push({ id: `rows-${start + 1}-${end}`, rows: Array.from({ length: end - start }, (_, k) => start + k) });
  }
  return cases;
}

export interface Judgement {
  outcome: ComparisonOutcome | null;
  diff: RowDiff | null;
  /** Set when the candidate's result cannot be compared (relationships, paths, DateTime, …). */
  error?: VerdictError;
}

/** Compares a candidate's result with the gold's and, when they differ, says where. */
export function judge(gold: ResultTable, candidate: ResultTable, options: ComparisonOptions): Judgement {
  try {
    const outcome = compareResults(gold, candidate, options);
    return { outcome, diff: outcome.equal ? null : diffResults(gold, candidate, options) };
  } catch (error) {
    if (error instanceof UncomparableValueError)
      return { outcome: null, diff: null, error: { kind: 'runtime', message: error.message } };
    throw error;
  }
}

function size(row: Cell[]): number {
  return JSON.stringify(witnessRow(row)).length;
}

/** Row witnesses of a judgement, shortest first within each kind; `variant` says where they were found. */
export function rowWitnesses(judgement: Judgement, variant: GraphVariant | null, caseId?: string): Witness[] {
  const diff = judgement.diff;
  if (!diff) return [];
  const where: JsonObject = variant ? { variant: variantJson(variant) } : {};
  const columns = diff.alignedColumns && diff.aligned ? diff.alignedColumns : null;
  const extraColumns = diff.aligned ? columns : null;
  const missing = diff.missing.map((row): Witness => ({
    kind: 'missing-row',
    label: 'missing from the result',
    input: { row: witnessRow(row), columns, ...where },
    expected: true,
    actual: false,
    size: size(row),
    ...(caseId ? { caseId } : {}),
  }));
  const extra = diff.extra.map((row): Witness => ({
    kind: 'extra-row',
    label: 'not expected in the result',
    input: { row: witnessRow(row), columns: extraColumns, ...where },
    expected: false,
    actual: true,
    size: size(row),
    ...(caseId ? { caseId } : {}),
  }));
  const byLength = (a: Witness, b: Witness) => a.size - b.size;
  const out = [...missing.sort(byLength), ...extra.sort(byLength)];
  if (diff.misordered) {
    const { position, expected, actual } = diff.misordered;
    out.push({
      kind: 'misordered-row',
      label: 'in the wrong position',
      input: { position, row: witnessRow(expected), actualRow: witnessRow(actual), columns, ...where },
      size: size(expected),
      ...(caseId ? { caseId } : {}),
    });
  }
  return out;
}

/** Case results on the loaded graph for a judgement (all failing on an error or a column mismatch). */
export function graphCases(rowCaseList: RowCase[], orderMatters: boolean, judgement: Judgement | null): CaseResult[] {
  const equal = judgement?.outcome?.equal === true;
  const diff = judgement?.diff ?? null;
  const present = (rows: number[]) =>
    equal || (diff !== null && diff.aligned && rows.every((r) => diff.goldPresent[r] === true));
  const cases: CaseResult[] = rowCaseList.map((c) => ({ id: c.id, pass: present(c.rows) }));
  cases.push({ id: 'no-extra-rows', pass: equal || (diff !== null && diff.aligned && diff.extra.length === 0) });
  if (orderMatters) cases.push({ id: 'row-order', pass: equal });
  return cases;
}

/** The verdict when the candidate could not be run or compared. */
export function errorVerdict(
  caseIds: string[],
  error: VerdictError,
  timings: Verdict['timings'],
  detail?: JsonObject,
): Verdict {
  return {
    pass: false,
    cases: caseIds.map((id) => ({ id, pass: false })),
    witnesses: [],
    error,
    timings,
    ...(detail ? { detail } : {}),
  };
}

/** Row and column counts for the detail (error-only feedback reads them). */
export function countsDetail(gold: ResultTable, candidate: ResultTable, judgement: Judgement): JsonObject {
  return {
    rows: { expected: gold.rows.length, actual: candidate.rows.length },
    columns: { expected: gold.columns.length, actual: candidate.columns.length },
    orderWrong: judgement.diff?.misordered !== undefined,
    originalPass: judgement.outcome?.equal === true,
    comparison: judgement.outcome?.reason ?? 'uncomparable',
  };
}
