/**
 * Scores precomputed predictions the way CypherBench's `evaluate.py` reports execution accuracy:
 * an identical string counts without running, otherwise the prediction runs (read-only guard,
 * read transaction, timeout) and its result is compared with the gold's. Also reported: the share
 * of executable predictions, and accuracy by graph and by match category. Graphs are loaded one
 * at a time into a server Witness started, or used as they are on a server given by URI.
 */
import { dirname } from 'node:path';
import { mapLimit } from '../../core/map-limit.ts';
import { TaskInputError } from '../../core/oracle.ts';
import type { Task } from '../../core/types.ts';
import { createDriver } from './driver.ts';
import { Neo4jUnreachableError } from './errors.ts';
import { ensureGraph } from './load-graph.ts';
import { cypherOracle } from './oracle.ts';
import { readPredictions, type PredictionIssue, type Predictions } from './predictions.ts';
import { findGraphFile } from './layout.ts';
import { loadCypherBenchFile } from './loader.ts';
import type { Neo4jServer } from './server/server.ts';
import { startNeo4j } from './server/start.ts';
import type { Neo4jSettings } from '../../core/config.ts';
import { readSimpleKG, type SimpleKG } from './simplekg.ts';

export type ItemStatus =
  | 'exact'
  | 'correct'
  | 'wrong'
  | 'syntax'
  | 'runtime'
  | 'timeout'
  | 'unsafe'
  | 'too-large'
  | 'too-complex'
  | 'no-prediction'
  | 'invalid-prediction'
  | 'invalid-gold'
  | 'invalid-question'
  | 'harness-error';

export interface ItemResult {
  /** Position in the question file. */
  index: number;
  /** Null (like `graph`) only for an unusable item of the question file that lacks one. */
  qid: string | null;
  graph: string | null;
  category: string | null;
  correct: boolean;
  /** The prediction ran without an error (CypherBench's `executable` metric). */
  executable: boolean;
  status: ItemStatus;
  message?: string;
  rows?: { expected: number; actual: number };
}

export interface Score {
  total: number;
  correct: number;
  accuracy: number;
}

export interface CypherBenchEvaluation extends Score {
  executable: number;
  executableRate: number;
  byStatus: Record<ItemStatus, number>;
  byGraph: Record<string, Score>;
  byCategory: Record<string, Score>;
  items: ItemResult[];
  /** Items of the question file that cannot be used: each is also an `invalid-question` item, scored 0. */
  issues: { item: string; message: string }[];
  /** Entries of the predictions file that belong to no question (unknown qids, items without a qid): ignored, and listed here. */
  predictionIssues: PredictionIssue[];
  server: string;
}

export interface EvaluateCypherBenchOptions {
  /** CypherBench question file (a JSON list of items). */
  data: string;
  /** Predictions: CypherBench's result.json (items with pred_cypher), a JSON map qid → query, or one query per line. */
  predictions: string;
  /** A Neo4j that already holds the graph (as CypherBench's per-graph servers); default: start one. */
  uri?: string;
  /** SimpleKG files of the graphs; default: `<graph>_simplekg.json` found next to the data file. */
  graphFiles?: string[];
  timeoutMs?: number;
  /** Result caps and the query-length cap (cypherOracle's options; defaults 100,000 rows, 16 MiB, 16 KiB). */
  maxRows?: number;
  maxResultBytes?: number;
  maxQueryBytes?: number;
  checkAnswers?: boolean;
  concurrency?: number;
  /** Neo4j settings (server, credentials): the configured ones. */
  neo4j: Neo4jSettings;
  log?: (line: string) => void;
  onProgress?: (done: number, total: number) => void;
}

const STATUSES: ItemStatus[] = [
  'exact',
  'correct',
  'wrong',
  'syntax',
  'runtime',
  'timeout',
  'unsafe',
  'too-large',
  'too-complex',
  'no-prediction',
  'invalid-prediction',
  'invalid-gold',
  'invalid-question',
  'harness-error',
];

