/** `witness data check --suite bird` on generated folders of the official layouts, sound and broken. */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { DataReport } from '../../core/data-report.ts';
import { checkBirdData } from './data-check.ts';
import { OFFICIAL_BIRD_ITEMS, truncateFile, writeBirdDatabase, writeBirdFolder } from '../../testing/layouts/sql.ts';
import { OUTSIDE_TABLE, writeHostileBirdFolder } from './hostile/datasets.ts';
import { temporaryFolders } from '../../testing/sql.ts';

const folders = temporaryFolders();
afterAll(() => folders.removeAll());

const errors = (report: DataReport) =>
  report.findings.filter((f) => f.level === 'error').map((f) => `${f.path ?? ''} ${f.item ?? ''}: ${f.message}`);

describe('checkBirdData', () => {
  it('passes a sound dev folder and a folder with dev and train, counting each split', () => {
    const dir = folders.make('witness-check-bird-');
    writeBirdFolder(dir, 'dev');
    writeBirdFolder(dir, 'train', OFFICIAL_BIRD_ITEMS.slice(0, 4));
    const report = checkBirdData(dir);
    expect(errors(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.counts).toEqual({
      'dev.questions': 6,
      'dev.invalid': 0,
      'dev.databases': 2,
      'dev.goldsPrepared': 6,
      'train.questions': 4,
      'train.invalid': 0,
      'train.databases': 2,
      'train.goldsPrepared': 4,
    });
    expect(report.source.url).toBe('https://bird-bench.github.io/');
    expect(report.findings).toContainEqual({
      level: 'info',
      path: 'dev.json',
      message: '6 questions over 2 databases (the official BIRD dev has 1,534 over 11)',
    });
  });

  it('names the item of a bad field, a gold that does not compile, a missing, truncated or empty database', () => {
    const items = [
      ...OFFICIAL_BIRD_ITEMS,
      { ...OFFICIAL_BIRD_ITEMS[0]!, question_id: 6, SQL: 'SELECT nope FROM products' },
      { ...OFFICIAL_BIRD_ITEMS[0]!, question_id: 7, question: '' },
      { ...OFFICIAL_BIRD_ITEMS[0]!, question_id: 8, db_id: 'gone' },
      { ...OFFICIAL_BIRD_ITEMS[0]!, question_id: 9, db_id: 'cut' },
      { ...OFFICIAL_BIRD_ITEMS[0]!, question_id: 10, db_id: 'hollow' },
    ];
    const { dir: bird, databases } = writeBirdFolder(folders.make('witness-check-broken-'), 'dev-nested', items);
    const raw = JSON.parse(readFileSync(join(bird, 'dev.json'), 'utf8')) as Record<string, unknown>[];
    delete raw[2]!.difficulty;
    writeFileSync(join(bird, 'dev.json'), JSON.stringify(raw));
    const big = writeBirdDatabase(join(bird, 'scratch'), 'toy_shop');
    new Database(big).exec(`CREATE TABLE filler (t TEXT); INSERT INTO filler VALUES ('${'x'.repeat(9000)}')`).close();
    mkdirSync(join(databases, 'cut'));
    copyFileSync(big, join(databases, 'cut', 'cut.sqlite'));
    truncateFile(join(databases, 'cut', 'cut.sqlite'), 4096);
    mkdirSync(join(databases, 'hollow'));
    new Database(join(databases, 'hollow', 'hollow.sqlite')).exec('PRAGMA user_version = 1').close();
    const report = checkBirdData(bird);
    expect(report.ok).toBe(false);
    const db = (name: string) => `dev_databases/dev_databases/${name}/${name}.sqlite`;
    expect(errors(report).map((e) => e.replaceAll(bird, 'DIR'))).toEqual([
      'dev.json item 2 (question 2): field "difficulty" must be one of simple, moderate, challenging, it is missing',
      'dev.json item 7 (question 7): field "question" must be a non-empty string',
      'dev.json item 6 (question 6): the gold SQL does not compile on toy_shop: no such column: nope',
      `${db('gone')} db_id "gone" (1 question): database not found: DIR/${db('gone')}`,
      expect.stringMatching(new RegExp(`^${db('cut')} db_id "cut" \\(1 question\\): truncated SQLite database`)),
      `${db('hollow')} db_id "hollow" (1 question): the database has no tables`,
    ]);
    // The sound questions are still counted and checked.
    expect(report.counts).toMatchObject({
      'dev.questions': 11,
      'dev.invalid': 2,
      'dev.databases': 2,
      'dev.goldsPrepared': 6,
    });
  });

  it('says what it looked for in a folder without BIRD data, and a path that does not exist', () => {
    const empty = checkBirdData(folders.make('witness-check-empty-'));
    expect(empty.ok).toBe(false);
    expect(errors(empty)[0]).toMatch(/no BIRD questions file in .*; looked for dev\.json.*\(or pass its path\)\.$/);
    expect(errors(checkBirdData(join(folders.make('witness-check-none-'), 'nothing')))).toEqual([
      expect.stringMatching(/nothing : not found$/),
    ]);
  });
});

describe('checkBirdData on a hostile folder', () => {
  it('names every db_id that leads outside the database folder and never opens what is there', () => {
    const bird = writeHostileBirdFolder(folders.make('witness-check-bird-hostile-'));
    const report = checkBirdData(bird.dir);
    expect(report.ok).toBe(false);
    for (const { dbId } of bird.escapes) {
      const line = errors(report).find((e) =>
        e.startsWith(`dev_databases db_id ${JSON.stringify(dbId)} (1 question): `),
      );
      expect(line, dbId).toMatch(/path separator|leads outside the folder "dev_databases" through a symbolic link/);
    }
    expect(JSON.stringify(report)).not.toContain(OUTSIDE_TABLE);
    expect(report.counts['dev.databases']).toBe(2);
  });

  it('names every gold the run refuses, through the run’s own gate: a write, ATTACH, load_extension, a PRAGMA setter, two statements', () => {
    const bird = writeHostileBirdFolder(folders.make('witness-check-bird-golds-'));
    const report = checkBirdData(bird.dir);
    const items = JSON.parse(readFileSync(bird.questions, 'utf8')) as { question_id: number }[];
    for (const { questionId, why } of bird.refusedGolds) {
      const index = items.findIndex((q) => q.question_id === questionId);
      const line = errors(report).find((e) => e.startsWith(`dev.json item ${index} (question ${questionId}): `));
      expect(line, String(questionId)).toMatch(
        /: the run refuses the gold SQL \(unsafe\): only a single read-only query/,
      );
      expect(line, String(questionId)).toMatch(why);
    }
  });
});
