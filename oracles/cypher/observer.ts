/**
 * Execution without judgement, for HERO-T: `observe` runs a candidate on the loaded graph (behind
 * the same read-only guard and timeout) and shows its first rows or its error, never comparing
 * with the gold; `describe` shows the graph's schema and sample values.
 */
import type { Observation, Observer } from '../../core/oracle.ts';
import { describeGraph } from './describe.ts';
import type { CypherPrepared } from './prepared.ts';
import type { CypherRunner } from './runner.ts';
import { formatCell, type ResultTable } from './values.ts';

const OBSERVED_ROWS = 20;
/** Longest line, and longest observation, shown (a result can have a thousand columns). */
const OBSERVED_LINE = 300;
const OBSERVED_TEXT = 7_900;

const cut = (line: string, max: number) => (line.length > max ? `${line.slice(0, max - 1)}…` : line);

/** The first rows of a table as text: a header line, one line per row (each cut to 300 characters, 8,000 in all), and the total. */
export function formatTable(table: ResultTable, maxRows = OBSERVED_ROWS): string {
  const lines = [cut(table.columns.join(' | '), OBSERVED_LINE)];
  let length = lines[0]!.length;
  for (const row of table.rows.slice(0, maxRows)) {
    const line = cut(row.map((c) => formatCell(c, 60)).join(' | '), OBSERVED_LINE);
    if (length + line.length > OBSERVED_TEXT) {
      lines.push('…');
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  const more = table.rows.length - maxRows;
  lines.push(
    more > 0
      ? `… ${more} more rows (${table.rows.length} in all)`
      : `(${table.rows.length} row${table.rows.length === 1 ? '' : 's'})`,
  );
  return lines.join('\n');
}

export function cypherObserver(runner: CypherRunner): Observer<CypherPrepared> {
  const descriptions = new Map<string, Promise<string>>();
  return {
    async observe(_prepared, candidate): Promise<Observation> {
      const guard = await runner.guard(candidate.source);
      if (!guard.ok)
        return { ok: false, error: guard.error, output: `not run (${guard.error.kind}): ${guard.error.message}` };
      const run = await runner.run(candidate.source, 'candidate');
      if (!run.ok) return { ok: false, error: run.error, output: `${run.error.kind} error: ${run.error.message}` };
      return {
        ok: true,
        output: formatTable(run.table),
        shape: { rows: run.table.rows.length, columns: run.table.columns.length },
      };
    },
    describe(prepared) {
      let d = descriptions.get(prepared.graph);
      if (!d) {
        d = describeGraph(runner.driver, { name: prepared.graph, database: runner.options.database });
        descriptions.set(prepared.graph, d);
      }
      return d;
    },
  };
}
