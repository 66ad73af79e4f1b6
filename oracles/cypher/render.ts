/**
 * How Cypher verdicts read in feedback: missing and unexpected rows (in the candidate's own column
 * names when its columns could be aligned), rows out of place, row and column counts, and the
 * engine's error. Witnesses from hardening say on which variant of the graph they were found.
 */
import type { FeedbackRenderer } from '../../core/oracle.ts';
import type { Json, JsonObject, Verdict, VerdictError, Witness } from '../../core/types.ts';

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function formatValue(value: Json): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  if (isObject(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${formatValue(v)}`)
      .join(', ')}}`;
  return String(value);
}

/** A row as `{name: "X", n: 3}` (candidate column names) or `["X", 3]`. */
export function formatRow(row: Json[], columns: Json | undefined): string {
  if (Array.isArray(columns) && columns.length === row.length) {
    return `{${row.map((v, i) => `${String(columns[i])}: ${formatValue(v)}`).join(', ')}}`;
  }
  return `[${row.map(formatValue).join(', ')}]`;
}

function variantText(input: JsonObject): string {
  const variant = input.variant;
  if (!isObject(variant) || !Array.isArray(variant.ops)) return '';
  const parts = variant.ops.map((op) => (isObject(op) ? String(op.text) : '')).filter(Boolean);
  return parts.length ? ` (on a variant of the graph where ${parts.join('; ')})` : '';
}

/** The witness line: what is missing, unexpected or misplaced. */
export function formatWitness(w: Witness): string {
  const input = isObject(w.input) ? w.input : {};
  const row = Array.isArray(input.row) ? input.row : [];
  const where = variantText(input);
  switch (w.kind) {
    case 'missing-row':
      return `the row ${formatRow(row, input.columns)} is missing from your result${where}`;
    case 'extra-row':
      return `your result has the row ${formatRow(row, input.columns)}, which should not be there${where}`;
    case 'misordered-row': {
      const actual = Array.isArray(input.actualRow) ? input.actualRow : [];
      return `row ${Number(input.position) + 1} should be ${formatRow(row, input.columns)} but is ${formatRow(actual, input.columns)} (the order of the rows matters here)${where}`;
    }
    case 'failing-variant':
      return `your query fails where the expected query does not: ${String(input.message)}${where}`;
    default:
      return `${w.label}: ${JSON.stringify(w.input)}`;
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * "The result is wrong" with row (and column) counts, without any row: the error-only feedback.
 * Reads the verdict's detail: rows and columns {expected, actual}, orderWrong, originalPass,
 * variantsFailed.
 */
export function formatSummary(verdict: Verdict): string {
  const detail = verdict.detail ?? {};
  const parts: string[] = [];
  if (detail.originalPass !== true) {
    const rows = isObject(detail.rows) ? detail.rows : null;
    const columns = isObject(detail.columns) ? detail.columns : null;
    if (rows) {
      const actual = Number(rows.actual);
      const expected = Number(rows.expected);
      if (actual !== expected)
        parts.push(`it has ${plural(actual, 'row')}, the expected result has ${plural(expected, 'row')}`);
      else if (detail.orderWrong === true) parts.push('it has the right rows in the wrong order');
      else parts.push(`it has the right number of rows (${actual}) but not the right rows`);
    }
    if (columns && Number(columns.actual) !== Number(columns.expected)) {
      parts.push(
        `it has ${plural(Number(columns.actual), 'column')}, the expected result has ${plural(Number(columns.expected), 'column')}`,
      );
    }
  }
  const variants = Number(detail.variantsFailed ?? 0);
  if (variants > 0) parts.push(`on ${plural(variants, 'variant')} of the graph it differs from the expected result`);
  return `Your query's result is wrong${parts.length ? `: ${parts.join('; ')}` : ''}.`;
}

/** The Cypher renderer; `timeoutMs` is quoted in timeout messages. */
export function cypherRenderer(options: { timeoutMs: number }): FeedbackRenderer {
  return {
    witness: formatWitness,
    failureSummary: formatSummary,
    error: (e: VerdictError) => {
      switch (e.kind) {
        case 'syntax':
          return `Your query is not valid Cypher for Neo4j 5: ${e.message}`;
        case 'timeout':
          return `Your query did not finish within ${Math.round(options.timeoutMs / 1000)} s: ${e.message}`;
        case 'unsafe':
          return `Your query was not run: ${e.message}`;
        case 'too-large':
          return `Your query's result is too large: ${e.message}. Return only what the question asks for.`;
        case 'too-complex':
          return `Your query is too long or too deeply nested to run: ${e.message}. Write a shorter query.`;
        case 'no-artifact':
          return 'I could not find a Cypher query in your reply.';
        default:
          return `Your query failed: ${e.message}`;
      }
    },
    retry: 'Reply with the corrected Cypher query alone in a ```cypher code block.',
  };
}
