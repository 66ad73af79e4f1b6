/**
 * What the oracle knows of a database's structure (read with trusted statements on a read-only
 * connection): tables, columns, primary and foreign keys, and the CREATE statements prompts show.
 */
import type Database from 'better-sqlite3';
import { isTrivia, tokenize } from './sql-text.mjs';

export interface ColumnInfo {
  name: string;
  /** Declared type, as written (may be empty). */
  type: string;
  notNull: boolean;
  /** Position in the primary key (1-based), 0 when not part of it. */
  pk: number;
}

export interface ForeignKeyInfo {
  /** Referencing columns of this table. */
  from: string[];
  parent: string;
  /** Referenced columns of the parent (its primary key when the schema leaves them out). */
  to: string[];
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  foreignKeys: ForeignKeyInfo[];
  withoutRowid: boolean;
}

export interface SchemaInfo {
  tables: TableInfo[];
  /** The CREATE TABLE statements, one per table, as stored by SQLite. */
  createStatements: string[];
}

export const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Reads the schema of an open database. */
export function readSchema(db: Database.Database): SchemaInfo {
  const rows = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
    .all() as { name: string; sql: string | null }[];
  const tables: TableInfo[] = rows.map(({ name, sql }) => {
    const columns = (
      db.prepare(`PRAGMA table_info(${quoteIdentifier(name)})`).all() as {
        name: string;
        type: string;
        notnull: number;
        pk: number;
      }[]
    ).map((c): ColumnInfo => ({ name: c.name, type: c.type, notNull: c.notnull === 1, pk: c.pk }));
    const keys = db.prepare(`PRAGMA foreign_key_list(${quoteIdentifier(name)})`).all() as {
      id: number;
      table: string;
      from: string;
      to: string | null;
    }[];
    const byId = new Map<number, { parent: string; from: string[]; to: (string | null)[] }>();
    for (const k of keys) {
      const entry = byId.get(k.id) ?? { parent: k.table, from: [], to: [] };
      entry.from.push(k.from);
      entry.to.push(k.to);
      byId.set(k.id, entry);
    }
    const foreignKeys = [...byId.values()].map((k) => ({ parent: k.parent, from: k.from, to: k.to as string[] }));
    return { name, columns, foreignKeys, withoutRowid: /\bWITHOUT\s+ROWID\b/i.test(sql ?? '') };
  });
  for (const table of tables) {
    for (const key of table.foreignKeys) {
      if (key.to.some((c) => c === null)) {
        const parent = tables.find((t) => t.name.toLowerCase() === key.parent.toLowerCase());
        key.to = parent
          ? parent.columns
              .filter((c) => c.pk > 0)
              .sort((a, b) => a.pk - b.pk)
              .map((c) => c.name)
          : key.from;
      }
    }
  }
  return { tables, createStatements: rows.map((r) => r.sql ?? '').filter((s) => s !== '') };
}

export function findTable(schema: SchemaInfo, name: string): TableInfo | undefined {
  const lower = name.toLowerCase();
  return schema.tables.find((t) => t.name.toLowerCase() === lower);
}

/** An identifier token without its quotes (`"a b"`, `[a b]`, `` `a b` ``). */
export function unquoteIdentifier(text: string): string {
  const first = text[0];
  if (first === '"' || first === '`') return text.slice(1, -1).replaceAll(first + first, first);
  if (first === '[') return text.slice(1, -1);
  return text;
}

/** Tables of the schema that a query names anywhere (FROM, JOIN, subqueries), schema order. */
export function referencedTables(schema: SchemaInfo, ...sqls: string[]): TableInfo[] {
  const names = new Set<string>();
  for (const sql of sqls) {
    for (const t of tokenize(sql)) {
      if (!isTrivia(t) && (t.type === 'word' || t.type === 'quoted'))
        names.add(unquoteIdentifier(t.text).toLowerCase());
    }
  }
  return schema.tables.filter((t) => names.has(t.name.toLowerCase()));
}

/** SQLite's affinity rules, reduced to what perturbations need. */
export function columnAffinity(type: string): 'integer' | 'real' | 'text' | 'numeric' | 'blob' {
  const t = type.toUpperCase();
  if (t.includes('INT')) return 'integer';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'text';
  if (t === '' || t.includes('BLOB')) return 'blob';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'real';
  return 'numeric';
}
