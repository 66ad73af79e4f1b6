/** The BIRD loader on generated folders of each official layout: dev, the zip's nested dev, mini-dev, train. */
import { copyFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { birdSplitsIn, loadBird, resolveBirdLayout, sqliteFileProblem } from './loader.ts';
import { OFFICIAL_BIRD_ITEMS, truncateFile, writeBirdDatabase, writeBirdFolder } from '../../testing/layouts/sql.ts';
import { temporaryFolders } from '../../testing/sql.ts';

const folders = temporaryFolders();
afterAll(() => folders.removeAll());

const ids = (data: string, split?: string) => loadBird(data, split ? { split } : {}).tasks.map((t) => t.id);

describe('BIRD official layouts', () => {
  it('reads dev, the nested dev_databases/dev_databases of the zip, mini-dev and train', () => {
    for (const kind of ['dev', 'dev-nested', 'mini-dev'] as const) {
      const bird = writeBirdFolder(folders.make(`witness-bird-${kind}-`), kind);
      const { tasks, issues } = loadBird(bird.dir);
      expect(issues, kind).toEqual([]);
      expect(tasks.map((t) => t.id)).toEqual(['0', '1', '2', '3', '4', '5']);
      expect(tasks[3]?.context?.db_path).toBe(join(bird.databases, 'small_school', 'small_school.sqlite'));
      expect(tasks[3]?.meta).toMatchObject({ difficulty: 'simple', split: kind === 'mini-dev' ? 'mini-dev' : 'dev' });
    }
    const train = writeBirdFolder(folders.make('witness-bird-train-'), 'train');
    const { tasks, issues } = loadBird(train.dir);
    expect(issues).toEqual([]);
    // train.json has no question_id (the position stands in) and no difficulty.
    expect(tasks.map((t) => [t.id, t.meta?.difficulty, t.meta?.split])).toEqual(
      OFFICIAL_BIRD_ITEMS.map((_, i) => [String(i), null, 'train']),
    );
    expect(tasks[0]?.context?.schema).toMatch(/^CREATE TABLE products/);
  });

  it('picks a split by name in a folder holding several, and a questions file given directly', () => {
    const dir = folders.make('witness-bird-splits-');
    writeBirdFolder(dir, 'dev');
    writeBirdFolder(dir, 'train', OFFICIAL_BIRD_ITEMS.slice(0, 2));
    expect(birdSplitsIn(dir)).toEqual(['dev', 'train']);
    expect(ids(dir)).toHaveLength(6);
    expect(ids(dir, 'dev')).toHaveLength(6);
    expect(ids(dir, 'train')).toEqual(['0', '1']);
    expect(resolveBirdLayout(join(dir, 'train.json')).databases).toBe(join(dir, 'train_databases'));
    expect(ids(join(dir, 'train.json'))).toEqual(['0', '1']);
    expect(() => ids(dir, 'mini-dev')).toThrow(
      /no BIRD mini-dev questions file in .* \(it has: dev, train\); looked for mini_dev_sqlite\.json.*bird-bench\.github\.io/,
    );
    expect(() => ids(dir, 'test')).toThrow('unknown BIRD split "test" (known: dev, mini-dev, train)');
    expect(() => ids(join(dir, 'train.json'), 'dev')).toThrow(/train\.json is a train questions file, not dev/);
  });

  it('opens no database while loading: the schema is read when first used', () => {
    const bird = writeBirdFolder(folders.make('witness-bird-lazy-'), 'dev');
    const { tasks } = loadBird(bird.dir);
    // Swap the database after loading: the schema the task shows is the one on disk when it is read.
    const path = join(bird.databases, 'toy_shop', 'toy_shop.sqlite');
    rmSync(path);
    new Database(path).exec('CREATE TABLE swapped (x INTEGER)').close();
    expect(tasks[0]?.context?.schema).toBe('CREATE TABLE swapped (x INTEGER)');
    // Read once per database, then kept.
    rmSync(path);
    new Database(path).exec('CREATE TABLE later (y)').close();
    expect(tasks[1]?.context?.schema).toBe('CREATE TABLE swapped (x INTEGER)');
    expect(JSON.parse(JSON.stringify(tasks[1]?.context)).schema).toBe('CREATE TABLE swapped (x INTEGER)');
  });

  it('names each question whose database is missing, not SQLite or truncated, and loads the others', () => {
    const bird = writeBirdFolder(folders.make('witness-bird-broken-'), 'dev', [
      ...OFFICIAL_BIRD_ITEMS,
      { ...(OFFICIAL_BIRD_ITEMS[0] as object), question_id: 6, db_id: 'gone' } as (typeof OFFICIAL_BIRD_ITEMS)[0],
      { ...(OFFICIAL_BIRD_ITEMS[0] as object), question_id: 7, db_id: 'text_file' } as (typeof OFFICIAL_BIRD_ITEMS)[0],
      { ...(OFFICIAL_BIRD_ITEMS[0] as object), question_id: 8, db_id: 'cut' } as (typeof OFFICIAL_BIRD_ITEMS)[0],
    ]);
    mkdirSync(join(bird.databases, 'text_file'));
    writeFileSync(
      join(bird.databases, 'text_file', 'text_file.sqlite'),
      'not a database at all, but long enough '.repeat(5),
    );
    // A database of several pages, cut after its first page (a broken download).
    const big = writeBirdDatabase(join(bird.dir, 'scratch'), 'toy_shop');
    new Database(big).exec(`CREATE TABLE filler (t TEXT); INSERT INTO filler VALUES ('${'x'.repeat(9000)}')`).close();
    mkdirSync(join(bird.databases, 'cut'));
    copyFileSync(big, join(bird.databases, 'cut', 'cut.sqlite'));
    truncateFile(join(bird.databases, 'cut', 'cut.sqlite'), 4096);
    const { tasks, issues } = loadBird(bird.dir);
    expect(tasks.map((t) => t.id)).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(issues.map((i) => `${i.item}: ${i.message.replaceAll(bird.databases, 'DB')}`)).toEqual([
      'question 6 (db_id "gone"): database not found: DB/gone/gone.sqlite',
      'question 7 (db_id "text_file"): not a SQLite database (no SQLite header): DB/text_file/text_file.sqlite',
      expect.stringMatching(
        /^question 8 \(db_id "cut"\): truncated SQLite database: DB\/cut\/cut\.sqlite has 4096 bytes, its header records \d+ pages/,
      ),
    ]);
  });

  it('tells a file cut inside its header from one that is not SQLite at all', () => {
    const dir = folders.make('witness-bird-header-');
    const path = writeBirdDatabase(dir, 'toy_shop');
    expect(sqliteFileProblem(path)).toBeNull();
    truncateFile(path, 50);
    expect(sqliteFileProblem(path)).toBe(
      `truncated SQLite database: ${path} has 50 bytes, less than its 100-byte header`,
    );
    writeFileSync(path, 'SQLite format 2 and then some text');
    expect(sqliteFileProblem(path)).toBe(`not a SQLite database (no SQLite header): ${path}`);
    expect(sqliteFileProblem(dir)).toBe(`not a file: ${dir}`);
  });

  it('says which database folder it looked for beside the questions', () => {
    const bird = writeBirdFolder(folders.make('witness-bird-nodb-'), 'train');
    renameSync(bird.databases, join(bird.dir, 'elsewhere'));
    expect(() => loadBird(bird.dir)).toThrow(
      /no BIRD database folder beside .*train\.json \(looked for train_databases\/train_databases, train_databases, databases/,
    );
    expect(loadBird(bird.dir, { databases: join(bird.dir, 'elsewhere') }).tasks).toHaveLength(6);
  });
});
