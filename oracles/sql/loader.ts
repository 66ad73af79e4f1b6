/**
 * BIRD-SQL data: `dev.json` (a JSON array; mini-dev's `.jsonl` too) of { question_id, db_id,
 * question, evidence, SQL, difficulty }, with each database at `<root>/<db_id>/<db_id>.sqlite`.
 * A broken item or a missing database becomes an issue naming the question; nothing is dropped.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { packagePath } from '../../core/package-root.ts';
import type { LoadedTasks, Task, TaskIssue } from '../../core/types.ts';
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
  difficulty: BirdDifficulty;
}

/** The fixtures shipped with Witness (BIRD layout: dev.json + dev_databases/). */
export const BIRD_FIXTURES = packagePath('fixtures', 'bird');

const QUESTION_FILES = ['dev.json', 'mini_dev_sqlite.json', 'mini_dev_sqlite.jsonl', 'dev.jsonl'];
const DATABASE_DIRS = ['dev_databases', 'databases', 'dev_databases/dev_databases'];

export interface BirdLayout {
  questions: string;
  databases: string;
}

/** Finds the questions file and the database root inside a BIRD folder; explicit paths win. */
export function resolveBirdLayout(dir: string, explicit: Partial<BirdLayout> = {}): BirdLayout {
  const questions = explicit.questions ?? QUESTION_FILES.map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!questions)
    throw new Error(`no BIRD questions file in ${dir} (looked for ${QUESTION_FILES.join(', ')}; or pass its path)`);
  const databases =
    explicit.databases ??
    DATABASE_DIRS.map((d) => join(dir, d)).find((d) => existsSync(d) && statSync(d).isDirectory());
  if (!databases)
    throw new Error(`no BIRD database folder in ${dir} (looked for ${DATABASE_DIRS.join(', ')}; or pass its path)`);
  return { questions: resolve(questions), databases: resolve(databases) };
}

export const birdDatabasePath = (root: string, dbId: string): string => resolve(root, dbId, `${dbId}.sqlite`);

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

/** Reads and checks every item of a BIRD questions file. */
export function readBirdQuestions(file: string): BirdQuestions {
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
    if (!BIRD_DIFFICULTIES.includes(item.difficulty as BirdDifficulty)) {
      return problem(
        `field "difficulty" must be one of ${BIRD_DIFFICULTIES.join(', ')}, got ${JSON.stringify(item.difficulty)}`,
      );
    }
    seen.add(id);
    questions.push({
      index,
      question_id: id,
      db_id: item.db_id as string,
      question: (item.question as string).trim(),
      evidence: ((item.evidence as string | undefined) ?? '').trim(),
      SQL: (item.SQL as string).trim(),
      difficulty: item.difficulty as BirdDifficulty,
    });
  });
  return { questions, invalid, issues };
}

/** The CREATE statements of a database, as prompts show them; an error names the file. */
function schemaText(path: string): string {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return readSchema(db).createStatements.join('\n\n');
  } finally {
    db.close();
  }
}

export interface LoadBirdOptions extends Partial<BirdLayout> {
  benchmark?: string;
  /** Only the first N questions. */
  limit?: number;
}

/** BIRD questions as Witness tasks: id = question_id, context = { db_id, db_path, evidence, schema }. */
export function loadBird(dir: string, options: LoadBirdOptions = {}): LoadedTasks {
  const layout = resolveBirdLayout(dir, options);
  const { questions, issues } = readBirdQuestions(layout.questions);
  const schemas = new Map<string, { schema: string } | { error: string }>();
  const tasks: Task[] = [];
  for (const q of questions.slice(0, options.limit ?? Infinity)) {
    const path = birdDatabasePath(layout.databases, q.db_id);
    let schema = schemas.get(q.db_id);
    if (!schema) {
      try {
        schema = existsSync(path) ? { schema: schemaText(path) } : { error: `database not found: ${path}` };
      } catch (error) {
        schema = { error: `cannot read the database ${path}: ${(error as Error).message}` };
      }
      schemas.set(q.db_id, schema);
    }
    if ('error' in schema) {
      issues.push({ item: `question ${q.question_id} (db_id "${q.db_id}")`, message: schema.error });
      continue;
    }
    tasks.push({
      id: String(q.question_id),
      benchmark: options.benchmark ?? 'bird',
      description: q.question,
      gold: q.SQL,
      context: { db_id: q.db_id, db_path: path, evidence: q.evidence, schema: schema.schema },
      meta: { difficulty: q.difficulty, file: layout.questions, index: q.index },
    });
  }
  return { tasks, issues };
}
