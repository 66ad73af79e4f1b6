/**
 * A drop-in for BIRD's evaluation scripts (`evaluation.py`, `evaluation_ves.py`; mini-dev's R-VES):
 * EX per question (predicted, then gold, on one database under one combined deadline; any error or
 * timeout scores 0), accuracy by difficulty, and VES / R-VES over correct questions. Runs on the
 * warm pool, in parallel over the cores. Beyond BIRD: a missing prediction or database is a wrong
 * answer with a message naming the question (BIRD's script misaligns or crashes), a statement
 * that is not a read-only query is never run (scored 0), a prediction that is its gold written
 * differently (spacing, case, a trailing semicolon: same-query.ts) is executed once (it is the same
 * deterministic query on the same database) under half the deadline,
 * gold results can be kept across runs (`goldCache`), the prediction then getting what the gold's
 * recorded time left of the deadline, every query runs under the caps (limits.ts: a prediction
 * over them scores 0), and a gold that fails, never ends on its own or passes the caps is a gold
 * error: scored 0 as in BIRD, and listed among the issues (bird-execution.ts).
 */
import { existsSync } from 'node:fs';
import { mapLimit } from '../../core/map-limit.ts';
import type { Inside } from '../../core/paths-inside.ts';
import type { TaskIssue } from '../../core/types.ts';
import {
  BIRD_DIFFICULTIES,
  birdDatabase,
  readBirdQuestions,
  resolveBirdLayout,
  type BirdDifficulty,
  type BirdQuestion,
} from './loader.ts';
import { executePair, rowCountOf, type PairResult } from './bird-execution.ts';
import { hasTopLevelOrderBy, type CompareMode } from './compare.ts';
import { formatBytes } from './engine-limits.mjs';
import type { GoldCache } from './gold-cache.ts';
import { resolveLimits, type QueryLimits } from './limits.ts';
import { formatSeconds, SqlPool, type ExecFailure, type TimingScope } from './pool.ts';
import { readPredictions } from './predictions.ts';
import { DEFAULT_VES_ITERATIONS, rvesTerm, timeRatio, vesTerm } from './ves.ts';

export type QuestionStatus =
  | 'correct'
  | 'wrong'
  | 'error'
  | 'timeout'
  | 'unsafe'
  | 'too-large'
  | 'too-complex'
  | 'gold-error'
  | 'no-prediction'
  | 'no-database'
  | 'invalid-question';

export interface QuestionResult {
  /** Position in the questions file. */
  index: number;
  /** Null (like `db_id` and `difficulty`) only for an invalid item that lacks a usable one. */
  question_id: number | null;
  db_id: string | null;
  difficulty: BirdDifficulty | null;
  /** 1 or 0, as BIRD's `res`. */
  res: 0 | 1;
  status: QuestionStatus;
  predicted: string | null;
  message?: string;
  rows?: { predicted: number; gold: number };
  /** gold/predicted time ratio (correct answers, when VES or R-VES was asked for). */
  timeRatio?: number;
  rvesRatio?: number;
}

export type ByDifficulty = Record<BirdDifficulty | 'total', number>;

export interface BirdEvaluation {
  questionsFile: string;
  predictionsFile: string;
  predictionsFormat: 'bird-json' | 'jsonl';
  mode: CompareMode;
  timeoutMs: number;
  /** The caps every query ran under. */
  limits: QueryLimits;
  counts: ByDifficulty;
  /** EX × 100. */
  accuracy: ByDifficulty;
  ves?: ByDifficulty;
  rves?: ByDifficulty;
  iterations?: number;
  /** Problems with the input files (each also marks its question, if any, as wrong). */
  issues: TaskIssue[];
  questions: QuestionResult[];
  /** The gold-result file, and how many gold results came from it. */
  goldCache?: { file: string; reused: number };
  /** Time SQLite spent executing (summed over processes) and the run's wall time. */
  sqliteMs: number;
  wallMs: number;
}

export interface BirdEvalOptions {
  /** BIRD folder with the questions file and the database folder. */
  data: string;
  questions?: string;
  databases?: string;
  predictions: string;
  mode?: CompareMode;
  timeoutMs?: number;
  ves?: boolean;
  rves?: boolean;
  iterations?: number;
  /** Child processes (default: the cores). */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  /** Run on this pool instead of starting one. */
  pool?: SqlPool;
  /** File of gold results kept across runs (see gold-cache.ts); none when unset. */
  goldCache?: string;
  /** Caps of every query (limits.ts): a prediction over them scores 0 (`too-large`, `too-complex`), a gold over them is a gold error. */
  limits?: Partial<QueryLimits>;
  /** Run a prediction that is the gold once (default true; see same-query.ts). */
  shortcut?: boolean;
}

