/**
 * Perturbed copies of a database, made in memory from its image: delete, duplicate and change rows
 * within column types, inject NULLs — keeping keys consistent. Foreign keys stay enforced: a
 * deleted row's dependants are deleted too (or their nullable reference set to NULL), a duplicate
 * gets a fresh key, and an edit that would break a constraint is skipped. Every applied edit is
 * described in words ("deleted the orders row with order_id = 17 and 3 rows referring to it").
 */
import Database from 'better-sqlite3';
import type { Json } from '../../core/types.ts';
import type { Rng } from '../../core/random.ts';
import { columnAffinity, findTable, quoteIdentifier as q, type SchemaInfo, type TableInfo } from './schema.ts';
import { decodeValue, formatValue, type SqlValue } from './values.ts';

export type Edit =
  | { op: 'delete' | 'duplicate'; table: string; rowid: number }
  | { op: 'null'; table: string; rowid: number; column: string }
  | { op: 'set'; table: string; rowid: number; column: string; value: Json }
  | { op: 'copy'; table: string; rowid: number; column: string; from: number };

export interface Perturbed {
  /** The perturbed database image (open it with `new Database(bytes, { readonly: true })`). */
  bytes: Buffer;
  /** One line per edit that changed something. */
  changes: string[];
}

const MAX_CASCADE_DEPTH = 6;

type Bindable = number | bigint | string | Buffer | null;
const bindable = (v: SqlValue): Bindable => (v instanceof Uint8Array ? Buffer.from(v) : v);

/** Columns an edit may change: not part of the primary key. */
export const editableColumns = (table: TableInfo) => table.columns.filter((c) => c.pk === 0);
/** Columns that may be set to NULL. */
export const nullableColumns = (table: TableInfo) => editableColumns(table).filter((c) => !c.notNull);

class Editor {
  constructor(
    private readonly db: Database.Database,
    private readonly schema: SchemaInfo,
  ) {}

  private table(name: string): TableInfo {
    const table = findTable(this.schema, name);
    if (!table || table.withoutRowid) throw new Error(`no rowid table ${name}`);
    return table;
  }

  private row(table: TableInfo, rowid: number): Record<string, SqlValue> | undefined {
    return this.db
      .prepare(`SELECT * FROM ${q(table.name)} WHERE rowid = ?`)
      .safeIntegers(false)
      .get(rowid) as Record<string, SqlValue> | undefined;
  }

  /** "the orders row with order_id = 17" */
  private label(table: TableInfo, rowid: number, row: Record<string, SqlValue>): string {
    const keys = table.columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    const where = keys.length
      ? keys.map((c) => `${c.name} = ${formatValue(row[c.name] ?? null)}`).join(', ')
      : `rowid ${rowid}`;
    return `the ${table.name} row with ${where}`;
  }

  /** Applies one edit; returns its description, or null when it changed nothing. */
  apply(edit: Edit): string | null {
    const table = this.table(edit.table);
    const row = this.row(table, edit.rowid);
    if (!row) return null;
    const label = this.label(table, edit.rowid, row);
    switch (edit.op) {
      case 'delete': {
        const { deleted, nulled } = this.deleteRow(table, edit.rowid, 0);
        const extra = [
          deleted > 1 ? `${deleted - 1} rows referring to it` : '',
          nulled > 0 ? `set ${nulled} references to it to NULL` : '',
        ].filter(Boolean);
        return `deleted ${label}${extra.length ? ` (and ${extra.join('; ')})` : ''}`;
      }
      case 'duplicate':
        return this.duplicate(table, edit.rowid, label);
      case 'null':
      case 'set':
      case 'copy': {
        const column = table.columns.find((c) => c.name === edit.column && c.pk === 0);
        if (!column) throw new Error(`column ${edit.column} of ${table.name} cannot be edited`);
        const value =
          edit.op === 'null'
            ? null
            : edit.op === 'set'
              ? decodeValue(edit.value)
              : ((this.row(table, edit.from) ?? {})[column.name] ?? undefined);
        if (value === undefined) return null;
        const before = row[column.name] ?? null;
        if (formatValue(before, Infinity) === formatValue(value, Infinity) && typeof before === typeof value)
          return null;
        this.db
          .prepare(`UPDATE ${q(table.name)} SET ${q(column.name)} = ? WHERE rowid = ?`)
          .run(bindable(value), edit.rowid);
        return `set ${table.name}.${column.name} to ${formatValue(value)} in ${label} (was ${formatValue(before)})`;
      }
    }
  }

