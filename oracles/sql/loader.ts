/**
 * BIRD-SQL data in its official layouts: dev (`dev.json` + `dev_databases/`, also the zip's nested
 * `dev_databases/dev_databases/`), mini-dev (`mini_dev_sqlite.json[l]` + `dev_databases/`) and train
 * (`train.json` + `train_databases/`; its items have no question_id nor difficulty). Items are
 * { question_id, db_id, question, evidence, SQL, difficulty }, each database at
 * `<root>/<db_id>/<db_id>.sqlite`. A broken item or a missing database becomes an issue naming the
 * question; nothing is dropped. Loading opens no database: a schema is read when first asked for.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { betterSqlite3 } from './better-sqlite3.ts';
import { packagePath } from '../../core/package-root.ts';
import { resolveInside, type Inside } from '../../core/paths-inside.ts';
import type { JsonObject, LoadedTasks, Task, TaskIssue } from '../../core/types.ts';
import { readSchema } from './schema.ts';

export const BIRD_DIFFICULTIES = ['simple', 'moderate', 'challenging'] as const;
export type BirdDifficulty = (typeof BIRD_DIFFICULTIES)[number];

export interface BirdQuestion {
  /** Position in the questions file (0-based): BIRD's prediction files are keyed by it. */
  index: number;
  question_id: number;
  db_id: string;
  question: string;
  evidence: string;
  SQL: string;
  /** Null only where the split has none (train). */
  difficulty: BirdDifficulty | null;
}

/** The fixtures shipped with Witness (BIRD layout: dev.json + dev_databases/). */
export const BIRD_FIXTURES = packagePath('fixtures', 'bird');

/** BIRD's releases: dev (1,534 questions, 11 databases), mini-dev (500 of them) and train (9,428, 69 databases). */
export const BIRD_SPLITS = ['dev', 'mini-dev', 'train'] as const;
export type BirdSplit = (typeof BIRD_SPLITS)[number];

/** Where the official BIRD data is published (never downloaded by Witness). */
export const BIRD_SOURCE = { name: 'BIRD-SQL', url: 'https://bird-bench.github.io/' };

interface SplitFiles {
  /** Questions file names, first found wins. */
  questions: string[];
  /** Database folders, first found wins (the zip's nested `dev_databases/dev_databases` first). */
  databases: string[];
  /** Folders of the unpacked release inside the given one ('' = the folder itself). */
  subfolders: string[];
}

const SPLIT_FILES: Record<BirdSplit, SplitFiles> = {
  dev: {
    questions: ['dev.json', 'dev.jsonl'],
    databases: ['dev_databases/dev_databases', 'dev_databases', 'databases'],
    subfolders: ['', 'dev'],
  },
  'mini-dev': {
    questions: ['mini_dev_sqlite.json', 'mini_dev_sqlite.jsonl'],
    databases: ['dev_databases/dev_databases', 'dev_databases', 'databases'],
    subfolders: ['', 'MINIDEV', 'minidev/MINIDEV'],
  },
  train: {
    questions: ['train.json', 'train.jsonl'],
    databases: ['train_databases/train_databases', 'train_databases', 'databases'],
    subfolders: ['', 'train'],
  },
};

export interface BirdLayout {
  questions: string;
  databases: string;
}

const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();
const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/** The split a questions file belongs to, by its name (train.json, mini_dev_sqlite.json, else dev). */
export function birdSplitOfFile(file: string): BirdSplit {
  const name = basename(file);
  if (name.startsWith('train')) return 'train';
  if (name.startsWith('mini_dev')) return 'mini-dev';
  return 'dev';
}

/** The questions file of one split inside a BIRD folder, or undefined. */
function questionsOf(dir: string, split: BirdSplit): string | undefined {
  const files = SPLIT_FILES[split];
  for (const sub of files.subfolders)
    for (const name of files.questions) if (isFile(join(dir, sub, name))) return join(dir, sub, name);
  return undefined;
}

/** The splits whose questions file is in a BIRD folder (a questions file given directly: its own split). */
export function birdSplitsIn(data: string): BirdSplit[] {
  if (isFile(data)) return [birdSplitOfFile(data)];
  return BIRD_SPLITS.filter((split) => questionsOf(data, split) !== undefined);
}

/** What `suites.bird.data` may hold, for messages. */
const lookedFor = (split?: BirdSplit) =>
  (split ? [split] : BIRD_SPLITS)
    .flatMap((s) => SPLIT_FILES[s].subfolders.flatMap((sub) => SPLIT_FILES[s].questions.map((q) => join(sub, q))))
    .join(', ');

/**
 * Finds the questions file and the database folder in a BIRD folder (or beside a questions file
 * given directly): the split asked for, else dev, mini-dev or train, whichever is there first.
 * Explicit paths win. An unknown split or a split that is not there is an error saying what is.
 */
