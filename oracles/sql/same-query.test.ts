import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isNondeterministic, normalizeSql, sameDeterministicQuery } from './same-query.ts';
import { prepareStatement, tokenize } from './sql-text.mjs';

const db = new Database(':memory:');
db.exec(`CREATE TABLE person (id INTEGER PRIMARY KEY, Name TEXT, city TEXT, score REAL);
  INSERT INTO person VALUES (1, 'Alice', 'Oslo', 1.5), (2, 'alice', 'oslo', 2), (3, 'Bob', 'Rome', NULL), (4, 'NOW', 'now', 3);`);
afterAll(() => db.close());
const rows = (sql: string) =>
  JSON.stringify(
    prepareStatement((text) => db.prepare(text), sql)
      .statement.raw(true)
      .all(),
  );

const GOLDS = [
  "SELECT Name FROM person WHERE city = 'Oslo'",
  'SELECT COUNT(*), MAX(score) FROM person GROUP BY city ORDER BY 1 DESC LIMIT 2',
  'SELECT T1.Name FROM person AS T1 JOIN person AS T2 ON T1.id = T2.id + 1 WHERE T2.score > 1',
  'SELECT city FROM person WHERE Name = "Bob"',
  "SELECT id FROM person WHERE Name IN (SELECT Name FROM person WHERE score IS NOT NULL) AND city <> 'it''s'",
];

/** The gold re-typed: random ASCII case of words, whitespace and comments where it had whitespace, maybe a semicolon. */
const retyped = (gold: string) =>
  fc
    .tuple(
      fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
      fc.array(fc.constantFrom(' ', '  ', '\n', '\t', ' /* note */ ', ' -- note\n'), { minLength: 64, maxLength: 64 }),
      fc.boolean(),
    )
    .map(([cases, gaps, semicolon]) => {
      let k = 0;
      const text = tokenize(gold)
        .map((t) => {
          k++;
          if (t.type === 'space') return gaps[k % 64];
          if (t.type !== 'word') return t.text;
          return cases[k % 64] ? t.text.toUpperCase() : t.text.toLowerCase();
        })
        .join('');
      return semicolon ? `${text} ;` : text;
    });

describe('normalizeSql', () => {
  it('maps the gold re-typed (case, spacing, comments, a trailing semicolon) to the gold, and SQLite gives both the same rows', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...GOLDS).chain((gold) => fc.tuple(fc.constant(gold), retyped(gold))),
        ([gold, other]) => {
          expect(normalizeSql(other)).toBe(normalizeSql(gold));
          expect(rows(other)).toBe(rows(gold));
          expect(sameDeterministicQuery(other, gold)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps apart texts that differ inside a literal or a quoted name, in their tokens, or in a second semicolon', () => {
    const pairs: [string, string][] = [
      ["SELECT id FROM person WHERE Name = 'Alice'", "SELECT id FROM person WHERE Name = 'alice'"],
      ['SELECT id FROM person WHERE Name = "Alice"', 'SELECT id FROM person WHERE Name = "alice"'],
      ["SELECT x'AB'", "SELECT x'ab'"],
      ['SELECT id FROM person', 'SELECT id FROM person;;'],
      ['SELECT id FROM person', 'SELECT idFROM person'],
      ['SELECT id FROM person LIMIT 1', 'SELECT id FROM person LIMIT 2'],
      ['SELECT Name FROM person', 'SELECT [Name ] FROM person'],
    ];
    for (const [a, b] of pairs) {
      expect(normalizeSql(a), `${a} vs ${b}`).not.toBe(normalizeSql(b));
      expect(sameDeterministicQuery(a, b)).toBe(false);
    }
    // The literal pair really gives other rows: lower-casing it would have been wrong.
    expect(rows(pairs[0]?.[0] as string)).not.toBe(rows(pairs[0]?.[1] as string));
  });

  it('never merges two texts whose results differ (random token edits of the golds)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...GOLDS),
        fc.nat(),
        fc.constantFrom("'X'", '0', 'OR', ',', ''),
        (gold, at, replacement) => {
          const tokens = tokenize(gold);
          const i = at % tokens.length;
          const edited = [
            ...tokens.slice(0, i).map((t) => t.text),
            replacement,
            ...tokens.slice(i + 1).map((t) => t.text),
          ];
          const other = edited.join('');
          let differ: boolean;
          try {
            differ = rows(other) !== rows(gold);
          } catch {
            differ = true;
          }
          if (differ) expect(normalizeSql(other)).not.toBe(normalizeSql(gold));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('sameDeterministicQuery', () => {
  it('decides as the full definition does (normalized texts equal, gold deterministic), its pre-checks included', () => {
    const texts = fc.oneof(
      fc.constantFrom(...GOLDS, "SELECT date('now')", 'SELECT random() -- x', 'SELECT 1 /* c */ ;', 'SELECT 1;'),
      fc.constantFrom(...GOLDS).chain(retyped),
      fc.stringMatching(/^[ a-zA-Z0-9;'"()*\-/\n]{0,24}$/),
    );
    fc.assert(
      fc.property(texts, texts, (predicted, gold) => {
        const full = normalizeSql(predicted) === normalizeSql(gold) && !isNondeterministic(gold);
        expect(sameDeterministicQuery(predicted, gold)).toBe(full);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isNondeterministic', () => {
  it('refuses every query that reads the clock or a volatile function, in any case and spacing', () => {
    const volatile = [
      'SELECT random()',
      'SELECT RANDOMBLOB (4)',
      'SELECT changes()',
      'SELECT total_changes()',
      'SELECT last_insert_rowid()',
      "SELECT date('now')",
      "SELECT time('NOW')",
      "SELECT datetime(' now ', '-1 day')",
      "SELECT julianday('now') - julianday(score) FROM person",
      "SELECT strftime('%Y', 'now')",
      "SELECT strftime('%Y-%m-%d')",
      'SELECT date()',
      'SELECT unixepoch()',
      'SELECT CURRENT_TIMESTAMP',
      'SELECT current_date',
      'SELECT id FROM person WHERE score < current_time',
      'SELECT date("now")',
      'SELECT id FROM person ORDER BY random() LIMIT 1',
    ];
    for (const sql of volatile) {
      expect(isNondeterministic(sql), sql).toBe(true);
      expect(sameDeterministicQuery(sql, sql), sql).toBe(false);
    }
  });

  it('lets deterministic date arithmetic, and names that merely contain those words, through', () => {
    const fixed = [
      "SELECT date('2024-01-31', '+1 month')",
      "SELECT strftime('%Y', '2020-05-06')",
      'SELECT julianday(score) FROM person',
      'SELECT Name AS random_name FROM person',
      'SELECT "random" FROM person',
      "SELECT id FROM person WHERE city = 'nowhere'",
      'SELECT unixepoch(score) FROM person',
    ];
    for (const sql of fixed) expect(isNondeterministic(sql), sql).toBe(false);
    // A prediction that is such a gold re-typed takes the shortcut.
    expect(sameDeterministicQuery("select date('2024-01-31', '+1 month');", fixed[0] as string)).toBe(true);
  });
});
