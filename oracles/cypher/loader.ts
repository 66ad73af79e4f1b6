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
  from_template?: {
    match_category?: string;
    match_cypher?: string;
    return_pattern_id?: string;
    return_cypher?: string;
  };
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
function parseItem(raw: unknown, where: string): CypherBenchItem | TaskIssue {
  if (!isObject(raw)) return { item: where, message: 'not an object' };
  const item = typeof raw.qid === 'string' && raw.qid ? `question ${raw.qid}` : where;
  if (typeof raw.qid !== 'string' || !raw.qid) return { item, message: 'qid is missing' };
  for (const field of ['graph', 'gold_cypher', 'nl_question'] as const) {
    if (typeof raw[field] !== 'string' || !(raw[field] as string).trim())
      return { item, message: `${field} is missing or not a string` };
  }
  for (const field of ['answer_json', 'gold_match_cypher', 'nl_question_raw', 'pred_cypher'] as const) {
    if (raw[field] !== undefined && raw[field] !== null && typeof raw[field] !== 'string')
      return { item, message: `${field} must be a string` };
  }
  if (raw.from_template !== undefined && raw.from_template !== null && !isObject(raw.from_template))
    return { item, message: 'from_template must be an object' };
  return raw as unknown as CypherBenchItem;
}

function toTask(item: CypherBenchItem, file: string, index: number): Task {
  const meta: JsonObject = { file, index, graph: item.graph };
  if (item.from_template?.match_category) meta.match_category = item.from_template.match_category;
  if (item.from_template?.return_pattern_id) meta.return_pattern_id = item.from_template.return_pattern_id;
  if (typeof item.answer_json === 'string') meta.answer_json = item.answer_json;
  return {
    id: item.qid,
    benchmark: 'cypherbench',
    description: item.nl_question,
    gold: item.gold_cypher,
    context: { graph: item.graph },
    meta,
  };
}

/** An item of the question file that cannot be used, at its position, with what can be read of it. */
export interface InvalidItem {
  /** Position in the question file. */
  index: number;
  qid: string | null;
  graph: string | null;
  category: string | null;
  issue: TaskIssue;
}

export interface LoadedCypherBench extends LoadedTasks {
  /** The unusable items, by position (each one also among `issues`). */
  invalid: InvalidItem[];
  /** How many items the file has, usable or not (0 when the file itself cannot be read). */
  itemCount: number;
}

const stringOrNull = (v: unknown) => (typeof v === 'string' && v ? v : null);

/** Loads a CypherBench question file as tasks, keeping the position and what is readable of every unusable item. */
export function loadCypherBenchFile(file: string, options: { graphs?: readonly string[] } = {}): LoadedCypherBench {
  let items: unknown[];
  try {
    items = readCypherBenchItems(file);
  } catch (error) {
    return { tasks: [], issues: [{ item: file, message: (error as Error).message }], invalid: [], itemCount: 0 };
  }
  const tasks: Task[] = [];
  const issues: TaskIssue[] = [];
  const invalid: InvalidItem[] = [];
  const seen = new Set<string>();
  const refuse = (raw: unknown, index: number, issue: TaskIssue) => {
    const fields = isObject(raw) ? raw : {};
    const graph = stringOrNull(fields.graph);
    issues.push(issue);
    if (options.graphs && graph !== null && !options.graphs.includes(graph)) return;
    const template = isObject(fields.from_template) ? fields.from_template : {};
    invalid.push({
      index,
      qid: stringOrNull(fields.qid),
      graph,
      category: stringOrNull(template.match_category),
      issue,
    });
  };
  items.forEach((raw, index) => {
    const parsed = parseItem(raw, `${file} item ${index}`);
    if ('message' in parsed) return refuse(raw, index, parsed);
    if (seen.has(parsed.qid))
      return refuse(raw, index, { item: `question ${parsed.qid}`, message: `qid appears more than once in ${file}` });
    seen.add(parsed.qid);
    if (options.graphs && !options.graphs.includes(parsed.graph)) return;
    tasks.push(toTask(parsed, file, index));
  });
  return { tasks, issues, invalid, itemCount: items.length };
}

/** Loads a CypherBench question file as tasks; `graphs` keeps only items of those graphs. */
export function loadCypherBenchQuestions(file: string, options: { graphs?: readonly string[] } = {}): LoadedTasks {
  const { tasks, issues } = loadCypherBenchFile(file, options);
  return { tasks, issues };
}
