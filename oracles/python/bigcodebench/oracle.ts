/**
 * The BigCodeBench-style oracle: the program (the solution, with the code_prompt preamble as the
 * official "calibrated" mode does) followed by the task's unittest module, run in the Python
 * sandbox with TZ=UTC and OMP_NUM_THREADS=1; each test method is one case. Time limit as the
 * original: max(timeLimitS, max(1 s, the reference's measured time)) + 1 s, with timeLimitS = 240 s
 * by default. Memory: the original's 30 GB address space does not fit a shared machine; the
 * default here is 4 GiB (`limits.addressSpaceBytes` changes it).
 */
import type { Oracle, PreparedTask } from '../../../core/oracle.ts';
import { TaskInputError } from '../../../core/oracle.ts';
import type { Candidate, Task, Verdict, Witness } from '../../../core/types.ts';
import { describeEnvironment, EnvironmentMissingError, missingModules } from '../environment.ts';
import { extractPython, pythonAnswer } from '../extract.ts';
import { workerFailure } from '../pool/outcome.ts';
import type { PoolOptions, WorkerPool } from '../pool/pool.ts';
import { acquirePool, type PoolLease } from '../pool/shared.ts';
import { cpuSecondsFor, DEFAULT_LIMITS, type ResourceLimits } from '../sandbox/limits.ts';
import { checkMaxProgramBytes, oversizedProgram } from '../program-size.ts';
import { mutatePython } from '../sim/mutate.ts';
import { bigCodeBenchObserver } from './observer.ts';
import { programFor } from './program.ts';
import { bigCodeBenchRenderer } from './render.ts';
import { exceptionTypes, interpretRun, runPhase, testCases, type BcbRunReport } from './run.ts';

export interface BigCodeBenchOptions {
  pool?: WorkerPool;
  sandbox?: PoolOptions;
  /** The original's TIMEOUT_LIMIT (BIGCODEBENCH_TIMEOUT_PER_TASK), seconds; default 240. */
  timeLimitS?: number;
  /** The original's min_time_limit, seconds; default 1. */
  minTimeLimitS?: number;
  limits?: Partial<ResourceLimits>;
  /** Prefix the code_prompt and a stub body (the official calibrated mode); default true. */
  calibrated?: boolean;
  /** Largest candidate program run, UTF-8 bytes (default 16 MiB); a bigger one is `too-complex`. */
  maxProgramBytes?: number;
}

export interface BcbPrepared extends PreparedTask {
  codePrompt: string;
  completePrompt: string;
  entryPoint: string;
  libs: string[];
  test: string;
  /** The reference's measured suite time, seconds (the original's gt_time). */
  referenceSeconds: number;
  deadlineMs: number;
}

/** The original's per-task limit: max(limit, max(min, reference time)) + 1, in milliseconds. */
export function timeLimitMs(timeLimitS: number, minTimeLimitS: number, referenceSeconds: number): number {
  return Math.ceil((Math.max(timeLimitS, Math.max(minTimeLimitS, referenceSeconds)) + 1) * 1000);
}

function contextString(task: Task, key: string): string {
  const value = task.context?.[key];
  if (typeof value !== 'string') throw new TaskInputError(`task ${task.id}`, `context.${key} is missing`);
  return value;
}

