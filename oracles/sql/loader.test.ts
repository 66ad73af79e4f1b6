import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_DATABASES, generateBirdDatabases } from '../../fixtures/bird/generate.ts';
import { BIRD_FIXTURES, birdDatabasePath, loadBird, readBirdQuestions, resolveBirdLayout } from './loader.ts';
import { readSchema } from './schema.ts';
import { OUTSIDE_TABLE, writeHostileBirdFolder } from './hostile/datasets.ts';
import { temporaryFolders } from '../../testing/sql.ts';

const folders = temporaryFolders();
afterAll(() => folders.removeAll());

const layout = resolveBirdLayout(BIRD_FIXTURES);
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('the BIRD fixtures', () => {
  const { questions, issues } = readBirdQuestions(layout.questions);

  it('hold at least 40 questions over at least two databases, across the three difficulties, in BIRD’s dev.json format', () => {
    expect(issues).toEqual([]);
    expect(questions.length).toBeGreaterThanOrEqual(40);
    expect(new Set(questions.map((q) => q.db_id))).toEqual(new Set(FIXTURE_DATABASES));
    const byDifficulty = (d: string) => questions.filter((q) => q.difficulty === d).length;
    expect([byDifficulty('simple'), byDifficulty('moderate'), byDifficulty('challenging')].every((n) => n >= 10)).toBe(
      true,
    );
    expect(questions.filter((q) => q.evidence !== '').length).toBeGreaterThanOrEqual(40);
    const raw = JSON.parse(readFileSync(layout.questions, 'utf8')) as Record<string, unknown>[];
    expect(Object.keys(raw[0] ?? {}).sort()).toEqual([
      'SQL',
      'db_id',
      'difficulty',
      'evidence',
      'question',
      'question_id',
    ]);
  });

  it('have realistic schemas: foreign keys, dates and NULLs in every database', () => {
    for (const dbId of FIXTURE_DATABASES) {
      const db = new Database(birdDatabasePath(layout.databases, dbId), { readonly: true });
      const schema = readSchema(db);
      expect(schema.tables.filter((t) => t.foreignKeys.length > 0).length, dbId).toBeGreaterThanOrEqual(3);
      expect(
        schema.tables.flatMap((t) => t.columns).filter((c) => /DATE/i.test(c.type)).length,
        dbId,
      ).toBeGreaterThanOrEqual(3);
      const nullable = schema.tables.flatMap((t) =>
        t.columns
          .filter((c) => !c.notNull && c.pk === 0)
          .map((c) => `SELECT COUNT(*) FROM "${t.name}" WHERE "${c.name}" IS NULL`),
      );
      const nulls = nullable.map((sql) => db.prepare(sql).pluck().get() as number).filter((n) => n > 0).length;
      expect(nulls, dbId).toBeGreaterThanOrEqual(5);
      expect(db.prepare('PRAGMA foreign_key_check').all(), dbId).toEqual([]);
      db.close();
    }
  });

  it('have golds that run and return rows', () => {
    for (const q of questions) {
      const db = new Database(birdDatabasePath(layout.databases, q.db_id), { readonly: true });
      const rows = db.prepare(q.SQL).raw().all();
      expect(rows.length, `question ${q.question_id}`).toBeGreaterThan(0);
      db.close();
    }
  });

  it('are exactly what the committed generator writes, and match their checksums', () => {
    const dir = folders.make('witness-bird-gen-');
    generateBirdDatabases(dir);
    for (const dbId of FIXTURE_DATABASES) {
      expect(sha(birdDatabasePath(dir, dbId)), dbId).toBe(sha(birdDatabasePath(layout.databases, dbId)));
    }
    for (const line of readFileSync(join(BIRD_FIXTURES, 'SHA256SUMS'), 'utf8').trim().split('\n')) {
      const [digest, file] = line.split(/\s+/);
      expect(sha(join(layout.databases, file as string)), file).toBe(digest);
    }
  });
});