function byDifficulty(
  questions: QuestionResult[],
  value: (q: QuestionResult) => number,
): { counts: ByDifficulty; means: ByDifficulty } {
  const counts = { simple: 0, moderate: 0, challenging: 0, total: 0 };
  const sums = { simple: 0, moderate: 0, challenging: 0, total: 0 };
  for (const q of questions) {
    for (const key of q.difficulty ? ([q.difficulty, 'total'] as const) : (['total'] as const)) {
      counts[key]++;
      sums[key] += value(q);
    }
  }
  const means = Object.fromEntries(
    Object.entries(sums).map(([k, s]) => [
      k,
      counts[k as keyof ByDifficulty] ? (100 * s) / counts[k as keyof ByDifficulty] : 0,
    ]),
  ) as ByDifficulty;
  return { counts, means };
}

const statusOf = (r: ExecFailure): QuestionStatus => (r.kind === 'syntax' || r.kind === 'runtime' ? 'error' : r.kind);
const failedPrediction = (pred: PairResult) =>
  pred.ok
    ? { status: 'error' as const, message: 'the gold query was not run' }
    : { status: statusOf(pred), message: pred.message };

/** What a gold failure says about the dataset, and what to change when it is the configuration. */
function goldProblem(gold: ExecFailure, limits: QueryLimits): string {
  const hint =
    gold.kind === 'timeout'
      ? ' on its own (a dataset problem, or raise --timeout)'
      : gold.kind === 'too-large'
        ? ` (caps: ${limits.maxRows.toLocaleString('en-US')} rows, ${formatBytes(limits.maxResultBytes)}; raise --max-rows / --max-result-mb)`
        : gold.kind === 'too-complex'
          ? ` (cap: ${formatBytes(limits.maxSqlBytes)} of SQL; raise --max-sql-kb)`
          : '';
  return `the gold query failed (${gold.kind}): ${gold.message}${hint}`;
}

/** Scores a predictions file against a BIRD questions file and its databases. */
export async function evaluateBird(options: BirdEvalOptions): Promise<BirdEvaluation> {
  const started = performance.now();
  const limits = resolveLimits(options.limits, 'evaluateBird');
  const pool = options.pool ?? new SqlPool({ limits, ...(options.concurrency ? { size: options.concurrency } : {}) });
  pool.warm(1); // one SQLite process starts while the files are read; the others when questions need them
  try {
    return await evaluateOn(pool, limits, options, started);
  } finally {
    if (!options.pool) await pool.dispose();
  }
}

