/**
 * Test support: small BIRD folders in the official layouts, generated in a temporary folder —
 * dev (`dev.json` + `dev_databases/<db>/<db>.sqlite`, optionally the zip's nested
 * `dev_databases/dev_databases/`), mini-dev (`mini_dev_sqlite.json` + `dev_databases/`) and train
 * (`train.json` without question_id nor difficulty + `train_databases/`), with two databases.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export type BirdLayoutKind = 'dev' | 'dev-nested' | 'mini-dev' | 'train';

export interface OfficialBirdItem {
  question_id?: number;
  db_id: string;
  question: string;
  evidence: string;
  SQL: string;
  difficulty?: string;
}

const DATABASES: Record<string, string> = {
  toy_shop: `CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL, stock INTEGER);
    INSERT INTO products VALUES (1, 'kite', 12.5, 3), (2, 'yo-yo', 2.0, 40), (3, 'puzzle', 18.0, 0), (4, 'ball', 5.5, 12);
    CREATE TABLE sales (id INTEGER PRIMARY KEY, product_id INTEGER REFERENCES products (id), quantity INTEGER);
    INSERT INTO sales VALUES (1, 1, 2), (2, 2, 10), (3, 2, 5), (4, 4, 1);`,
  small_school: `CREATE TABLE students (id INTEGER PRIMARY KEY, name TEXT NOT NULL, grade INTEGER, city TEXT);
    INSERT INTO students VALUES (1, 'Ada', 9, 'Lyon'), (2, 'Ben', 10, 'Porto'), (3, 'Cleo', 9, NULL), (4, 'Dev', 11, 'Lyon');`,
};

/** Six questions over the two databases, in BIRD's dev.json form. */
export const OFFICIAL_BIRD_ITEMS: OfficialBirdItem[] = [
  {
    question_id: 0,
    db_id: 'toy_shop',
    question: 'How many products are out of stock?',
    evidence: 'out of stock refers to stock = 0',
    SQL: 'SELECT COUNT(*) FROM products WHERE stock = 0',
    difficulty: 'simple',
  },
  {
    question_id: 1,
    db_id: 'toy_shop',
    question: 'What is the name of the most expensive product?',
    evidence: '',
    SQL: 'SELECT name FROM products ORDER BY price DESC LIMIT 1',
    difficulty: 'simple',
  },
  {
    question_id: 2,
    db_id: 'toy_shop',
    question: 'How many units of the yo-yo were sold in total?',
    evidence: 'units refers to quantity',
    SQL: "SELECT SUM(s.quantity) FROM sales AS s JOIN products AS p ON p.id = s.product_id WHERE p.name = 'yo-yo'",
    difficulty: 'moderate',
  },
  {
    question_id: 3,
    db_id: 'small_school',
    question: 'List the names of the students in grade 9.',
    evidence: '',
    SQL: 'SELECT name FROM students WHERE grade = 9',
    difficulty: 'simple',
  },
  {
    question_id: 4,
    db_id: 'small_school',
    question: 'Which city has the most students?',
    evidence: 'cities with no record are not counted',
    SQL: 'SELECT city FROM students WHERE city IS NOT NULL GROUP BY city ORDER BY COUNT(*) DESC LIMIT 1',
    difficulty: 'moderate',
  },
  {
    question_id: 5,
    db_id: 'small_school',
    question: 'What is the average grade of the students who live in Lyon?',
    evidence: '',
    SQL: "SELECT AVG(grade) FROM students WHERE city = 'Lyon'",
    difficulty: 'challenging',
  },
];

export interface WrittenBird {
  /** The folder to give as `suites.bird.data`. */
  dir: string;
  questions: string;
  databases: string;
  items: OfficialBirdItem[];
}

const LAYOUTS: Record<BirdLayoutKind, { questions: string; databases: string }> = {
  dev: { questions: 'dev.json', databases: 'dev_databases' },
  'dev-nested': { questions: 'dev.json', databases: 'dev_databases/dev_databases' },
  'mini-dev': { questions: 'mini_dev_sqlite.json', databases: 'dev_databases' },
  train: { questions: 'train.json', databases: 'train_databases' },
};

/** Writes one database `<root>/<db>/<db>.sqlite` of the generated set. */
export function writeBirdDatabase(root: string, dbId: keyof typeof DATABASES): string {
  mkdirSync(join(root, dbId), { recursive: true });
  const path = join(root, dbId, `${dbId}.sqlite`);
  const db = new Database(path);
  db.exec(DATABASES[dbId] as string);
  db.close();
  return path;
}

/** Writes a BIRD folder of the given layout into `dir` (items default to the six questions; train drops ids and difficulties). */
export function writeBirdFolder(
  dir: string,
  kind: BirdLayoutKind,
  items: OfficialBirdItem[] = OFFICIAL_BIRD_ITEMS,
): WrittenBird {
  const layout = LAYOUTS[kind];
  const databases = join(dir, layout.databases);
  for (const dbId of Object.keys(DATABASES)) writeBirdDatabase(databases, dbId);
  const written =
    kind === 'train' ? items.map(({ question_id: _id, difficulty: _difficulty, ...rest }) => rest) : items;
  const questions = join(dir, layout.questions);
  writeFileSync(questions, JSON.stringify(written, null, 2));
  return { dir, questions, databases, items: written };
}

/** Keeps only the first `bytes` of a file (a truncated download). */
export function truncateFile(path: string, bytes: number): void {
  writeFileSync(path, readFileSync(path).subarray(0, bytes));
}