/** Where `witness eval cypherbench` looks for a graph's file, relative to the data file's folder. */
const EVAL_GRAPH_PATTERNS = [
  'graphs/<graph>_simplekg.json',
  'graphs/simplekg/<graph>_simplekg.json',
  '<graph>_simplekg.json',
];

/**
 * The SimpleKG file of a graph: given with --graph, or in the usual places next to the data file;
 * null when there is none, the problem when the graph's name or a link leads outside the folder.
 */
function findGraph(
  graph: string,
  data: string,
  given: Map<string, { file: string; kg: SimpleKG }>,
): { file: string; kg: SimpleKG } | { problem: string } | null {
  const known = given.get(graph);
  if (known) return known;
  const found = findGraphFile(dirname(data), graph, EVAL_GRAPH_PATTERNS);
  if ('file' in found) return { file: found.file, kg: readSimpleKG(found.file) };
  return found.missing ? null : { problem: found.problem };
}

function score(items: ItemResult[]): Score {
  const correct = items.filter((i) => i.correct).length;
  return { total: items.length, correct, accuracy: items.length ? correct / items.length : 0 };
}

function groupScores(items: ItemResult[], key: (i: ItemResult) => string | null): Record<string, Score> {
  const groups = new Map<string, ItemResult[]>();
  for (const item of items) {
    const k = key(item);
    if (k !== null) groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return Object.fromEntries([...groups].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, list]) => [k, score(list)]));
}

/** Evaluates a predictions file against a CypherBench question file. */
export async function evaluateCypherBench(options: EvaluateCypherBenchOptions): Promise<CypherBenchEvaluation> {
  const log = options.log ?? (() => {});
  const loaded = loadCypherBenchFile(options.data);
  if (loaded.itemCount === 0 && loaded.issues.length > 0 && loaded.issues[0]?.item === options.data)
    throw new Error(loaded.issues[0].message);
  // Positional predictions may follow the file's items, unusable ones included.
  const positions = Array.from({ length: loaded.itemCount }, (): string | null => null);
  for (const task of loaded.tasks) positions[Number(task.meta?.index)] = task.id;
  const predictions = readPredictions(
    options.predictions,
    loaded.tasks.map((t) => t.id),
    positions,
  );
  const given = new Map(
    (options.graphFiles ?? []).map((file) => {
      const kg = readSimpleKG(file);
      return [kg.schema.name, { file, kg }] as const;
    }),
  );
  const byGraph = new Map<string, Task[]>();
  for (const task of loaded.tasks)
    byGraph.set(String(task.context?.graph), [...(byGraph.get(String(task.context?.graph)) ?? []), task]);

  const server: Neo4jServer = options.uri
    ? { uri: options.uri, way: 'uri', startupMs: 0, describe: `the server at ${options.uri}`, stop: async () => {} }
    : await startNeo4j({ neo4j: options.neo4j, log });
  const owned = server.way !== 'uri';
  // An unusable item keeps its position and scores 0 (it is also among the issues).
  const items: ItemResult[] = loaded.invalid.map(({ index, qid, graph, category, issue }) => ({
    index,
    qid,
    graph,
    category,
    correct: false,
    executable: false,
    status: 'invalid-question',
    message: `${issue.item}: ${issue.message}`,
  }));
  let done = 0;
  try {
    for (const [graph, tasks] of byGraph) {
      const lookup = findGraph(graph, options.data, given);
      const fail = (message: string) =>
        tasks.map((t): ItemResult => ({
          index: indexOf(t),
          qid: t.id,
          graph,
          category: category(t),
          correct: false,
          executable: false,
          status: 'invalid-gold',
          message,
        }));
      if (lookup && 'problem' in lookup) {
        items.push(...fail(lookup.problem));
        continue;
      }
      const found = lookup;
      if (owned && !found) {
        items.push(
          ...fail(
            `no SimpleKG file for graph ${graph}: give it with --graph FILE (or run against a loaded server with --uri)`,
          ),
        );
        continue;
      }
      if (found) {
        const driver = createDriver(server.uri, options.neo4j);
        try {
          const outcome = await ensureGraph(driver, found.kg, { replace: owned });
          log(`graph ${graph}: ${outcome} from ${found.file}`);
        } catch (error) {
          items.push(...fail(`graph ${graph} could not be loaded: ${(error as Error).message}`));
          continue;
        } finally {
          await driver.close();
        }
      }
      const oracle = cypherOracle({
        uri: server.uri,
        graphs: found ? [found.kg] : [],
        trustedGraphs: found ? [] : [graph],
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.maxRows ? { maxRows: options.maxRows } : {}),
        ...(options.maxResultBytes ? { maxResultBytes: options.maxResultBytes } : {}),
        ...(options.maxQueryBytes ? { maxQueryBytes: options.maxQueryBytes } : {}),
        ...(options.checkAnswers === false ? { checkAnswers: false } : {}),
        auth: options.neo4j,
      });
      try {
        items.push(
          ...(await mapLimit(tasks, options.concurrency ?? 4, async (task) => {
            const result = await scoreItem(oracle, task, predictions);
            options.onProgress?.(++done, loaded.tasks.length);
            return result;
          })),
        );
      } finally {
        await oracle.dispose?.();
      }
    }
  } finally {
    if (owned) await server.stop();
  }
  items.sort((a, b) => a.index - b.index);
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, items.filter((i) => i.status === s).length])) as Record<
    ItemStatus,
    number
  >;
  const executable = items.filter((i) => i.executable).length;
  return {
    ...score(items),
    executable,
    executableRate: items.length ? executable / items.length : 0,
    byStatus,
    byGraph: groupScores(items, (i) => i.graph),
    byCategory: groupScores(items, (i) => i.category),
    items,
    issues: loaded.issues,
    predictionIssues: predictions.issues,
    server: server.describe,
  };
}

