/**
 * Hardening probes for SQL: fast-check arbitraries of small edit lists (1–3 edits) over the tables
 * a query touches — delete or duplicate a row, set a column to NULL, set it to another value of its
 * own type (frequent values of the column, the queries' literals and their neighbours: boundary
 * cases for `<` vs `<=`, dates a day off). Rows are drawn from those matching a literal of the
 * queries (the rows the query is about) or from anywhere; fast-check shrinks a failing edit list
 * to the smallest change that still tells the candidate from the gold.
 */
import fc from 'fast-check';
import type { Json } from '../../core/types.ts';
import type { DatabaseContext } from './database.ts';
import { editableColumns, nullableColumns, type Edit } from './perturb.ts';
import { columnAffinity, quoteIdentifier as q, referencedTables } from './schema.ts';
import { isTrivia, tokenize } from './sql-text.mjs';
import { encodeValue, rowKey, type SqlValue } from './values.ts';

export interface ProbeTable {
  name: string;
  rowids: number[];
  /** Rows holding one of the queries' literals. */
  interesting: number[];
  nullable: string[];
  settable: { column: string; values: Json[] }[];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})/;

function shiftDate(text: string, days: number): string {
  const m = DATE.exec(text);
  if (!m) return text;
  const shifted = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) + days * 86_400_000)
    .toISOString()
    .slice(0, 10);
  return shifted + text.slice(10);
}

/** Literals used per pair of queries, and the longest string literal used: a query listing 100,000 values must not make 100,000 probes. */
const MAX_LITERALS = 64;
const MAX_LITERAL_LENGTH = 256;

/** String and number literals of the queries (the first 64, strings up to 256 characters), plus neighbours (n ± 1, a date ± 1 day). */
export function literalValues(...sqls: string[]): SqlValue[] {
  const values: SqlValue[] = [];
  for (const sql of sqls) {
    let taken = 0;
    for (const t of tokenize(sql)) {
      if (isTrivia(t)) continue;
      if ((t.type === 'number' || t.type === 'string') && ++taken > MAX_LITERALS) break;
      if (t.type === 'string' && t.text.length > MAX_LITERAL_LENGTH + 2) continue;
      if (t.type === 'number' && /^[0-9.eE+-]+$/.test(t.text)) {
        const n = Number(t.text);
        if (Number.isFinite(n)) values.push(n, ...(Number.isInteger(n) ? [n - 1, n + 1] : []));
      } else if (t.type === 'string') {
        const s = t.text.slice(1, -1).replace(/''/g, "'");
        values.push(s);
        if (DATE.test(s)) values.push(shiftDate(s, -1), shiftDate(s, 1));
      }
    }
  }
  const seen = new Set<string>();
  return values.filter((v) => !seen.has(rowKey([v])) && seen.add(rowKey([v])));
}

const fitsColumn = (value: SqlValue, type: string) => {
  const affinity = columnAffinity(type);
  if (typeof value === 'string') return affinity === 'text' || affinity === 'numeric' || affinity === 'blob';
  return affinity !== 'text' || typeof value !== 'number';
};

/** The probe space for a pair of queries: their tables, interesting rows and value pools. */
export function probeTables(context: DatabaseContext, ...sqls: string[]): ProbeTable[] {
  const literals = literalValues(...sqls);
  return context.read((db) =>
    referencedTables(context.schema, ...sqls)
      .filter((t) => (context.rowids.get(t.name)?.length ?? 0) > 0)
      .map((table) => {
        const interesting = new Set<number>();
        const settable = editableColumns(table).map((column) => {
          const frequent = db
            .prepare(
              `SELECT ${q(column.name)} FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL GROUP BY 1 ORDER BY COUNT(*) DESC, 1 LIMIT 4`,
            )
            .pluck()
            .all() as SqlValue[];
          const fitting = literals.filter((v) => fitsColumn(v, column.type));
          for (const value of fitting) {
            const like = typeof value === 'string' && value.includes('%');
            let rows: number[] = [];
            try {
              rows = db
                .prepare(`SELECT rowid FROM ${q(table.name)} WHERE ${q(column.name)} ${like ? 'LIKE' : '='} ? LIMIT 6`)
                .pluck()
                .all(value) as number[];
            } catch {
              // A pattern SQLite refuses ("LIKE or GLOB pattern too complex") points at no row.
            }
            for (const r of rows) interesting.add(r);
          }
          const values = [...fitting.filter((v) => !(typeof v === 'string' && v.includes('%'))), ...frequent].map(
            encodeValue,
          );
          return { column: column.name, values: [...new Map(values.map((v) => [JSON.stringify(v), v])).values()] };
        });
        return {
          name: table.name,
          rowids: context.rowids.get(table.name) ?? [],
          interesting: [...interesting].sort((a, b) => a - b),
          nullable: nullableColumns(table).map((c) => c.name),
          settable: settable.filter((s) => s.values.length > 0),
        };
      }),
  );
}

function rowArbitrary(table: ProbeTable): fc.Arbitrary<number> {
  const any = fc.integer({ min: 0, max: table.rowids.length - 1 }).map((i) => table.rowids[i] as number);
  if (table.interesting.length === 0) return any;
  const chosen = fc.integer({ min: 0, max: table.interesting.length - 1 }).map((i) => table.interesting[i] as number);
  return fc.oneof({ arbitrary: chosen, weight: 3 }, { arbitrary: any, weight: 1 });
}

function editArbitrary(table: ProbeTable): fc.Arbitrary<Edit> {
  const row = rowArbitrary(table);
  const t = table.name;
  const options: fc.Arbitrary<Edit>[] = [
    row.map((rowid): Edit => ({ op: 'delete', table: t, rowid })),
    row.map((rowid): Edit => ({ op: 'duplicate', table: t, rowid })),
  ];
  if (table.nullable.length > 0) {
    options.push(
      fc
        .tuple(row, fc.constantFrom(...table.nullable))
        .map(([rowid, column]): Edit => ({ op: 'null', table: t, rowid, column })),
    );
  }
  for (const { column, values } of table.settable) {
    options.push(
      fc
        .tuple(row, fc.constantFrom(...values))
        .map(([rowid, value]): Edit => ({ op: 'set', table: t, rowid, column, value })),
    );
  }
  return fc.oneof(...options);
}

/** Lists of 1–3 edits over the given tables (null when there is nothing to edit). */
export function editsArbitrary(tables: readonly ProbeTable[]): fc.Arbitrary<Edit[]> | null {
  if (tables.length === 0) return null;
  return fc.array(fc.oneof(...tables.map(editArbitrary)), { minLength: 1, maxLength: 3 });
}