describe('the BIRD loader', () => {
  it('turns questions into tasks with the schema, evidence and database path', () => {
    const { tasks, issues } = loadBird(BIRD_FIXTURES);
    expect(issues).toEqual([]);
    expect(tasks[0]).toMatchObject({
      id: '0',
      benchmark: 'bird',
      description: 'How many customers have no email address on record?',
      gold: 'SELECT COUNT(customer_id) FROM customers WHERE email IS NULL',
      context: {
        db_id: 'retail_shop',
        db_path: birdDatabasePath(layout.databases, 'retail_shop'),
        evidence: 'no email address refers to email IS NULL',
      },
      meta: { difficulty: 'simple', index: 0 },
    });
    expect(tasks[0]?.context?.schema).toMatch(/^CREATE TABLE regions \(/);
    expect(tasks[0]?.context?.schema).toMatch(/REFERENCES customers \(customer_id\)/);
  });

  it('names every broken item and every question whose database is missing', () => {
    const dir = folders.make('witness-bird-broken-');
    mkdirSync(join(dir, 'dev_databases', 'here'), { recursive: true });
    new Database(join(dir, 'dev_databases', 'here', 'here.sqlite')).exec('CREATE TABLE t (a)').close();
    const ok = { db_id: 'here', question: 'q', evidence: '', SQL: 'SELECT a FROM t', difficulty: 'simple' };
    writeFileSync(
      join(dir, 'dev.json'),
      JSON.stringify([
        { question_id: 0, ...ok },
        { question_id: 1, ...ok, SQL: '' },
        { question_id: 2, ...ok, difficulty: 'hard' },
        { question_id: 0, ...ok },
        { question_id: 4, ...ok, db_id: 'gone' },
        'nonsense',
      ]),
    );
    const { tasks, issues } = loadBird(dir);
    expect(tasks.map((t) => t.id)).toEqual(['0']);
    expect(issues.map((i) => `${i.item.replace(dir, 'DIR')}: ${i.message.replace(dir, 'DIR')}`)).toEqual([
      'DIR/dev.json item 1 (question 1): field "SQL" must be a non-empty string',
      'DIR/dev.json item 2 (question 2): field "difficulty" must be one of simple, moderate, challenging, got "hard"',
      'DIR/dev.json item 3 (question 0): question_id 0 appears twice',
      'DIR/dev.json item 5 (question 5): not a JSON object',
      'question 4 (db_id "gone"): database not found: DIR/dev_databases/gone/gone.sqlite',
    ]);
    // Invalid items keep their positions and what could be read of them (the evaluator scores them 0).
    expect(readBirdQuestions(join(dir, 'dev.json')).invalid.map(({ message: _message, ...item }) => item)).toEqual([
      { index: 1, question_id: 1, db_id: 'here', difficulty: 'simple' },
      { index: 2, question_id: 2, db_id: 'here', difficulty: null },
      { index: 3, question_id: 0, db_id: 'here', difficulty: 'simple' },
      { index: 5, question_id: 5, db_id: null, difficulty: null },
    ]);
  });

  it('reads mini-dev JSON Lines and says what it looked for when the layout is wrong', () => {
    const dir = folders.make('witness-bird-jsonl-');
    expect(() => resolveBirdLayout(dir)).toThrow(
      /no BIRD questions file in .*; looked for dev\.json, dev\.jsonl, .*mini_dev_sqlite\.json, .*train\.json.*bird-bench\.github\.io/,
    );
    writeFileSync(
      join(dir, 'mini_dev_sqlite.jsonl'),
      '{"question_id": 7, "db_id": "x", "question": "q", "evidence": "e", "SQL": "SELECT 1", "difficulty": "moderate"}\n{oops\n',
    );
    expect(() => resolveBirdLayout(dir)).toThrow(/no BIRD database folder/);
    const { questions, issues } = readBirdQuestions(join(dir, 'mini_dev_sqlite.jsonl'));
    expect(questions).toEqual([
      { index: 0, question_id: 7, db_id: 'x', question: 'q', evidence: 'e', SQL: 'SELECT 1', difficulty: 'moderate' },
    ]);
    expect(issues[0]?.message).toMatch(/^line 2 is not valid JSON/);
  });
});

describe('loadBird on a hostile folder', () => {
  it('names every question whose db_id leads outside the database folder, opens nothing there, and loads the rest', () => {
    const bird = writeHostileBirdFolder(folders.make('witness-bird-hostile-'));
    const { tasks, issues } = loadBird(bird.dir);
    const escaped = new Set(bird.escapes.map((e) => String(e.questionId)));
    expect(tasks.filter((t) => escaped.has(t.id))).toEqual([]);
    expect(tasks.every((t) => (t.context?.db_path as string).startsWith(bird.databases))).toBe(true);
    expect(tasks.map((t) => t.context?.schema).join('\n')).not.toContain(OUTSIDE_TABLE);
    const issueOf = (questionId: number) => issues.find((i) => i.item.startsWith(`question ${questionId} `));
    for (const { questionId, dbId } of bird.escapes) {
      expect(issueOf(questionId)?.item, dbId).toBe(`question ${questionId} (db_id ${JSON.stringify(dbId)})`);
      expect(issueOf(questionId)?.message, dbId).toMatch(
        /cannot name a file in the data folder: it contains a path separator|leads outside the folder "dev_databases" through a symbolic link/,
      );
    }
    expect(tasks.map((t) => t.id)).toEqual(expect.arrayContaining(['0', '1', '2', '3', '4', '5']));
  });
});
