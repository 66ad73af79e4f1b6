/** One BigCodeBench run (program + TestCases) as a sandbox phase, and what its result means. */
import type { JsonObject, VerdictError } from '../../../core/types.ts';
import { findEvent } from '../pool/outcome.ts';
import { programFailure } from '../program-failure.ts';
import type { PhaseResult, PhaseSpec } from '../pool/protocol.ts';
import type { ResourceLimits } from '../../../core/sandbox/limits.ts';
import type { TestProblem } from './render.ts';

export type TestOutcome = { outcome: 'pass' | 'skip' } | ({ outcome: 'fail' | 'error' } & TestProblem);

export interface BcbRunReport {
  /** Test method names in the order unittest ran them (when the suite got that far). */
  tests: string[] | null;
  results: Map<string, TestOutcome>;
  /** The program failed as a whole (syntax, exception at import, timeout, tampering, …). */
  failure?: VerdictError;
  /** The test module itself is broken (a harness error at prepare time). */
  taskError?: string;
  /** Running the suite took this long (for the reference's measured time). */
  suiteMs?: number;
  wallMs: number;
}

export function runPhase(program: string, test: string, limits: ResourceLimits, deadlineMs: number): PhaseSpec {
  return { name: 'tests', kind: 'bcb.run', payload: { program, test }, limits, deadlineMs };
}

export function interpretRun(result: PhaseResult, limits: ResourceLimits, deadlineMs: number): BcbRunReport {
  const report: BcbRunReport = { tests: null, results: new Map(), wallMs: result.wallMs };
  const tests = findEvent(result, 'tests');
  if (tests && Array.isArray(tests.names)) report.tests = tests.names.map(String);
  let running: string | null = null;
  for (const event of result.events) {
    if (event.event === 'start') running = String(event.test);
    if (event.event !== 'result') continue;
    const name = String(event.test);
    running = null;
    if (event.outcome === 'pass' || event.outcome === 'skip') report.results.set(name, { outcome: event.outcome });
    else {
      report.results.set(name, {
        outcome: event.outcome === 'error' ? 'error' : 'fail',
        type: String(event.type ?? 'Error'),
        message: String(event.message ?? ''),
        ...(typeof event.traceback === 'string' ? { traceback: event.traceback } : {}),
      });
    }
  }
  const done = findEvent(result, 'done');
  if (done && typeof done.ms === 'number') report.suiteMs = done.ms;
  const failure = programFailure(result, deadlineMs, limits, { file: '__test__.py', lastFrameLines: 4, running });
  if (failure) {
    const { taskError, ...error } = failure;
    report.failure = error;
    if (taskError) report.taskError = error.message;
  }
  return report;
}

/** Per-test pass/fail over the task's stable test list (skipped tests pass, as in the original). */
export function testCases(report: BcbRunReport, caseIds: readonly string[]): { id: string; pass: boolean }[] {
  return caseIds.map((id) => {
    const outcome = report.results.get(id)?.outcome;
    return { id, pass: outcome === 'pass' || outcome === 'skip' };
  });
}

/** Counts of the exception types of the failing tests (all error-only feedback may say). */
export function exceptionTypes(report: BcbRunReport): JsonObject {
  const counts: JsonObject = {};
  for (const outcome of report.results.values()) {
    if (outcome.outcome === 'fail' || outcome.outcome === 'error')
      counts[outcome.type] = ((counts[outcome.type] as number | undefined) ?? 0) + 1;
  }
  return counts;
}
