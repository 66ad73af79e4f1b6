/**
 * Test support: a hostile BIRD folder, generated in a temporary folder. Beside the six sound
 * questions of testing/layouts/sql.ts it holds questions whose db_id points outside the folder (a
 * relative path up and out, an absolute path, a database file and a database folder that are
 * symbolic links to outside), golds the run refuses (a write, ATTACH, load_extension, a PRAGMA
 * setter, two statements), and text meant for a terminal (escape sequences in a db_id). The
 * database outside holds a table named OUTSIDE_TABLE: it must never reach a prompt or a report.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  OFFICIAL_BIRD_ITEMS,
  writeBirdFolder,
  type OfficialBirdItem,
  type WrittenBird,
} from '../../../testing/layouts/sql.ts';

/** The one table of the databases outside the data folder. */
export const OUTSIDE_TABLE = 'outside_secret';

export interface HostileBird extends WrittenBird {
  /** The folder outside the data folder, with its databases. */
  outside: string;
  /** Question ids whose db_id leads outside, with the db_id. */
  escapes: { questionId: number; dbId: string }[];
  /** Question ids whose gold the run refuses, with the statement's kind. */
  refusedGolds: { questionId: number; why: RegExp }[];
  /** A question whose db_id carries terminal escape sequences (its database does not exist). */
  escapeSequences: { questionId: number; dbId: string };
}

function writeOutsideDatabase(path: string): void {
  const db = new Database(path);
  db.exec(`CREATE TABLE ${OUTSIDE_TABLE} (x TEXT); INSERT INTO ${OUTSIDE_TABLE} VALUES ('found outside');`);
  db.close();
}

/** Writes `<base>/data` (the BIRD folder to point Witness at) and `<base>/outside`. */
export function writeHostileBirdFolder(base: string): HostileBird {
  const outside = join(base, 'outside');
  mkdirSync(outside, { recursive: true });
  writeOutsideDatabase(join(outside, 'outside.sqlite'));
  writeOutsideDatabase(join(outside, 'linked_folder.sqlite'));
  const escapes = [
    { questionId: 10, dbId: '../../outside/outside' },
    { questionId: 11, dbId: join(outside, 'outside') },
    { questionId: 12, dbId: 'linked_file' },
    { questionId: 13, dbId: 'linked_folder' },
  ];
  const refusedGolds = [
    { questionId: 20, sql: 'DELETE FROM products', why: /DELETE modifies the database/ },
    { questionId: 21, sql: "ATTACH DATABASE 'other.sqlite' AS other", why: /ATTACH opens another database file/ },
    { questionId: 22, sql: "SELECT load_extension('libc.so.6')", why: /load_extension loads native code/ },
    { questionId: 23, sql: 'PRAGMA mmap_size = 0', why: /this PRAGMA changes a setting/ },
    { questionId: 24, sql: 'SELECT 1; SELECT 2', why: /the text holds several statements/ },
  ];
  const escapeSequences = { questionId: 30, dbId: 'shop\u001b[2J\u001b]0;pwned\u0007\u202e' };
  const question = (questionId: number, dbId: string, SQL: string): OfficialBirdItem => ({
    question_id: questionId,
    db_id: dbId,
    question: `What does question ${questionId} find?`,
    evidence: '',
    SQL,
    difficulty: 'simple',
  });
  const items = [
    ...OFFICIAL_BIRD_ITEMS,
    ...escapes.map((e) => question(e.questionId, e.dbId, `SELECT x FROM ${OUTSIDE_TABLE}`)),
    ...refusedGolds.map((g) => question(g.questionId, 'toy_shop', g.sql)),
    question(escapeSequences.questionId, escapeSequences.dbId, 'SELECT 1'),
  ];
  const written = writeBirdFolder(join(base, 'data'), 'dev', items);
  mkdirSync(join(written.databases, 'linked_file'));
  symlinkSync(join(outside, 'outside.sqlite'), join(written.databases, 'linked_file', 'linked_file.sqlite'));
  symlinkSync(outside, join(written.databases, 'linked_folder'));
  return {
    ...written,
    outside,
    escapes,
    refusedGolds: refusedGolds.map(({ questionId, why }) => ({ questionId, why })),
    escapeSequences,
  };
}
