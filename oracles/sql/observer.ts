/**
 * Execution without judgement, for HERO-T: `observe` runs a candidate on the task's original
 * database and shows its first rows or its error, never comparing with the gold; `describe` shows
 * the SQLite version, the schema and three sample rows per table.
 */
import type { Observer } from '../../core/oracle.ts';
import type { SqlCase, SqlPrepared, SqlRuntime } from './prepared.ts';
import { quoteIdentifier } from './schema.ts';
import { sqliteVersionOnce } from './sqlite-version.ts';
import { formatRow } from './values.ts';

/** The SQL Observer over the oracle's cached execution. */
export function sqlObserver(runtime: Pick<SqlRuntime, 'execute'>): Observer<SqlPrepared> {
  const { execute } = runtime;
  return {
    async observe(prepared, candidate) {
      const original = prepared.cases[0] as SqlCase;
      const r = await execute(original.db, original.key, candidate.source);
      if (!r.ok) return { ok: false, error: { kind: r.kind, message: r.message }, output: '' };
      const shown = r.rows.slice(0, 10).map((row) => formatRow(row));
      const more = r.rows.length > shown.length ? [`… ${r.rows.length - shown.length} more rows`] : [];
      return {
        ok: true,
        output: [
          `columns: ${r.columns.join(', ')}`,
          ...shown,
          ...more,
          `(${r.rows.length} row${r.rows.length === 1 ? '' : 's'})`,
        ].join('\n'),
        shape: { rows: r.rows.length, columns: r.columns.length },
      };
    },
    async describe(prepared) {
      const { database: db } = prepared;
      const original = prepared.cases[0] as SqlCase;
      const samples = await Promise.all(
        db.schema.tables.map(async (t) => {
          const r = await execute(original.db, original.key, `SELECT * FROM ${quoteIdentifier(t.name)} LIMIT 3`);
          return r.ok
            ? [`-- ${t.name}: ${r.columns.join(', ')}`, ...r.rows.map((row) => `--   ${formatRow(row)}`)].join('\n')
            : `-- ${t.name}: ${r.message}`;
        }),
      );
      return [`SQLite ${sqliteVersionOnce()}. Schema:`, ...db.schema.createStatements, 'Sample rows:', ...samples].join(
        '\n\n',
      );
    },
  };
}