export function bigCodeBenchOracle(options: BigCodeBenchOptions = {}): Oracle<BcbPrepared> {
  let lease: PoolLease | undefined;
  const pool = (): WorkerPool => options.pool ?? (lease ??= acquirePool(options.sandbox)).pool;
  const timeLimitS = options.timeLimitS ?? 240;
  const minTimeLimitS = options.minTimeLimitS ?? 1;
  const calibrated = options.calibrated ?? true;
  const maxProgramBytes = checkMaxProgramBytes(options.maxProgramBytes);
  const baseLimits: ResourceLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const limitsFor = (deadlineMs: number): ResourceLimits => ({ ...baseLimits, cpuSeconds: options.limits?.cpuSeconds ?? cpuSecondsFor(deadlineMs) });
  const reports = new Map<string, Promise<BcbRunReport>>();

  async function run(prepared: Pick<BcbPrepared, 'test' | 'deadlineMs'>, program: string): Promise<BcbRunReport> {
    const limits = limitsFor(prepared.deadlineMs);
    try {
      const [result] = await pool().run([runPhase(program, prepared.test, limits, prepared.deadlineMs)]);
      if (!result) throw new Error('the sandbox returned no result');
      return interpretRun(result, limits, prepared.deadlineMs);
    } catch (error) {
      const failure = workerFailure(error);
      if (!failure) throw error;
      return { tests: null, results: new Map(), failure: { kind: failure.kind, message: failure.reason }, wallMs: 0 };
    }
  }

  function cachedRun(prepared: BcbPrepared, source: string): Promise<BcbRunReport> {
    const key = JSON.stringify([prepared.task.benchmark, prepared.task.id, source]);
    let report = reports.get(key);
    if (!report) {
      report = run(prepared, programFor(source, prepared.codePrompt, calibrated));
      reports.set(key, report);
      report.catch(() => reports.delete(key));
      if (reports.size > 512) reports.delete(reports.keys().next().value as string);
    }
    return report;
  }

  async function check(prepared: BcbPrepared, candidate: Candidate): Promise<Verdict> {
    const started = performance.now();
    const oversized = oversizedProgram(candidate.source, maxProgramBytes);
    const report: BcbRunReport = oversized ? { tests: null, results: new Map(), failure: oversized, wallMs: 0 } : await cachedRun(prepared, candidate.source);
    const cases = testCases(report, prepared.caseIds);
    const witnesses: Witness[] = [];
    for (const id of prepared.caseIds) {
      const outcome = report.results.get(id);
      if (!outcome || (outcome.outcome !== 'fail' && outcome.outcome !== 'error')) continue;
      witnesses.push({
        kind: outcome.outcome === 'error' ? 'test-error' : 'test-failure',
        label: outcome.outcome === 'error' ? 'error' : 'failed',
        input: id,
        expected: 'pass',
        actual: { type: outcome.type, message: outcome.message, ...(outcome.traceback ? { traceback: outcome.traceback } : {}) },
        size: outcome.message.length,
        caseId: id,
      });
    }
    const failed = cases.filter((c) => !c.pass).map((c) => c.id);
    return {
      pass: !report.failure && failed.length === 0,
      cases,
      witnesses,
      ...(report.failure ? { error: report.failure } : {}),
      timings: { totalMs: performance.now() - started, runMs: report.wallMs },
      detail: { testsRun: report.results.size, failed, exceptionTypes: exceptionTypes(report), calibrated },
    };
  }

  const oracle: Oracle<BcbPrepared> = {
    name: 'bigcodebench',
    language: 'python',
    render: bigCodeBenchRenderer(),
    observer: bigCodeBenchObserver({ pool, calibrated, limitsFor, maxProgramBytes }),
    settings: () => ({ timeLimitS, minTimeLimitS, calibrated, addressSpaceBytes: baseLimits.addressSpaceBytes, fileSizeBytes: baseLimits.fileSizeBytes, maxProgramBytes, tz: 'UTC', ompNumThreads: 1 }),
    promptVariables: (task) => ({ code_prompt: String(task.context?.codePrompt ?? ''), entry_point: String(task.context?.entryPoint ?? 'task_func') }),
    async prepare(task: Task) {
      const item = `task ${task.id}`;
      const codePrompt = contextString(task, 'codePrompt');
      const completePrompt = contextString(task, 'completePrompt');
      const test = contextString(task, 'test');
      const entryPoint = contextString(task, 'entryPoint');
      const libs = Array.isArray(task.context?.libs) ? (task.context?.libs as unknown[]).map(String) : [];
      const environment = await describeEnvironment(pool(), libs, [task.gold, test]);
      const missing = missingModules(environment);
      if (missing.length) throw new EnvironmentMissingError(task.id, missing);
      // The reference is run under the full limit to measure it (the original's ground-truth pass).
      const probe = { test, deadlineMs: timeLimitMs(timeLimitS, minTimeLimitS, 0) };
      const report = await run(probe, programFor(task.gold, codePrompt, calibrated));
      if (report.taskError) throw new TaskInputError(item, report.taskError);
      if (report.failure) throw new TaskInputError(item, `the canonical solution fails: ${report.failure.message}`);
      const tests = report.tests ?? [];
      if (tests.length === 0) throw new TaskInputError(item, 'TestCases has no test methods');
      const failing = tests.filter((name) => {
        const outcome = report.results.get(name)?.outcome;
        return outcome !== 'pass' && outcome !== 'skip';
      });
      if (failing.length) {
        const first = report.results.get(failing[0] as string);
        const why = first && 'type' in first ? `${first.type}: ${first.message}` : 'no result';
        throw new TaskInputError(item, `the canonical solution fails its own tests ${failing.join(', ')} (${why.slice(0, 300)})`);
      }
      const referenceSeconds = (report.suiteMs ?? report.wallMs) / 1000;
      return {
        task,
        caseIds: tests,
        codePrompt,
        completePrompt,
        entryPoint,
        libs,
        test,
        referenceSeconds,
        deadlineMs: timeLimitMs(timeLimitS, minTimeLimitS, referenceSeconds),
      };
    },
    extract: (reply) => extractPython(reply, 'last'),
    check,
    simulator: {
      mutate: (_prepared, program, rng) => mutatePython(program, rng)?.program ?? null,
      answer: (_prepared, program) => pythonAnswer(program),
      async agrees(prepared, candidate, witness) {
        if (oversizedProgram(candidate.source, maxProgramBytes)) return false;
        const report = await cachedRun(prepared, candidate.source);
        if (report.failure || witness.caseId === undefined) return false;
        const outcome = report.results.get(witness.caseId)?.outcome;
        return outcome === 'pass' || outcome === 'skip';
      },
    },
    dispose: async () => {
      await lease?.release();
      lease = undefined;
    },
  };
  return oracle;
}
