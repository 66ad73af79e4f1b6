/** `witness eval bird`: a faster drop-in for BIRD's evaluation scripts (EX by difficulty, VES, R-VES). */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
import { WITNESS_DIR } from '../core/paths.ts';
import { terminalLine } from '../core/text-safety.ts';
import { COMPARE_MODES, type CompareMode } from '../oracles/sql/compare.ts';
import type { BirdEvaluation } from '../oracles/sql/evaluate.ts';
import { DEFAULT_QUERY_LIMITS, MAX_RESULT_BYTES, type QueryLimits } from '../oracles/sql/limits.ts';
import { formatSeconds, SqlPool } from '../oracles/sql/pool.ts';
import { existingPath, positiveInteger, positiveNumber, progressLine } from './options.ts';
import { sayResult, warn } from './output.ts';
import type { Registrar } from './registrar.ts';

const MiB = 1024 * 1024;

/** MiB of a result: a positive integer up to the 1 GiB a result may take at most. */
function resultMegabytes(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_RESULT_BYTES / MiB)
    throw new InvalidArgumentError(`expected an integer from 1 to ${MAX_RESULT_BYTES / MiB}`);
  return n;
}

interface EvalBirdOptions {
  data: string;
  predictions: string;
  questions?: string;
  dbRoot?: string;
  mode: CompareMode;
  ves?: boolean;
  rves?: boolean;
  iterations: number;
  timeout: number;
  jobs: number;
  goldCache: string | false;
  shortcut: boolean;
  maxRows: number;
  maxResultMb: number;
  maxSqlKb: number;
  json?: boolean;
  out?: string;
}

function summary(e: BirdEvaluation): string {
  const statuses = new Map<string, number>();
  for (const q of e.questions) statuses.set(q.status, (statuses.get(q.status) ?? 0) + 1);
  const counts = [...statuses].map(([s, n]) => `${s} ${n}`).join(', ');
  return [
    `mode ${e.mode}${e.mode === 'set' ? " (BIRD's EX)" : ''} · timeout ${formatSeconds(e.timeoutMs)}${e.iterations ? ` · ${e.iterations} timed runs per correct question` : ''}`,
    `${e.questions.length} questions: ${counts}`,
    `wall ${formatSeconds(e.wallMs)} · SQLite executing ${formatSeconds(e.sqliteMs)}${e.goldCache ? ` · ${e.goldCache.reused} gold results reused from ${e.goldCache.file}` : ''}`,
  ].join('\n');
}