async function evaluateOn(
  pool: SqlPool,
  limits: QueryLimits,
  options: BirdEvalOptions,
  started: number,
): Promise<BirdEvaluation> {
  const layout = resolveBirdLayout(options.data, {
    ...(options.questions ? { questions: options.questions } : {}),
    ...(options.databases ? { databases: options.databases } : {}),
  });
  const { questions, invalid, issues } = readBirdQuestions(layout.questions);
  const predictions = readPredictions(options.predictions, questions, invalid);
  issues.push(...predictions.issues);
  const mode = options.mode ?? 'set';
  const timeoutMs = options.timeoutMs ?? 30_000;
  const iterations = options.iterations ?? DEFAULT_VES_ITERATIONS;
  // Loaded only when asked for: it brings better-sqlite3 into this process.
  const cache = options.goldCache ? new (await import('./gold-cache.ts')).GoldCache(options.goldCache) : undefined;
  // Per db_id: its database file when present, else why the question has none (nothing outside the folder is opened).
  const databases = new Map<string, Inside>();
  const databaseOf = (dbId: string): Inside => {
    let at = databases.get(dbId);
    if (!at) {
      at = birdDatabase(layout.databases, dbId);
      if ('path' in at && !existsSync(at.path)) at = { problem: `database not found: ${at.path}` };
      databases.set(dbId, at);
    }
    return at;
  };
  let sqliteMs = 0;
  let done = 0;
  let reused = 0;

  // Problems found while scoring, listed in question order whatever order the questions finish in.
  const noted = new Map<number, TaskIssue[]>();
  const note = (index: number, issue: TaskIssue) => noted.set(index, [...(noted.get(index) ?? []), issue]);

  async function score(q: BirdQuestion): Promise<QuestionResult> {
    const base = {
      index: q.index,
      question_id: q.question_id,
      db_id: q.db_id,
      difficulty: q.difficulty,
      res: 0 as const,
    };
    const prediction = predictions.byIndex.get(q.index);
    const at = databaseOf(q.db_id);
    const name = `question ${q.question_id} (position ${q.index}, db_id ${JSON.stringify(q.db_id)})`;
    if ('problem' in at) {
      const message = at.problem;
      note(q.index, { item: name, message });
      return {
        ...base,
        status: 'no-database',
        predicted: prediction && 'sql' in prediction ? prediction.sql : null,
        message,
      };
    }
    const { path } = at;
    if (!prediction) {
      note(q.index, { item: name, message: 'no prediction' });
      return { ...base, status: 'no-prediction', predicted: null, message: 'no prediction' };
    }
    if ('invalid' in prediction) {
      note(q.index, { item: name, message: prediction.invalid });
      return { ...base, status: 'error', predicted: null, message: prediction.invalid };
    }
    if (prediction.dbId && prediction.dbId !== q.db_id) {
      note(q.index, {
        item: name,
        message: `the prediction names db_id "${prediction.dbId}"; it is run on the question's database "${q.db_id}"`,
      });
    }
    const {
      pred,
      gold,
      equal,
      combinedTimeout,
      spentMs,
      reused: fromCache,
    } = await executePair(
      { pool, cache, timeoutMs, limits, shortcut: options.shortcut ?? true },
      q.SQL,
      prediction.sql,
      path,
      { mode, goldOrdered: mode === 'ordered' && hasTopLevelOrderBy(q.SQL) },
    );
    sqliteMs += spentMs;
    if (fromCache) reused++;
    const predicted = prediction.sql;
    if (gold && !gold.ok) {
      // The dataset's problem: scored 0 as in BIRD, and named so that the run exits 1.
      const message = goldProblem(gold, limits);
      note(q.index, { item: name, message });
      return {
        ...base,
        status: 'gold-error',
        predicted,
        message,
        ...(pred.ok ? { rows: { predicted: rowCountOf(pred), gold: 0 } } : {}),
      };
    }
    if (combinedTimeout) return { ...base, status: 'timeout', predicted, message: combinedTimeout };
    // A failed prediction scores 0 whatever the gold gives (its gold was not run: bird-execution.ts).
    if (!pred.ok || !gold) return { ...base, ...failedPrediction(pred), predicted };
    const rows = { predicted: rowCountOf(pred), gold: rowCountOf(gold) };
    if (equal !== true) return { ...base, status: 'wrong', predicted, rows };
    const result: QuestionResult = { ...base, res: 1, status: 'correct', predicted, rows };
    if (options.ves) result.timeRatio = await ratio(path, predicted, q.SQL, 'first-row');
    if (options.rves) result.rvesRatio = await ratio(path, predicted, q.SQL, 'all-rows');
    return result;
  }

  async function ratio(path: string, pred: string, gold: string, scope: TimingScope): Promise<number> {
    const timing = await pool.time({ path }, pred, gold, iterations, scope, timeoutMs * iterations);
    return timing.ok ? timeRatio(timing.goldMs, timing.predMs) : 0;
  }

  // An invalid item keeps its position and scores 0 (it is already among the issues).
  const unusable = invalid.map((item): QuestionResult => ({
    ...item,
    res: 0,
    status: 'invalid-question',
    predicted: null,
  }));
  const total = questions.length + unusable.length;
  let results: QuestionResult[];
  try {
    // As many questions in flight as the children can hold, so that thousands of them never wait at once.
    const scored = await mapLimit(questions, pool.capacity, async (q) => {
      const r = await score(q);
      options.onProgress?.(++done, total);
      return r;
    });
    results = [...scored, ...unusable].sort((a, b) => a.index - b.index);
    for (const q of questions) issues.push(...(noted.get(q.index) ?? []));
  } finally {
    cache?.close();
  }
  const { counts, means: accuracy } = byDifficulty(results, (r) => r.res);
  const efficiency = (pick: (r: QuestionResult) => number | undefined, term: (ratio: number) => number) =>
    byDifficulty(results, (r) => term(pick(r) ?? 0)).means;
  return {
    questionsFile: layout.questions,
    predictionsFile: options.predictions,
    predictionsFormat: predictions.format,
    mode,
    timeoutMs,
    limits,
    counts,
    accuracy,
    ...(options.ves ? { ves: efficiency((r) => r.timeRatio, vesTerm) } : {}),
    ...(options.rves ? { rves: efficiency((r) => r.rvesRatio, rvesTerm) } : {}),
    ...(options.ves || options.rves ? { iterations } : {}),
    ...(cache ? { goldCache: { file: cache.file, reused } } : {}),
    issues,
    questions: results,
    sqliteMs,
    wallMs: performance.now() - started,
  };
}

/** BIRD's printed table (`print_data`): counts, then one row per score, ×100 with two decimals. */
export function formatBirdTable(evaluation: BirdEvaluation): string {
  const levels = [...BIRD_DIFFICULTIES, 'total'] as const;
  const cell = (s: string) => s.padEnd(20);
  const row = (label: string, values: ByDifficulty, digits: number) =>
    `${cell(label)} ${levels.map((l) => cell(values[l].toFixed(digits))).join(' ')}`;
  const lines = [`${cell('')} ${levels.map(cell).join(' ')}`, row('count', evaluation.counts, 0)];
  lines.push(
    '======================================    ACCURACY    =====================================',
    row('accuracy', evaluation.accuracy, 2),
  );
  if (evaluation.ves)
    lines.push(
      '=========================================    VES   ========================================',
      row('ves', evaluation.ves, 2),
    );
  if (evaluation.rves)
    lines.push(
      '=========================================   R-VES  ========================================',
      row('r-ves', evaluation.rves, 2),
    );
  lines.push('===========================================================================================');
  return lines.map((l) => l.trimEnd()).join('\n');
}
