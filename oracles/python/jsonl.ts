/** Reading JSON Lines datasets (plain or gzipped), one record per line, each bad line reported by number. */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { LoadedTasks, Task } from '../../core/types.ts';

export interface JsonlRecord {
  line: number;
  value: Record<string, unknown>;
}

export interface JsonlIssue {
  line: number;
  message: string;
}

/** Parses a .jsonl, .jsonl.gz, or JSON-array file; a line that is not a JSON object is an issue, not a crash. */
export function readJsonl(path: string): { records: JsonlRecord[]; issues: JsonlIssue[] } {
  let raw: Buffer;
  try {
    raw = readFileSync(path);
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
  let text: string;
  try {
    text = (path.endsWith('.gz') || (raw[0] === 0x1f && raw[1] === 0x8b) ? gunzipSync(raw) : raw).toString('utf8');
  } catch (error) {
    throw new Error(`cannot decompress ${path}: ${(error as Error).message}`);
  }
  const records: JsonlRecord[] = [];
  const issues: JsonlIssue[] = [];
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    let array: unknown;
    try {
      array = JSON.parse(trimmed);
    } catch (error) {
      throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
    }
    (array as unknown[]).forEach((value, i) => {
      if (value && typeof value === 'object' && !Array.isArray(value))
        records.push({ line: i + 1, value: value as Record<string, unknown> });
      else issues.push({ line: i + 1, message: 'item is not a JSON object' });
    });
    return { records, issues };
  }
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value))
        records.push({ line: i + 1, value: value as Record<string, unknown> });
      else issues.push({ line: i + 1, message: 'line is not a JSON object' });
    } catch (error) {
      issues.push({ line: i + 1, message: `invalid JSON: ${(error as Error).message}` });
    }
  });
  return { records, issues };
}

/** What a JSON value is, in words ("a number", "null", "an array"). */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The string fields of a record, or the names of those missing or not strings. */
export function stringFields<K extends string>(
  value: Record<string, unknown>,
  keys: readonly K[],
): { fields: Record<K, string>; missing: K[] } {
  const fields = {} as Record<K, string>;
  const missing: K[] = [];
  for (const key of keys) {
    const v = value[key];
    if (typeof v === 'string') fields[key] = v;
    else if (typeof v === 'number' && Number.isFinite(v)) fields[key] = String(v);
    else missing.push(key);
  }
  return { fields, missing };
}

/**
 * Tasks from a JSON Lines dataset: each record must have the string `fields`; `toTask` validates
 * the rest and builds the task (or returns the problem). Broken lines, missing fields, failed checks
 * and repeated ids become issues naming file and line; the other records load. `prepare` may
 * normalize a record before its fields are read.
 */
export function loadJsonlTasks<K extends string>(
  path: string,
  fields: readonly K[],
  idField: K,
  toTask: (fields: Record<K, string>) => Omit<Task, 'meta'> | { problem: string },
  prepare: (value: Record<string, unknown>) => Record<string, unknown> = (value) => value,
): LoadedTasks {
  const { records, issues: parseIssues } = readJsonl(path);
  const name = basename(path);
  const issues = parseIssues.map((i) => ({ item: `${name}:${i.line}`, message: i.message }));
  const tasks: Task[] = [];
  const seen = new Set<string>();
  for (const { line, value } of records) {
    const item = `${name}:${line}`;
    const { fields: found, missing } = stringFields(prepare(value), fields);
    if (missing.length) {
      issues.push({ item, message: `missing or non-string field(s): ${missing.join(', ')}` });
      continue;
    }
    const built = toTask(found);
    if ('problem' in built) {
      issues.push({ item, message: built.problem });
      continue;
    }
    if (seen.has(found[idField])) {
      issues.push({ item, message: `${idField} ${found[idField]} appears twice` });
      continue;
    }
    seen.add(found[idField]);
    tasks.push({ ...built, meta: { source: name, line } });
  }
  return { tasks, issues };
}
