/**
 * The BigCodeBench-style oracle: the program (the solution, with the code_prompt preamble as the
 * official "calibrated" mode does) followed by the task's unittest module, run in the Python
 * sandbox with TZ=UTC and OMP_NUM_THREADS=1; each test method is one case. Time limit as the
 * original: max(timeLimitS, max(1 s, the reference's measured time)) + 1 s, with timeLimitS = 240 s
 * by default. Memory: the original's 30 GB address space does not fit a shared machine; the
 * default here is 4 GiB (`limits.addressSpaceBytes` changes it). Hardening (hardener.ts) probes
 * calls derived from the test module's own literal calls; the cases it adds run beside the tests.
 */
import { BoundedCache } from '../../../core/bounded-cache.ts';
import type { Oracle, SimulatedOracle } from '../../../core/oracle.ts';
import { goldFailure, TaskInputError } from '../../../core/oracle.ts';
import type { Candidate, Task, Verdict, Witness } from '../../../core/types.ts';
import { describeEnvironment, EnvironmentMissingError, missingModules } from '../environment.ts';
import { extractPython } from '../extract.ts';
import { workerFailure } from '../pool/outcome.ts';
import type { WorkerPool } from '../pool/pool.ts';
import { acquirePool, type PoolLease } from '../pool/shared.ts';
import { cpuSecondsFor, DEFAULT_LIMITS, type ResourceLimits } from '../../../core/sandbox/limits.ts';
import { checkMaxProgramBytes, oversizedProgram } from '../program-size.ts';
import { probeRegistry } from '../probe-registry.ts';
import { createBigCodeBenchHardener } from './hardener.ts';
import { createBigCodeBenchObserver } from './observer.ts';
import type { BcbPrepared, BcbRuntime, BigCodeBenchOptions } from './prepared.ts';
import { actualOf, disagrees, interpretProbe, probePhases, witnessLabel, type ProbeRunReport } from './probe-run.ts';
import { programFor } from './program.ts';
import { bigCodeBenchRenderer } from './render.ts';
import { createBigCodeBenchSimulator } from './simulator.ts';
import { exceptionTypes, interpretRun, runPhase, testCases, type BcbRunReport } from './run.ts';

export type { BcbPrepared, BigCodeBenchOptions } from './prepared.ts';

/** Default cap on the derived calls of one hardening probe. */
export const DEFAULT_MAX_PROBE_CALLS = 64;

/** The original's per-task limit: max(limit, max(min, reference time)) + 1, in milliseconds. */
export function timeLimitMs(timeLimitS: number, minTimeLimitS: number, referenceSeconds: number): number {
  return Math.ceil((Math.max(timeLimitS, Math.max(minTimeLimitS, referenceSeconds)) + 1) * 1000);
}

function contextString(task: Task, key: string): string {
  const value = task.context?.[key];
  if (typeof value !== 'string') throw new TaskInputError(`task ${task.id}`, `context.${key} is missing`);
  return value;
}

