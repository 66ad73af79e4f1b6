/**
 * BIRD prediction files: BIRD's JSON object keyed by the question's position in the questions file
 * (`{"0": "SQL\t----- bird -----\tdb_id", …}`), or JSON Lines (or a JSON array) of objects with
 * `question_id` and `SQL` (also `sql`, `predicted_sql`), optionally `db_id`. Every entry that
 * cannot be used is an issue naming it.
 */
import { readFileSync } from 'node:fs';
import type { TaskIssue } from '../../core/types.ts';
import type { BirdQuestion, InvalidBirdItem } from './loader.ts';

const BIRD_SEPARATOR = '\t----- bird -----\t';

export interface Prediction {
  sql: string;
  /** The database the prediction names, when it names one. */
  dbId?: string;
}

export interface ReadPredictions {
  format: 'bird-json' | 'jsonl';
  /** By position in the questions file. */
  byIndex: Map<number, Prediction | { invalid: string }>;
  issues: TaskIssue[];
}

/** "SQL\t----- bird -----\tdb_id" → { sql, dbId }; a string without the separator is all SQL. */
function parseBirdPrediction(text: string): Prediction {
  const at = text.lastIndexOf(BIRD_SEPARATOR);
  if (at === -1) return { sql: text.trim() };
  return { sql: text.slice(0, at).trim(), dbId: text.slice(at + BIRD_SEPARATOR.length).trim() };
}

const SQL_FIELDS = ['SQL', 'sql', 'predicted_sql'];

/**
 * Reads a predictions file and aligns it with the questions by their position in the questions file
 * (`BirdQuestion.index`), invalid items of that file included: they keep their positions and ids.
 */
export function readPredictions(
  file: string,
  questions: readonly BirdQuestion[],
  invalid: readonly InvalidBirdItem[] = [],
): ReadPredictions {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the predictions file ${file}: ${(error as Error).message}`);
  }
  const issues: TaskIssue[] = [];
  const byIndex = new Map<number, Prediction | { invalid: string }>();
  const trimmed = text.trim();
  let parsed: unknown;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined; // JSON Lines start with '{' too
    }
  }
  if (parsed !== undefined && !Array.isArray(parsed)) {
    if (typeof parsed !== 'object' || parsed === null)
      throw new Error(`${file}: expected a JSON object keyed by question position`);
    const items = questions.length + invalid.length;
    const usable = new Set(questions.map((q) => q.index));
    for (const [key, value] of Object.entries(parsed)) {
      const index = Number(key);
      if (!Number.isInteger(index) || index < 0 || index >= items) {
        issues.push({
          item: `${file} key "${key}"`,
          message: `no question at position ${key} (the questions file has ${items} items)`,
        });
        continue;
      }
      if (!usable.has(index)) continue; // an invalid item of the questions file: already named, scored 0
      // BIRD replaces a non-string prediction with an empty query, which scores 0.
      byIndex.set(
        index,
        typeof value === 'string'
          ? parseBirdPrediction(value)
          : { invalid: `the prediction is not a string (${JSON.stringify(value)})` },
      );
    }
    return { format: 'bird-json', byIndex, issues };
  }
  const positions = new Map(questions.map((q) => [q.question_id, q.index]));
  const invalidIds = new Set(invalid.flatMap((item) => (item.question_id === null ? [] : [item.question_id])));
  const records: { item: string; value: unknown }[] = Array.isArray(parsed)
    ? parsed.map((value, i) => ({ item: `${file} item ${i}`, value }))
    : text.split(/\r?\n/).flatMap((line, i) => {
        if (line.trim() === '') return [];
        try {
          return [{ item: `${file}:${i + 1}`, value: JSON.parse(line) as unknown }];
        } catch (error) {
          issues.push({ item: `${file}:${i + 1}`, message: `not valid JSON: ${(error as Error).message}` });
          return [];
        }
      });
  for (const { item, value } of records) {
    const record = (value ?? {}) as Record<string, unknown>;
    const id = record.question_id;
    const index = typeof id === 'number' ? positions.get(id) : undefined;
    if (index === undefined && typeof id === 'number' && invalidIds.has(id)) continue; // already named, scored 0
    if (index === undefined) {
      issues.push({ item, message: `question_id ${JSON.stringify(id)} matches no question` });
      continue;
    }
    const field = SQL_FIELDS.find((f) => typeof record[f] === 'string');
    if (byIndex.has(index))
      issues.push({ item, message: `a second prediction for question ${String(id)}; the last one is used` });
    byIndex.set(
      index,
      field
        ? {
            ...parseBirdPrediction(record[field] as string),
            ...(typeof record.db_id === 'string' ? { dbId: record.db_id } : {}),
          }
        : { invalid: `no ${SQL_FIELDS.join(' / ')} string field` },
    );
  }
  return { format: 'jsonl', byIndex, issues };
}