  private deleteRow(table: TableInfo, rowid: number, depth: number): { deleted: number; nulled: number } {
    if (depth > MAX_CASCADE_DEPTH) throw new Error('cascade too deep');
    const row = this.row(table, rowid);
    if (!row) return { deleted: 0, nulled: 0 };
    let deleted = 0;
    let nulled = 0;
    for (const child of this.schema.tables) {
      for (const key of child.foreignKeys) {
        if (key.parent.toLowerCase() !== table.name.toLowerCase() || child.withoutRowid) continue;
        const values = key.to.map((c) => row[c] ?? null);
        if (values.some((v) => v === null)) continue;
        const where = key.from.map((c) => `${q(c)} = ?`).join(' AND ');
        const dependants = (
          this.db.prepare(`SELECT rowid AS r FROM ${q(child.name)} WHERE ${where}`).all(...values.map(bindable)) as {
            r: number;
          }[]
        ).map((d) => d.r);
        if (dependants.length === 0) continue;
        const nullable = key.from.every((c) =>
          child.columns.some((col) => col.name === c && !col.notNull && col.pk === 0),
        );
        if (nullable) {
          const set = key.from.map((c) => `${q(c)} = NULL`).join(', ');
          nulled += this.db
            .prepare(`UPDATE ${q(child.name)} SET ${set} WHERE ${where}`)
            .run(...values.map(bindable)).changes;
        } else {
          for (const r of dependants) {
            const sub = this.deleteRow(child, r, depth + 1);
            deleted += sub.deleted;
            nulled += sub.nulled;
          }
        }
      }
    }
    deleted += this.db.prepare(`DELETE FROM ${q(table.name)} WHERE rowid = ?`).run(rowid).changes;
    return { deleted, nulled };
  }

  private duplicate(table: TableInfo, rowid: number, label: string): string | null {
    const keys = table.columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    const inForeignKey = new Set(table.foreignKeys.flatMap((k) => k.from));
    const rowidAlias = keys.length === 1 && (keys[0] as { type: string }).type.toUpperCase() === 'INTEGER';
    const fresh = rowidAlias ? keys[0] : keys.find((c) => !inForeignKey.has(c.name));
    if (keys.length > 0 && !fresh) return null;
    const exprs = table.columns.map((c) => {
      if (c !== fresh) return q(c.name);
      if (rowidAlias) return 'NULL';
      return columnAffinity(c.type) === 'integer' || columnAffinity(c.type) === 'numeric'
        ? `(SELECT MAX(${q(c.name)}) + 1 FROM ${q(table.name)})`
        : `${q(c.name)} || ' (copy)'`;
    });
    const columns = table.columns.map((c) => q(c.name)).join(', ');
    const info = this.db
      .prepare(
        `INSERT INTO ${q(table.name)} (${columns}) SELECT ${exprs.join(', ')} FROM ${q(table.name)} WHERE rowid = ?`,
      )
      .run(rowid);
    if (info.changes === 0) return null;
    const copy = this.row(table, Number(info.lastInsertRowid));
    return `duplicated ${label}${fresh && copy ? ` (the copy has ${fresh.name} = ${formatValue(copy[fresh.name] ?? null)})` : ''}`;
  }
}

/** Applies the edits to a copy of the database image; edits that would break a constraint are skipped. */
export function perturbImage(image: Buffer, schema: SchemaInfo, edits: readonly Edit[]): Perturbed {
  const db = new Database(image);
  try {
    db.pragma('foreign_keys = ON');
    const editor = new Editor(db, schema);
    const changes: string[] = [];
    for (const edit of edits) {
      db.exec('SAVEPOINT edit');
      try {
        const change = editor.apply(edit);
        db.exec('RELEASE edit');
        if (change) changes.push(change);
      } catch {
        db.exec('ROLLBACK TO edit');
        db.exec('RELEASE edit');
      }
    }
    return { bytes: db.serialize(), changes };
  } finally {
    db.close();
  }
}

/** Rowids of every rowid table, ascending: what edits address rows by. */
export function readRowids(db: Database.Database, schema: SchemaInfo): Map<string, number[]> {
  const rowids = new Map<string, number[]>();
  for (const table of schema.tables) {
    if (table.withoutRowid) continue;
    const stmt = db
      .prepare(`SELECT rowid FROM ${q(table.name)} ORDER BY rowid`)
      .pluck()
      .safeIntegers(false);
    rowids.set(table.name, stmt.all() as number[]);
  }
  return rowids;
}

/**
 * A heavy, seeded scramble for a hidden perturbed copy: in every table, about `rate` of the rows
 * each deleted, duplicated, given a NULL and given another row's value of the same column.
 */
export function scrambleEdits(schema: SchemaInfo, rowids: Map<string, number[]>, rng: Rng, rate = 0.03): Edit[] {
  const edits: Edit[] = [];
  for (const table of schema.tables) {
    const ids = rowids.get(table.name) ?? [];
    if (ids.length === 0) continue;
    const n = Math.max(1, Math.round(ids.length * rate));
    const nullable = nullableColumns(table);
    const editable = editableColumns(table);
    for (let i = 0; i < n; i++) {
      edits.push({ op: 'duplicate', table: table.name, rowid: rng.pick(ids) });
      if (nullable.length)
        edits.push({ op: 'null', table: table.name, rowid: rng.pick(ids), column: rng.pick(nullable).name });
      if (editable.length)
        edits.push({
          op: 'copy',
          table: table.name,
          rowid: rng.pick(ids),
          column: rng.pick(editable).name,
          from: rng.pick(ids),
        });
      edits.push({ op: 'delete', table: table.name, rowid: rng.pick(ids) });
    }
  }
  return rng.shuffle(edits);
}