export function bigCodeBenchOracle(options: BigCodeBenchOptions = {}): SimulatedOracle<BcbPrepared> {
  let lease: PoolLease | undefined;
  const pool = (): WorkerPool => options.pool ?? (lease ??= acquirePool(options.sandbox)).pool;
  const timeLimitS = options.timeLimitS ?? 240;
  const minTimeLimitS = options.minTimeLimitS ?? 1;
  const calibrated = options.calibrated ?? true;
  const maxProgramBytes = checkMaxProgramBytes(options.maxProgramBytes);
  const baseLimits: ResourceLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const limitsFor = (deadlineMs: number): ResourceLimits => ({
    ...baseLimits,
    cpuSeconds: options.limits?.cpuSeconds ?? cpuSecondsFor(deadlineMs),
  });
  const reports = new BoundedCache<string, Promise<BcbRunReport>>({ maxEntries: 512 });
  const probes = new BoundedCache<string, Promise<ProbeRunReport>>({ maxEntries: 512 });
  const registry = probeRegistry<string>();

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
    return reports.rememberPromise(key, () => run(prepared, programFor(source, prepared.codePrompt, calibrated)));
  }

  async function probeRun(prepared: BcbPrepared, source: string, calls: readonly string[]): Promise<ProbeRunReport> {
    const limits = limitsFor(prepared.deadlineMs);
    const phases = probePhases(
      programFor(prepared.task.gold, prepared.codePrompt, calibrated),
      programFor(source, prepared.codePrompt, calibrated),
      calls,
      limits,
      prepared.deadlineMs,
    );
    return interpretProbe(await pool().run(phases), limits, prepared.deadlineMs);
  }

  /** Probe runs are deterministic too, and hardening, the extra cases and the sim ask about the same ones. */
  function cachedProbe(prepared: BcbPrepared, source: string, calls: readonly string[]): Promise<ProbeRunReport> {
    const key = JSON.stringify([prepared.task.benchmark, prepared.task.id, calls, source]);
    return probes.rememberPromise(key, () => probeRun(prepared, source, calls));
  }

  const maxProbeCalls = options.maxProbeCalls ?? DEFAULT_MAX_PROBE_CALLS;
  const runtime: BcbRuntime = {
    pool,
    calibrated,
    limitsFor,
    maxProgramBytes,
    maxProbeCalls,
    cachedRun,
    cachedProbe,
    registry,
  };

  /** The hardening cases of a check: each derived call passes when the candidate agrees with the reference on it. */
  async function extraCases(
    prepared: BcbPrepared,
    source: string,
    ran: BcbRunReport,
  ): Promise<{ cases: { id: string; pass: boolean }[]; witnesses: Witness[]; runMs: number }> {
    if (prepared.extra.length === 0) return { cases: [], witnesses: [], runMs: 0 };
    if (ran.failure) return { cases: prepared.extra.map((e) => ({ id: e.id, pass: false })), witnesses: [], runMs: 0 };
    let probe: ProbeRunReport;
    try {
      probe = await cachedProbe(
        prepared,
        source,
        prepared.extra.map((e) => e.spec),
      );
    } catch (error) {
      const failure = workerFailure(error);
      if (!failure) throw error;
      probe = { outcomes: [], candidateFailure: { kind: failure.kind, message: failure.reason }, wallMs: 0 };
    }
    const witnesses: Witness[] = [];
    const cases = prepared.extra.map((e, i) => {
      const outcome = probe.outcomes[i] ?? { status: 'candidate-stopped' as const };
      const pass = !disagrees(outcome);
      if (!pass) {
        witnesses.push({
          kind: 'failing-input',
          label: witnessLabel(outcome),
          input: e.spec,
          expected: outcome.expected ?? '',
          actual: actualOf(outcome, probe.candidateFailure),
          size: e.spec.length,
          caseId: e.id,
        });
      }
      return { id: e.id, pass };
    });
    return { cases, witnesses, runMs: probe.wallMs };
  }

  async function check(prepared: BcbPrepared, candidate: Candidate): Promise<Verdict> {
    const started = performance.now();
    const oversized = oversizedProgram(candidate.source, maxProgramBytes);
    const report: BcbRunReport = oversized
      ? { tests: null, results: new Map(), failure: oversized, wallMs: 0 }
      : await cachedRun(prepared, candidate.source);
    const extraIds = new Set(prepared.extra.map((e) => e.id));
    const extra = await extraCases(prepared, candidate.source, report);
    const cases = [
      ...testCases(
        report,
        prepared.caseIds.filter((id) => !extraIds.has(id)),
      ),
      ...extra.cases,
    ];
    const witnesses: Witness[] = [];
    for (const id of prepared.caseIds) {
      const outcome = report.results.get(id);
      if (!outcome || (outcome.outcome !== 'fail' && outcome.outcome !== 'error')) continue;
      witnesses.push({
        kind: outcome.outcome === 'error' ? 'test-error' : 'test-failure',
        label: outcome.outcome === 'error' ? 'error' : 'failed',
        input: id,
        expected: 'pass',
        actual: {
          type: outcome.type,
          message: outcome.message,
          ...(outcome.traceback ? { traceback: outcome.traceback } : {}),
        },
        size: outcome.message.length,
        caseId: id,
      });
    }
    witnesses.push(...extra.witnesses);
    const failed = cases.filter((c) => !c.pass).map((c) => c.id);
    return {
      pass: !report.failure && failed.length === 0,
      cases,
      witnesses,
      ...(report.failure ? { error: report.failure } : {}),
      timings: { totalMs: performance.now() - started, runMs: report.wallMs + extra.runMs },
      detail: { testsRun: report.results.size, failed, exceptionTypes: exceptionTypes(report), calibrated },
    };
  }

  const oracle: SimulatedOracle<BcbPrepared> = {
    name: 'bigcodebench',
    language: 'python',
    render: bigCodeBenchRenderer(),
    hardener: createBigCodeBenchHardener(runtime),
    observer: createBigCodeBenchObserver(runtime),
    settings: () => ({
      timeLimitS,
      minTimeLimitS,
      calibrated,
      addressSpaceBytes: baseLimits.addressSpaceBytes,
      fileSizeBytes: baseLimits.fileSizeBytes,
      maxProgramBytes,
      tz: 'UTC',
      ompNumThreads: 1,
    }),
    promptVariables: (task) => ({
      code_prompt: String(task.context?.codePrompt ?? ''),
      entry_point: String(task.context?.entryPoint ?? 'task_func'),
    }),
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
      // A canonical solution that fails on its own is invalid data; one a limit stopped is the run's to fix.
      if (report.failure)
        throw goldFailure(item, report.failure.kind, `the canonical solution fails: ${report.failure.message}`);
      const tests = report.tests ?? [];
      if (tests.length === 0) throw new TaskInputError(item, 'TestCases has no test methods');
      const failing = tests.filter((name) => {
        const outcome = report.results.get(name)?.outcome;
        return outcome !== 'pass' && outcome !== 'skip';
      });
      if (failing.length) {
        const first = report.results.get(failing[0] as string);
        const why = first && 'type' in first ? `${first.type}: ${first.message}` : 'no result';
        throw new TaskInputError(
          item,
          `the canonical solution fails its own tests ${failing.join(', ')} (${why.slice(0, 300)})`,
        );
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
        extra: [],
      };
    },
    extract: (reply) => extractPython(reply, 'last'),
    check,
    simulator: createBigCodeBenchSimulator(runtime),
    dispose: async () => {
      await lease?.release();
      lease = undefined;
    },
  };
  return oracle;
}