export const registerEvalBird: Registrar = ({ evaluate }) => {
  evaluate
    .command('bird')
    .description(
      "score SQL predictions as BIRD's evaluation scripts do: EX by difficulty (simple / moderate / challenging / total), VES and R-VES on request, in parallel over the cores",
    )
    .requiredOption(
      '--data <dir>',
      'BIRD folder: dev.json (or mini_dev_sqlite.json[l]) and dev_databases/<db_id>/<db_id>.sqlite',
      existingPath,
    )
    .requiredOption(
      '--predictions <file>',
      'BIRD\'s JSON ({"0": "SQL\\t----- bird -----\\tdb_id", …}, keyed by position) or JSON Lines of {"question_id", "SQL"}',
      existingPath,
    )
    .option('--questions <file>', 'the questions file, when it is not in --data', existingPath)
    .option('--db-root <dir>', 'the database folder, when it is not in --data', existingPath)
    .addOption(
      new Option(
        '--mode <mode>',
        "row comparison: set (BIRD's EX), multiset, or ordered (lists when the gold has ORDER BY)",
      )
        .choices([...COMPARE_MODES])
        .default('set'),
    )
    .option(
      '--ves',
      'also compute VES (BIRD: gold/predicted time ratio over timed runs, 3σ outliers dropped, 100 × mean √ratio)',
    )
    .option('--rves', 'also compute R-VES (mini-dev reward buckets over the same ratio, timing execute + fetch)')
    .option('--iterations <n>', 'timed runs per correct question for VES / R-VES', positiveInteger, 100)
    .option('--timeout <seconds>', 'deadline per question (predicted + gold together, as BIRD)', positiveNumber, 30)
    .option('--jobs <n>', 'SQLite processes in parallel', positiveInteger, availableParallelism())
    .option(
      '--gold-cache <file>',
      'keep gold results across runs in this file (keyed by database state and gold SQL)',
      join(WITNESS_DIR, 'bird-gold-cache.sqlite'),
    )
    .option('--no-gold-cache', 'run every gold query, keep nothing')
    .option(
      '--no-shortcut',
      'run the prediction even when it is the gold written differently (spacing, case, a trailing semicolon); by default such a deterministic query runs once',
    )
    .option(
      '--max-rows <n>',
      'rows a result may have; a prediction over it scores 0 (too-large), a gold over it is a gold error',
      positiveInteger,
      DEFAULT_QUERY_LIMITS.maxRows,
    )
    .option(
      '--max-result-mb <n>',
      'MiB a result may take in memory (estimated: 16 bytes a value, plus text and blob lengths); as --max-rows',
      resultMegabytes,
      DEFAULT_QUERY_LIMITS.maxResultBytes / MiB,
    )
    .option(
      '--max-sql-kb <n>',
      'KiB of SQL text a query may have; a longer prediction scores 0 (too-complex)',
      positiveInteger,
      DEFAULT_QUERY_LIMITS.maxSqlBytes / 1024,
    )
    .option('--json', 'print the scores and per-question results as JSON')
    .option('--out <file>', 'also write the scores and per-question results as JSON to a file')
    .addHelpText(
      'after',
      '\nExit status: 0 when every question could be evaluated, 1 when some input was broken (an invalid question, a missing database or prediction, a gold query that fails, never ends or passes the caps: each listed on stderr, its question scored 0), 2 on usage errors.',
    )
    .action(async (o: EvalBirdOptions) => {
      const onProgress = progressLine('questions');
      const limits: QueryLimits = {
        maxRows: o.maxRows,
        maxResultBytes: o.maxResultMb * MiB,
        maxSqlBytes: o.maxSqlKb * 1024,
      };
      // One SQLite process (the launcher's, when it started one) is ready while the evaluator's modules
      // load and the files are read; the others start when the questions need them, so a set of a few
      // cheap questions never pays for their start-up.
      const pool = new SqlPool({ limits, size: o.jobs });
      pool.warm(1);
      let evaluation: BirdEvaluation;
      let formatBirdTable: (e: BirdEvaluation) => string;
      try {
        const evaluator = await import('../oracles/sql/evaluate.ts');
        formatBirdTable = evaluator.formatBirdTable;
        evaluation = await evaluator.evaluateBird({
          pool,
          data: o.data,
          predictions: o.predictions,
          ...(o.questions ? { questions: o.questions } : {}),
          ...(o.dbRoot ? { databases: o.dbRoot } : {}),
          mode: o.mode,
          timeoutMs: o.timeout * 1000,
          ves: Boolean(o.ves),
          rves: Boolean(o.rves),
          iterations: o.iterations,
          concurrency: o.jobs,
          ...(o.goldCache ? { goldCache: o.goldCache } : {}),
          shortcut: o.shortcut,
          limits,
          ...(onProgress ? { onProgress } : {}),
        });
      } finally {
        await pool.dispose();
      }
      if (o.out) writeFileSync(o.out, `${JSON.stringify(evaluation, null, 2)}\n`);
      sayResult(o.json, evaluation, () => `${formatBirdTable(evaluation)}\n${summary(evaluation)}`);
      for (const issue of evaluation.issues.slice(0, 20))
        warn(terminalLine(`witness eval bird: ${issue.item}: ${issue.message}`));
      if (evaluation.issues.length > 20)
        warn(`witness eval bird: … ${evaluation.issues.length - 20} more input problems (all in --json / --out)`);
      process.exitCode = evaluation.issues.length > 0 ? 1 : 0;
    });
};
