import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/random.ts';
import { BIRD_FIXTURES, birdDatabasePath, resolveBirdLayout } from './loader.ts';
import { DatabaseContext } from './database.ts';
import { perturbImage, readRowids, scrambleEdits, type Edit } from './perturb.ts';
import { editsArbitrary, literalValues, probeTables } from './probes.ts';
import { readSchema } from './schema.ts';

const path = birdDatabasePath(resolveBirdLayout(BIRD_FIXTURES).databases, 'retail_shop');
const image = readFileSync(path);
const original = new Database(path, { readonly: true });
const schema = readSchema(original);
const rowids = readRowids(original, schema);
const open = (bytes: Buffer) => new Database(bytes, { readonly: true });
const count = (db: Database.Database, sql: string) => db.prepare(sql).pluck().get() as number;
const violations = (db: Database.Database) => db.prepare('PRAGMA foreign_key_check').all().length;
const dump = (db: Database.Database) =>
  JSON.stringify(schema.tables.map((t) => db.prepare(`SELECT * FROM "${t.name}" ORDER BY rowid`).raw().all()));

describe('perturbed database copies', () => {
  it('delete a row together with the rows that depend on it, or set nullable references to NULL', () => {
    const orderLines = count(original, 'SELECT COUNT(*) FROM order_items WHERE order_id = 17');
    const { bytes, changes } = perturbImage(image, schema, [{ op: 'delete', table: 'orders', rowid: 17 }]);
    const copy = open(bytes);
    expect(count(copy, 'SELECT COUNT(*) FROM orders WHERE order_id = 17')).toBe(0);
    expect(count(copy, 'SELECT COUNT(*) FROM order_items WHERE order_id = 17')).toBe(0);
    expect(changes).toEqual([`deleted the orders row with order_id = 17 (and ${orderLines} rows referring to it)`]);
    const customer = perturbImage(image, schema, [{ op: 'delete', table: 'customers', rowid: 42 }]);
    expect(customer.changes[0]).toMatch(
      /^deleted the customers row with customer_id = 42 \(and set \d+ references to it to NULL\)$/,
    );
    expect(count(open(customer.bytes), 'SELECT COUNT(*) FROM orders WHERE customer_id = 42')).toBe(0);
    expect(violations(copy)).toBe(0);
  });

  it('duplicate a row under a fresh key, and set values within the column’s type', () => {
    const edits: Edit[] = [
      { op: 'duplicate', table: 'order_items', rowid: 1 },
      { op: 'null', table: 'customers', rowid: 3, column: 'email' },
      { op: 'set', table: 'orders', rowid: 5, column: 'status', value: 'returned' },
    ];
    const { bytes, changes } = perturbImage(image, schema, edits);
    const copy = open(bytes);
    expect(changes[0]).toMatch(
      /^duplicated the order_items row with order_id = 1, line_no = 1 \(the copy has line_no = \d+\)$/,
    );
    expect(changes[1]).toMatch(/^set customers\.email to NULL in the customers row with customer_id = 3 \(was '.+'\)$/);
    expect(count(copy, 'SELECT COUNT(*) FROM order_items')).toBe(
      count(original, 'SELECT COUNT(*) FROM order_items') + 1,
    );
    expect(count(copy, "SELECT status = 'returned' FROM orders WHERE order_id = 5")).toBe(1);
  });

  it('skip an edit that would break a constraint, and report nothing for an edit that changes nothing', () => {
    const { changes, bytes } = perturbImage(image, schema, [
      { op: 'set', table: 'orders', rowid: 5, column: 'store_id', value: 999 },
      { op: 'null', table: 'customers', rowid: 3, column: 'first_name' },
      { op: 'duplicate', table: 'regions', rowid: 1 },
      { op: 'set', table: 'customers', rowid: 9, column: 'loyalty_tier', value: 'Platinum' },
      { op: 'delete', table: 'nope', rowid: 1 },
    ]);
    expect(changes).toEqual([]);
    expect(dump(open(bytes))).toBe(dump(original));
  });

  it('keep every foreign key consistent under random edit lists, and never touch the original', () => {
    const before = readFileSync(path);
    const tables = probeTables(
      new DatabaseContext(path, {
        maxImageBytes: 1 << 30,
        perturbedCopies: 0,
        seed: 0,
        scratchDir: () => '/nonexistent',
      }),
      'SELECT * FROM orders JOIN customers JOIN order_items',
    );
    const arbitrary = editsArbitrary(tables)!;
    fc.assert(
      fc.property(arbitrary, (edits) => violations(open(perturbImage(image, schema, edits).bytes)) === 0),
      { numRuns: 40, seed: 1 },
    );
    const scrambled = open(perturbImage(image, schema, scrambleEdits(schema, rowids, new Rng(1))).bytes);
    expect(violations(scrambled)).toBe(0);
    expect(count(scrambled, 'SELECT COUNT(*) FROM orders')).not.toBe(2500);
    expect(Buffer.compare(readFileSync(path), before)).toBe(0);
  });
});

describe('probe spaces', () => {
  it('take the literals of the queries and their neighbours', () => {
    expect(literalValues("SELECT 1 FROM t WHERE a > 3 AND d = '2020-03-01' AND n = 'O''Brien' AND x < 2.5")).toEqual([
      1,
      0,
      2,
      3,
      4,
      '2020-03-01',
      '2020-02-29',
      '2020-03-02',
      "O'Brien",
      2.5,
    ]);
  });

  it('cover the referenced tables, with rows matching the literals', () => {
    const context = new DatabaseContext(path, {
      maxImageBytes: 1 << 30,
      perturbedCopies: 0,
      seed: 0,
      scratchDir: () => '/nonexistent',
    });
    const [customers] = probeTables(context, "SELECT COUNT(*) FROM customers WHERE city = 'Bristol'");
    expect(customers?.name).toBe('customers');
    const bristol = original
      .prepare("SELECT rowid FROM customers WHERE city = 'Bristol' ORDER BY rowid LIMIT 6")
      .pluck()
      .all();
    expect(customers?.interesting.slice(0, 6)).toEqual(expect.arrayContaining(bristol.slice(0, 1)));
    expect(customers?.settable.find((s) => s.column === 'city')?.values).toContain('Bristol');
    expect(customers?.nullable).toEqual(['email', 'birth_year', 'loyalty_tier']);
    context.close();
  });

  it('stay small and never throw whatever the candidate lists: huge IN lists, long strings, patterns SQLite refuses', () => {
    const context = new DatabaseContext(path, {
      maxImageBytes: 1 << 30,
      perturbedCopies: 0,
      seed: 0,
      scratchDir: () => '/nonexistent',
    });
    const list = `SELECT COUNT(*) FROM customers WHERE customer_id NOT IN (${Array.from({ length: 300_000 }, (_, i) => i).join(', ')})`;
    expect(literalValues(list).length).toBeLessThanOrEqual(3 * 64);
    expect(literalValues(`SELECT '${'x'.repeat(300)}', 'short'`)).toEqual(['short']);
    const started = performance.now();
    const [customers] = probeTables(
      context,
      list,
      `SELECT COUNT(*) FROM customers WHERE email LIKE '${'%'.repeat(60_000)}' OR city = 'Bristol'`,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(customers?.settable.find((s) => s.column === 'city')?.values).toContain('Bristol');
    expect(editsArbitrary([customers!])).not.toBeNull();
    context.close();
  });
});
