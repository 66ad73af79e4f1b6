/**
 * CypherBench's question format (benchmarks.md §2.2): a JSON list of items with `qid`, `graph`,
 * `gold_cypher`, `nl_question`, optionally `answer_json` (the gold result as JSON text),
 * `from_template` {match_category, match_cypher, return_pattern_id, return_cypher},
 * `gold_match_cypher`, `nl_question_raw`. Each item becomes a Task; a broken item becomes a
 * TaskIssue naming it, and the rest load.
 */
import { readFileSync } from 'node:fs';
import type { JsonObject, LoadedTasks, Task, TaskIssue } from '../../core/types.ts';

export interface CypherBenchItem {
  qid: string;
  graph: string;
  gold_cypher: string;
  nl_question: string;
  answer_json?: string | null;
  gold_match_cypher?: string | null;
  nl_question_raw?: string | null;
  from_template?: { match_category?: string; match_cypher?: string; return_pattern_id?: string; return_cypher?: string };
  /** Prediction files add these. */
  pred_cypher?: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a CypherBench JSON list, or throws an Error naming the file when it is not one. */
export function readCypherBenchItems(file: string): unknown[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: cannot read a CypherBench question list (${(error as Error).message})`);
  }
  if (!Array.isArray(raw)) throw new Error(`${file}: a CypherBench question file is a JSON list of items`);
  return raw;
}

/** Validates one item; returns the item or the problem. `where` names it when it has no qid. */
export function parseItem(raw: unknown, where: string): CypherBenchItem | TaskIssue {
  if (!isObject(raw)) return { item: where, message: 'not an object' };
  const item = typeof raw.qid === 'string' && raw.qid ? `question ${raw.qid}` : where;
  if (typeof raw.qid !== 'string' || !raw.qid) return { item, message: 'qid is missing' };
  for (const field of ['graph', 'gold_cypher', 'nl_question'] as const) {
    if (typeof raw[field] !== 'string' || !(raw[field] as string).trim()) return { item, message: `${field} is missing or not a string` };
  }
  for (const field of ['answer_json', 'gold_match_cypher', 'nl_question_raw', 'pred_cypher'] as const) {
    if (raw[field] !== undefined && raw[field] !== null && typeof raw[field] !== 'string') return { item, message: `${field} must be a string` };
  }
  if (raw.from_template !== undefined && raw.from_template !== null && !isObject(raw.from_template)) return { item, message: 'from_template must be an object' };
  return raw as unknown as CypherBenchItem;
}

function toTask(item: CypherBenchItem, file: string, index: number): Task {
  const meta: JsonObject = { file, index, graph: item.graph };
  if (item.from_template?.match_category) meta.match_category = item.from_template.match_category;
  if (item.from_template?.return_pattern_id) meta.return_pattern_id = item.from_template.return_pattern_id;
  if (typeof item.answer_json === 'string') meta.answer_json = item.answer_json;
  return { id: item.qid, benchmark: 'cypherbench', description: item.nl_question, gold: item.gold_cypher, context: { graph: item.graph }, meta };
}

/** Loads a CypherBench question file as tasks; `graphs` keeps only items of those graphs. */
export function loadCypherBenchQuestions(file: string, options: { graphs?: readonly string[] } = {}): LoadedTasks {
  let items: unknown[];
  try {
    items = readCypherBenchItems(file);
  } catch (error) {
    return { tasks: [], issues: [{ item: file, message: (error as Error).message }] };
  }
  const tasks: Task[] = [];
  const issues: TaskIssue[] = [];
  const seen = new Set<string>();
  items.forEach((raw, index) => {
    const parsed = parseItem(raw, `${file} item ${index}`);
    if ('message' in parsed) {
      issues.push(parsed);
      return;
    }
    if (seen.has(parsed.qid)) {
      issues.push({ item: `question ${parsed.qid}`, message: `qid appears more than once in ${file}` });
      return;
    }
    seen.add(parsed.qid);
    if (options.graphs && !options.graphs.includes(parsed.graph)) return;
    tasks.push(toTask(parsed, file, index));
  });
  return { tasks, issues };
}
