import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/random.ts';
import { BIRD_FIXTURES, birdDatabasePath, readBirdQuestions, resolveBirdLayout } from './loader.ts';
import { mutateSql, SQL_MUTATIONS, sqlMutants, type SqlMutationName } from './mutate.ts';
import { readSchema } from './schema.ts';

const layout = resolveBirdLayout(BIRD_FIXTURES);
const retail = new Database(birdDatabasePath(layout.databases, 'retail_shop'), { readonly: true });
const schema = readSchema(retail);
const mutants = (sql: string, operator: SqlMutationName) =>
  sqlMutants(sql, schema)
    .filter((m) => m.operator === operator)
    .map((m) => m.sql);

describe('SQL mutation operators', () => {
  it('drop and add DISTINCT', () => {
    expect(mutants('SELECT DISTINCT city FROM customers', 'drop-distinct')).toEqual(['SELECT city FROM customers']);
    expect(mutants('SELECT COUNT(DISTINCT city) FROM customers', 'drop-distinct')).toEqual([
      'SELECT COUNT(city) FROM customers',
    ]);
    expect(mutants('SELECT city FROM customers', 'add-distinct')).toEqual(['SELECT DISTINCT city FROM customers']);
  });

  it('swap MIN and MAX, flip ASC and DESC, give bare sort keys a direction', () => {
    expect(mutants('SELECT MIN(list_price) FROM products', 'swap-min-max')).toEqual([
      'SELECT MAX(list_price) FROM products',
    ]);
    expect(mutants('SELECT name FROM stores ORDER BY opened_on ASC LIMIT 1', 'flip-order')).toEqual([
      'SELECT name FROM stores ORDER BY opened_on DESC LIMIT 1',
    ]);
    expect(mutants('SELECT name FROM stores ORDER BY city, opened_on DESC', 'flip-order')).toEqual([
      'SELECT name FROM stores ORDER BY city DESC, opened_on DESC',
      'SELECT name FROM stores ORDER BY city, opened_on ASC',
    ]);
  });

  it('change comparisons against literals, but never negate a join equality', () => {
    expect(mutants("SELECT 1 FROM orders WHERE order_date > '2023-06-30'", 'change-comparison')).toEqual([
      "SELECT 1 FROM orders WHERE order_date >= '2023-06-30'",
      "SELECT 1 FROM orders WHERE order_date < '2023-06-30'",
    ]);
    expect(
      mutants('SELECT 1 FROM orders AS T1 JOIN stores AS T2 ON T1.store_id = T2.store_id', 'change-comparison'),
    ).toEqual([]);
  });

  it('drop a WHERE conjunct, leaving BETWEEN … AND … whole', () => {
    expect(
      mutants(
        "SELECT 1 FROM customers WHERE city = 'Bristol' AND signup_date BETWEEN '2020-01-01' AND '2020-12-31' AND birth_year > 1990",
        'drop-conjunct',
      ),
    ).toEqual([
      "SELECT 1 FROM customers WHERE signup_date BETWEEN '2020-01-01' AND '2020-12-31' AND birth_year > 1990",
      "SELECT 1 FROM customers WHERE city = 'Bristol' AND birth_year > 1990",
      "SELECT 1 FROM customers WHERE city = 'Bristol' AND signup_date BETWEEN '2020-01-01' AND '2020-12-31'",
    ]);
    expect(
      mutants(
        "SELECT 1 FROM customers WHERE city = 'Bristol' OR city = 'Exeter' AND birth_year > 1990",
        'drop-conjunct',
      ),
    ).toEqual([]);
  });

  it('join on a wrong key column of the same table, through aliases', () => {
    const joined = mutants(
      'SELECT T1.name FROM stores AS T1 INNER JOIN regions AS T2 ON T1.region_id = T2.region_id',
      'wrong-join-column',
    );
    expect(joined).toEqual(['SELECT T1.name FROM stores AS T1 INNER JOIN regions AS T2 ON T1.store_id = T2.region_id']);
  });

  it('switch between COUNT(*), COUNT(x) and COUNT(DISTINCT x)', () => {
    expect(mutants('SELECT COUNT(*) FROM customers', 'count-distinct')).toEqual([
      'SELECT COUNT(DISTINCT first_name) FROM customers',
    ]);
    expect(mutants('SELECT COUNT(T1.city) FROM customers AS T1', 'count-distinct')).toEqual([
      'SELECT COUNT(DISTINCT T1.city) FROM customers AS T1',
    ]);
    expect(mutants('SELECT COUNT(DISTINCT city) FROM customers', 'count-distinct')).toEqual([
      'SELECT COUNT(*) FROM customers',
    ]);
  });

  it('move or drop a LIMIT', () => {
    expect(mutants('SELECT name FROM stores LIMIT 3', 'change-limit')).toEqual([
      'SELECT name FROM stores LIMIT 4',
      'SELECT name FROM stores LIMIT 2',
      'SELECT name FROM stores',
    ]);
  });

  it('yield mutants of every fixture gold that SQLite prepares, from every operator somewhere', () => {
    const { questions } = readBirdQuestions(layout.questions);
    const used = new Set<string>();
    for (const q of questions) {
      const db = new Database(birdDatabasePath(layout.databases, q.db_id), { readonly: true });
      const all = sqlMutants(q.SQL, readSchema(db));
      expect(all.length, q.SQL).toBeGreaterThan(0);
      for (const m of all) {
        used.add(m.operator);
        expect(() => db.prepare(m.sql), m.sql).not.toThrow();
        expect(m.sql).not.toBe(q.SQL);
      }
      db.close();
    }
    expect([...used].sort()).toEqual([...SQL_MUTATIONS].sort());
  });

  it('pick a random accepted mutant, deterministically by seed', () => {
    const sql = "SELECT COUNT(order_id) FROM orders WHERE payment_method = 'voucher' AND status = 'returned'";
    const a = mutateSql(sql, schema, new Rng(7), () => true);
    expect(mutateSql(sql, schema, new Rng(7), () => true)).toEqual(a);
    expect(mutateSql(sql, schema, new Rng(7), () => false)).toBeNull();
  });
});