export function resolveBirdLayout(
  data: string,
  explicit: Partial<BirdLayout> & { split?: string } = {},
): BirdLayout & { split: BirdSplit } {
  const { split: asked } = explicit;
  if (asked !== undefined && !BIRD_SPLITS.includes(asked as BirdSplit))
    throw new Error(`unknown BIRD split "${asked}" (known: ${BIRD_SPLITS.join(', ')})`);
  let questions = explicit.questions;
  if (!questions && isFile(data)) questions = data;
  if (!questions) {
    const present = birdSplitsIn(data);
    const split = (asked as BirdSplit | undefined) ?? present[0];
    questions = split ? questionsOf(data, split) : undefined;
    if (!questions) {
      const there = present.length ? ` (it has: ${present.join(', ')})` : '';
      throw new Error(
        `no BIRD ${asked ? `${asked} ` : ''}questions file in ${data}${there}; looked for ${lookedFor(asked as BirdSplit | undefined)} ` +
          `(or pass its path). The official release is published at ${BIRD_SOURCE.url}`,
      );
    }
  }
  const split = birdSplitOfFile(questions);
  if (asked !== undefined && asked !== split && !explicit.questions && questions === data)
    throw new Error(`${data} is a ${split} questions file, not ${asked}`);
  const base = dirname(questions);
  // Beside the questions first, unless they were named explicitly (then the folder given wins).
  const candidates = [...new Set((explicit.questions ? [data, base] : [base, data]).filter((d) => isDir(d)))];
  const databases =
    explicit.databases ??
    candidates.flatMap((dir) => SPLIT_FILES[split].databases.map((d) => join(dir, d))).find((d) => isDir(d));
  if (!databases)
    throw new Error(
      `no BIRD database folder beside ${questions} (looked for ${SPLIT_FILES[split].databases.join(', ')}; or pass its path). ` +
        `The official release is published at ${BIRD_SOURCE.url}`,
    );
  return { questions: resolve(questions), databases: resolve(databases), split };
}

/**
 * Where a db_id's database is: `<root>/<db_id>/<db_id>.sqlite`, when the db_id is one plain name and
 * the file, symbolic links followed, lies inside `root`; else why it cannot be (core/paths-inside.ts).
 */
export const birdDatabase = (root: string, dbId: string): Inside => resolveInside(root, dbId, `${dbId}.sqlite`);

/** `birdDatabase`'s path for a db_id known to be sound; throws naming the db_id otherwise. */
export function birdDatabasePath(root: string, dbId: string): string {
  const at = birdDatabase(root, dbId);
  if ('problem' in at) throw new Error(`db_id ${at.problem}`);
  return at.path;
}

function parseItems(file: string): unknown[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
    }
    return parsed as unknown[];
  }
  return text.split(/\r?\n/).flatMap((line, i) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line)];
    } catch (error) {
      return [{ __invalid: `line ${i + 1} is not valid JSON: ${(error as Error).message}` }];
    }
  });
}

/** An item of the questions file that is not a usable question: it keeps its position and scores 0. */
export interface InvalidBirdItem {
  index: number;
  /** What could be read of it. */
  question_id: number | null;
  db_id: string | null;
  difficulty: BirdDifficulty | null;
  message: string;
}

export interface BirdQuestions {
  questions: BirdQuestion[];
  /** Every item that is not a usable question, in file order (each also in `issues`). */
  invalid: InvalidBirdItem[];
  issues: TaskIssue[];
}

export interface ReadBirdOptions {
  /** Items may lack `difficulty` (BIRD train has none); default: only files of the train split. */
  difficultyOptional?: boolean;
}

/** Reads and checks every item of a BIRD questions file. */
export function readBirdQuestions(file: string, options: ReadBirdOptions = {}): BirdQuestions {
  const difficultyOptional = options.difficultyOptional ?? birdSplitOfFile(file) === 'train';
  const items = parseItems(file);
  const questions: BirdQuestion[] = [];
  const invalid: InvalidBirdItem[] = [];
  const issues: TaskIssue[] = [];
  const seen = new Set<number>();
  items.forEach((raw, index) => {
    const item = (raw ?? {}) as Record<string, unknown>;
    const id = item.question_id ?? index;
    const name = `${file} item ${index} (question ${String(id)})`;
    const problem = (message: string) => {
      issues.push({ item: name, message });
      invalid.push({
        index,
        question_id: typeof id === 'number' && Number.isInteger(id) ? id : null,
        db_id: typeof item.db_id === 'string' ? item.db_id : null,
        difficulty: BIRD_DIFFICULTIES.includes(item.difficulty as BirdDifficulty)
          ? (item.difficulty as BirdDifficulty)
          : null,
        message,
      });
    };
    if (typeof item.__invalid === 'string') return problem(item.__invalid);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return problem('not a JSON object');
    if (typeof id !== 'number' || !Number.isInteger(id))
      return problem(`question_id must be an integer, got ${JSON.stringify(id)}`);
    if (seen.has(id)) return problem(`question_id ${id} appears twice`);
    for (const field of ['db_id', 'question', 'SQL'] as const) {
      if (typeof item[field] !== 'string' || (item[field] as string).trim() === '')
        return problem(`field "${field}" must be a non-empty string`);
    }
    if (item.evidence !== undefined && typeof item.evidence !== 'string')
      return problem('field "evidence" must be a string');
    const noDifficulty = difficultyOptional && item.difficulty === undefined;
    if (!noDifficulty && !BIRD_DIFFICULTIES.includes(item.difficulty as BirdDifficulty)) {
      const got = item.difficulty === undefined ? 'it is missing' : `got ${JSON.stringify(item.difficulty)}`;
      return problem(`field "difficulty" must be one of ${BIRD_DIFFICULTIES.join(', ')}, ${got}`);
    }
    seen.add(id);
    questions.push({
      index,
      question_id: id,
      db_id: item.db_id as string,
      question: (item.question as string).trim(),
      evidence: ((item.evidence as string | undefined) ?? '').trim(),
      SQL: (item.SQL as string).trim(),
      difficulty: noDifficulty ? null : (item.difficulty as BirdDifficulty),
    });
  });
  return { questions, invalid, issues };
}

