import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { loadsExtension, prepareStatement, statementKeyword, tokenize, unsafeReason } from './sql-text.mjs';

describe('the SQLite tokenizer', () => {
  it('is lossless and keeps strings, quoted identifiers, comments, numbers and operators whole', () => {
    const sql = `SELECT T1.\`County Name\`, "x""y", [a b], 'it''s', X'0A', 1.5e3, .5, 0x1F, :p, ?2 -- note\nFROM t /* c */ WHERE a <= 3 AND b <> 'x' || c`;
    const tokens = tokenize(sql);
    expect(tokens.map((t) => t.text).join('')).toBe(sql);
    const significant = tokens.filter((t) => t.type !== 'space').map((t) => `${t.type}:${t.text}`);
    expect(significant).toEqual([
      'word:SELECT',
      'word:T1',
      'op:.',
      'quoted:`County Name`',
      'op:,',
      'quoted:"x""y"',
      'op:,',
      'quoted:[a b]',
      'op:,',
      "string:'it''s'",
      'op:,',
      "blob:X'0A'",
      'op:,',
      'number:1.5e3',
      'op:,',
      'number:.5',
      'op:,',
      'number:0x1F',
      'op:,',
      'param::p',
      'op:,',
      'param:?2',
      'comment:-- note',
      'word:FROM',
      'word:t',
      'comment:/* c */',
      'word:WHERE',
      'word:a',
      'op:<=',
      'number:3',
      'word:AND',
      'word:b',
      'op:<>',
      "string:'x'",
      'op:||',
      'word:c',
    ]);
  });

  it('survives unterminated strings and comments', () => {
    for (const sql of ["SELECT 'abc", 'SELECT "abc', 'SELECT /* abc', 'SELECT [abc']) {
      expect(
        tokenize(sql)
          .map((t) => t.text)
          .join(''),
      ).toBe(sql);
    }
  });
});

describe('legacy double-quoted strings (as in Python’s sqlite3)', () => {
  const db = new Database(':memory:');
  db.exec("CREATE TABLE t (name TEXT, city TEXT); INSERT INTO t VALUES ('a', 'Paris'), ('b', 'Rome')");
  const run = (sql: string) => {
    const { statement, sql: prepared } = prepareStatement((text) => db.prepare(text), sql);
    return { rows: statement.raw(true).all(), prepared };
  };

  it('keeps identifiers that resolve and turns the rest into string literals', () => {
    expect(run('SELECT "name" FROM t WHERE "city" = "Rome"')).toEqual({
      rows: [['b']],
      prepared: `SELECT "name" FROM t WHERE "city" = 'Rome'`,
    });
    expect(run(`SELECT name FROM t WHERE city IN ("Paris", "O'Hare") ORDER BY "zz"`).rows).toEqual([['a']]);
  });

  it('leaves other errors alone', () => {
    expect(() => run('SELECT nope FROM t')).toThrow('no such column: nope');
    expect(() => run('SELECT * FROM "missing"')).toThrow('no such table: missing');
  });
});

describe('gate reasons', () => {
  it('name the statement kind, looking past WITH', () => {
    expect(statementKeyword('  -- c\n attach database x as y')).toBe('ATTACH');
    expect(statementKeyword('WITH a AS (SELECT 1), b AS (SELECT 2) INSERT INTO t SELECT * FROM a')).toBe('INSERT');
    expect(statementKeyword('WITH a AS (SELECT 1) SELECT * FROM a')).toBe('SELECT');
    expect(statementKeyword('')).toBeNull();
    expect(unsafeReason('VACUUM INTO "x.db"')).toMatch(/VACUUM rewrites the database/);
    expect(unsafeReason('explain query plan select 1')).toMatch(/not a read-only query that returns rows/);
  });
});

describe('load_extension', () => {
  it('is found as a call under any quoting and case, never in a string, a comment or a column of that name', () => {
    for (const sql of [
      "SELECT load_extension('libc.so.6')",
      "select LOAD_EXTENSION ('x', 'entry')",
      'SELECT "load_extension"(\'x\')',
      "SELECT [load_extension]('x')",
      "SELECT `Load_Extension` /* c */ ('x')",
      "WITH a AS (SELECT load_extension('x')) SELECT * FROM a",
    ]) {
      expect(loadsExtension(sql), sql).toBe(true);
      expect(unsafeReason(sql), sql).toMatch(/load_extension loads native code/);
    }
    for (const sql of [
      "SELECT 'load_extension(x)'",
      "SELECT 1 -- load_extension('x')",
      'SELECT load_extension FROM t',
      'SELECT "load_extension" FROM t',
    ])
      expect(loadsExtension(sql), sql).toBe(false);
  });
});