function indexOf(task: Task): number {
  return Number(task.meta?.index);
}

function category(task: Task): string | null {
  return typeof task.meta?.match_category === 'string' ? task.meta.match_category : null;
}

async function scoreItem(
  oracle: ReturnType<typeof cypherOracle>,
  task: Task,
  predictions: Predictions,
): Promise<ItemResult> {
  const base = { index: indexOf(task), qid: task.id, graph: String(task.context?.graph), category: category(task) };
  const invalid = predictions.invalid.get(task.id);
  if (invalid !== undefined)
    return { ...base, correct: false, executable: false, status: 'invalid-prediction', message: invalid };
  const prediction = predictions.queries.get(task.id);
  if (prediction === undefined) return { ...base, correct: false, executable: false, status: 'no-prediction' };
  let prepared;
  try {
    prepared = await oracle.prepare(task);
  } catch (error) {
    if (error instanceof TaskInputError)
      return { ...base, correct: false, executable: false, status: 'invalid-gold', message: error.message };
    // Neo4j gone: every later item would fail the same way. A limit that stopped the gold, or a bug, is named on its item.
    if (error instanceof Neo4jUnreachableError) throw error;
    return { ...base, correct: false, executable: false, status: 'harness-error', message: (error as Error).message };
  }
  let verdict;
  try {
    verdict = await oracle.check(prepared, { source: prediction, extraction: 'whole-reply' });
  } catch (error) {
    // Neo4j gone: every later item would fail the same way. Anything else is a bug, named on its item.
    if (error instanceof Neo4jUnreachableError) throw error;
    return {
      ...base,
      correct: false,
      executable: false,
      status: 'harness-error',
      message: `question ${task.id}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const detail = verdict.detail ?? {};
  const rows =
    typeof detail.rows === 'object' && detail.rows !== null && !Array.isArray(detail.rows)
      ? (detail.rows as { expected: number; actual: number })
      : undefined;
  if (verdict.error) {
    return {
      ...base,
      correct: false,
      executable: false,
      status: verdict.error.kind === 'no-artifact' ? 'runtime' : verdict.error.kind,
      message: verdict.error.message,
    };
  }
  const status: ItemStatus = verdict.pass ? (detail.exactMatch === true ? 'exact' : 'correct') : 'wrong';
  return { ...base, correct: verdict.pass, executable: true, status, ...(rows ? { rows } : {}) };
}
