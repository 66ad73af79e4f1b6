/**
 * `witness data check --suite bird`: validates a BIRD folder (or questions file) in every split it
 * holds — the questions file and every item's fields (naming the item), every database the
 * questions name (present, a SQLite file of full length, openable read-only, with tables), every
 * gold SQL put through the run's gate on its database (gate.mjs: prepared, never run — a gold that
 * does not compile, writes, attaches, loads an extension, sets a PRAGMA or holds several statements
 * is named), and the sizes of the official releases. No BIRD checksum is built in: the release is recognized by its counts only.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import Database from 'better-sqlite3';
import { dataReport, type DataFinding, type DataReport } from '../../core/data-report.ts';
import { refusal } from './gate.mjs';
import { DEFAULT_QUERY_LIMITS } from './limits.ts';
import { textRefusal, type ExecFailure } from './pool-results.ts';
import {
  BIRD_SOURCE,
  birdDatabase,
  birdSplitsIn,
  readBirdQuestions,
  resolveBirdLayout,
  sqliteFileProblem,
  type BirdQuestion,
  type BirdSplit,
} from './loader.ts';

/** The official releases' sizes (questions, databases). */
const OFFICIAL_SIZES: Record<BirdSplit, { questions: number; databases: number }> = {
  dev: { questions: 1534, databases: 11 },
  'mini-dev': { questions: 500, databases: 11 },
  train: { questions: 9428, databases: 69 },
};

interface DatabaseCheck {
  findings: DataFinding[];
  /** Puts one SQL text through the run's gate on the database (prepared, never stepped): why it is refused, or null. */
  prepare?: (sql: string) => ExecFailure | null;
  close(): void;
}

const databaseItem = (dbId: string, questions: number) =>
  `db_id ${JSON.stringify(dbId)} (${questions} question${questions === 1 ? '' : 's'})`;

/** A db_id that names no file inside the database folder: never opened. */
function refusedDatabase(rel: string, dbId: string, questions: number, problem: string): DatabaseCheck {
  return {
    findings: [{ level: 'error', path: rel, item: databaseItem(dbId, questions), message: problem }],
    close() {},
  };
}

/** Present, full-length, openable read-only and with tables. */
function checkDatabase(path: string, rel: string, dbId: string, questions: number): DatabaseCheck {
  const item = databaseItem(dbId, questions);
  const problem = sqliteFileProblem(path);
  if (problem) return refusedDatabase(rel, dbId, questions, problem);
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const tables = db
      .prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .pluck()
      .get() as number;
    if (tables === 0) {
      db.close();
      return { findings: [{ level: 'error', path: rel, item, message: 'the database has no tables' }], close() {} };
    }
  } catch (error) {
    return {
      findings: [{ level: 'error', path: rel, item, message: `cannot open read-only: ${(error as Error).message}` }],
      close() {},
    };
  }
  const open = db;
  return {
    findings: [],
    prepare: (sql) => textRefusal(sql, DEFAULT_QUERY_LIMITS) ?? refusal(open, sql),
    close: () => open.close(),
  };
}

/** A loader message without its closing pointer to the release (the report prints the source once). */
const withoutSource = (error: unknown) =>
  (error as Error).message.replace(/ The official release is published at \S+$/, '');

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Checks one split of the folder; adds its counts. */
function checkSplit(data: string, split: BirdSplit, counts: Record<string, number>): DataFinding[] {
  let layout: ReturnType<typeof resolveBirdLayout>;
  try {
    layout = resolveBirdLayout(data, { split });
  } catch (error) {
    return [{ level: 'error', message: withoutSource(error) }];
  }
  const root = statSync(data).isFile() ? dirname(data) : data;
  const rel = (path: string) => relative(root, path) || path;
  const questionsFile = rel(layout.questions);
  let read: ReturnType<typeof readBirdQuestions>;
  try {
    read = readBirdQuestions(layout.questions);
  } catch (error) {
    return [{ level: 'error', path: questionsFile, message: (error as Error).message }];
  }
  const findings: DataFinding[] = [];
  for (const issue of read.issues)
    findings.push({
      level: 'error',
      path: questionsFile,
      item: issue.item.replace(`${layout.questions} `, ''),
      message: issue.message,
    });
  counts[`${split}.questions`] = read.questions.length + read.invalid.length;
  counts[`${split}.invalid`] = read.invalid.length;

  const byDb = new Map<string, BirdQuestion[]>();
  for (const q of read.questions) byDb.set(q.db_id, [...(byDb.get(q.db_id) ?? []), q]);
  let usable = 0;
  let prepared = 0;
  for (const [dbId, questions] of byDb) {
    const at = birdDatabase(layout.databases, dbId);
    const check =
      'path' in at
        ? checkDatabase(at.path, rel(at.path), dbId, questions.length)
        : refusedDatabase(rel(layout.databases), dbId, questions.length, at.problem);
    findings.push(...check.findings);
    if (!check.prepare) continue;
    usable++;
    for (const q of questions) {
      const refused = check.prepare(q.SQL);
      prepared++;
      if (refused)
        findings.push({
          level: 'error',
          path: questionsFile,
          item: `item ${q.index} (question ${q.question_id})`,
          message:
            refused.kind === 'syntax'
              ? `the gold SQL does not compile on ${dbId}: ${refused.message}`
              : `the run refuses the gold SQL (${refused.kind}): ${refused.message}`,
        });
    }
    check.close();
  }
  counts[`${split}.databases`] = usable;
  counts[`${split}.goldsPrepared`] = prepared;

  const onDisk = existsSync(layout.databases)
    ? readdirSync(layout.databases, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('__'))
    : [];
  const unused = onDisk.filter((e) => !byDb.has(e.name)).map((e) => e.name);
  if (unused.length)
    findings.push({
      level: 'info',
      path: rel(layout.databases),
      message: `${unused.length} database folder(s) no question uses: ${unused.slice(0, 10).join(', ')}${unused.length > 10 ? ', …' : ''}`,
    });
  const official = OFFICIAL_SIZES[split];
  const total = counts[`${split}.questions`] as number;
  findings.push(
    total === official.questions && byDb.size === official.databases
      ? {
          level: 'info',
          path: questionsFile,
          message: `the size of the official BIRD ${split} (${official.questions.toLocaleString('en-US')} questions over ${official.databases} databases)`,
        }
      : {
          level: 'info',
          path: questionsFile,
          message: `${total} questions over ${byDb.size} databases (the official BIRD ${split} has ${official.questions.toLocaleString('en-US')} over ${official.databases})`,
        },
  );
  findings.push({ level: 'info', path: questionsFile, message: `sha256 ${sha256(layout.questions)}` });
  return findings;
}

/** The data report of a BIRD folder or questions file (see the module comment). */
export function checkBirdData(data: string): DataReport {
  const base = { suite: 'bird', data, source: BIRD_SOURCE };
  if (!existsSync(data))
    return dataReport({ ...base, counts: {}, findings: [{ level: 'error', path: data, message: 'not found' }] });
  const splits = birdSplitsIn(data);
  const counts: Record<string, number> = {};
  if (splits.length === 0) {
    let message: string;
    try {
      resolveBirdLayout(data);
      message = 'no BIRD questions file';
    } catch (error) {
      message = withoutSource(error);
    }
    return dataReport({ ...base, counts, findings: [{ level: 'error', message }] });
  }
  const findings = splits.flatMap((split) => checkSplit(data, split, counts));
  return dataReport({ ...base, counts, findings });
}