/** The CREATE statements of a database, as prompts show them; an error names the file. */
function schemaText(path: string): string {
  const db = new (betterSqlite3())(path, { readonly: true, fileMustExist: true });
  try {
    return readSchema(db).createStatements.join('\n\n');
  } finally {
    db.close();
  }
}

const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * Why a file cannot be a SQLite database, or null; reads its 100-byte header only: missing, a
 * folder, no SQLite header, or shorter than the page count its header records (a truncated copy).
 */
export function sqliteFileProblem(path: string): string | null {
  if (!existsSync(path)) return `database not found: ${path}`;
  const stat = statSync(path);
  if (!stat.isFile()) return `not a file: ${path}`;
  const header = Buffer.alloc(100);
  const fd = openSync(path, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (header.toString('latin1', 0, 16) !== SQLITE_HEADER) return `not a SQLite database (no SQLite header): ${path}`;
  if (read < 100) return `truncated SQLite database: ${path} has ${read} bytes, less than its 100-byte header`;
  const pageSize = header.readUInt16BE(16) === 1 ? 65_536 : header.readUInt16BE(16);
  const pages = header.readUInt32BE(28);
  // The recorded page count is valid only when its version matches the change counter (SQLite file format §1.3.7).
  const countValid = pages > 0 && header.readUInt32BE(92) === header.readUInt32BE(24);
  if (countValid && stat.size < pages * pageSize)
    return `truncated SQLite database: ${path} has ${stat.size} bytes, its header records ${pages} pages of ${pageSize} bytes (${pages * pageSize})`;
  return null;
}

/** Schema text per database file, read on first use; a failure reads as a comment naming the file. */
function lazySchemas(): (path: string) => string {
  const cache = new Map<string, string>();
  return (path) => {
    let text = cache.get(path);
    if (text === undefined) {
      try {
        text = schemaText(path);
      } catch (error) {
        // The oracle's prepare reports the database as the task's input error before any prompt.
        text = `-- cannot read the schema of ${path}: ${(error as Error).message}`;
      }
      cache.set(path, text);
    }
    return text;
  };
}

export interface LoadBirdOptions extends Partial<BirdLayout> {
  benchmark?: string;
  /** Only the first N questions. */
  limit?: number;
  /** dev, mini-dev or train (default: the first of them in the folder). */
  split?: string;
}

/**
 * BIRD questions as Witness tasks: id = question_id, context = { db_id, db_path, evidence, schema }.
 * `data` is a BIRD folder or a questions file. Each database is checked once (present, SQLite
 * header); `context.schema` is read from it when first used, so loading a split opens no database.
 */
export function loadBird(data: string, options: LoadBirdOptions = {}): LoadedTasks {
  const layout = resolveBirdLayout(data, options);
  const { questions, issues } = readBirdQuestions(layout.questions);
  // Per db_id: its database file, or why the question cannot use it (checked once; nothing outside `databases` is opened).
  const databases = new Map<string, Inside>();
  const databaseOf = (dbId: string): Inside => {
    let at = databases.get(dbId);
    if (!at) {
      at = birdDatabase(layout.databases, dbId);
      const problem = 'path' in at ? sqliteFileProblem(at.path) : null;
      if (problem) at = { problem };
      databases.set(dbId, at);
    }
    return at;
  };
  const schemaOf = lazySchemas();
  const tasks: Task[] = [];
  for (const q of questions.slice(0, options.limit ?? Infinity)) {
    const at = databaseOf(q.db_id);
    if ('problem' in at) {
      issues.push({ item: `question ${q.question_id} (db_id ${JSON.stringify(q.db_id)})`, message: at.problem });
      continue;
    }
    const { path } = at;
    const context: JsonObject = { db_id: q.db_id, db_path: path, evidence: q.evidence };
    Object.defineProperty(context, 'schema', { enumerable: true, get: () => schemaOf(path) });
    tasks.push({
      id: String(q.question_id),
      benchmark: options.benchmark ?? 'bird',
      description: q.question,
      gold: q.SQL,
      context,
      meta: { difficulty: q.difficulty, file: layout.questions, index: q.index, split: layout.split },
    });
  }
  return { tasks, issues };
}
