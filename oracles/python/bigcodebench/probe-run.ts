/**
 * BigCodeBench hardening in the sandbox: deriving calls from the test module's literal calls
 * (py/bcb_derive.py), and running the reference (twice) and a candidate on those calls, judged by
 * the DSCodeBench comparator (py/bcb_probe.py, py/bcb_judge.py).
 */
import type { VerdictError } from '../../../core/types.ts';
import { explainException, findEvent, refusalFailure, terminationFailure } from '../pool/outcome.ts';
import type { PhaseResult, PhaseSpec } from '../pool/protocol.ts';
import type { ResourceLimits } from '../../../core/sandbox/limits.ts';

/** Cap on one pickled result of a probed call, bytes (a bigger one counts as raised ResultTooLarge). */
const MAX_CALL_RESULT_BYTES = 256 * 1024;
/** Wall-clock limit of the phases that run no task code (deriving, judging). */
const HARNESS_DEADLINE_MS = 60_000;
/** Every probed call starts from the same seeded random generators, in every run. */
const CALL_SEED = 0;

/** What the judge found for one call. Statuses `gold-*` mean the call is outside what the reference vouches for. */
export interface CallOutcome {
  status: 'same' | 'differ' | 'candidate-stopped' | 'gold-raised' | 'gold-stopped' | 'gold-unstable';
  expected?: string;
  actual?: string;
  /** The exception type the candidate raised, when it raised. */
  actualType?: string | null;
  reason?: string;
}

export interface ProbeRunReport {
  outcomes: CallOutcome[];
  /** Why the candidate's run stopped before its last call (timeout, memory, output cap, …). */
  candidateFailure?: VerdictError;
  wallMs: number;
}

export function derivePhase(
  test: string,
  entryPoint: string,
  seed: number,
  max: number,
  limits: ResourceLimits,
): PhaseSpec {
  return {
    name: 'derive',
    kind: 'bcb.derive',
    payload: { test, entryPoint, seed, max },
    limits,
    deadlineMs: HARNESS_DEADLINE_MS,
  };
}

/** The derived call texts of a `bcb.derive` run (empty when the test module has no literal call). */
export function derivedCalls(result: PhaseResult | undefined): string[] {
  const event = result && findEvent(result, 'derived');
  if (!event) throw new Error(`deriving probe calls failed: ${result?.stderrTail?.trim().slice(-300) ?? 'no result'}`);
  return Array.isArray(event.calls) ? event.calls.map(String) : [];
}

/** Reference, reference again (calls on which it disagrees with itself are left out), candidate, judge. */
export function probePhases(
  goldProgram: string,
  candidateProgram: string,
  calls: readonly string[],
  limits: ResourceLimits,
  deadlineMs: number,
): PhaseSpec[] {
  const run = (name: string, program: string): PhaseSpec => ({
    name,
    kind: 'bcb.probe',
    payload: { program, calls, seed: CALL_SEED, maxResultBytes: MAX_CALL_RESULT_BYTES },
    limits,
    deadlineMs,
  });
  return [
    run('gold', goldProgram),
    run('gold-again', goldProgram),
    { ...run('candidate', candidateProgram), capture: true },
    { name: 'judge', kind: 'bcb.judge', payload: { calls }, limits, deadlineMs: HARNESS_DEADLINE_MS },
  ];
}

/** Why a probe run of the candidate stopped early, if it did. */
function candidateStopped(
  result: PhaseResult | undefined,
  limits: ResourceLimits,
  deadlineMs: number,
): VerdictError | undefined {
  if (!result) return { kind: 'runtime', message: 'the candidate was not run' };
  const stopped = terminationFailure(result, deadlineMs, limits) ?? refusalFailure(result);
  if (stopped) return { kind: stopped.kind, message: stopped.reason };
  const syntax = findEvent(result, 'syntax-error');
  if (syntax) return { kind: 'syntax', message: `${String(syntax.type ?? 'SyntaxError')}: ${String(syntax.message)}` };
  const program = findEvent(result, 'program-error');
  if (program)
    return { kind: 'runtime', message: explainException(String(program.type), String(program.message ?? ''), limits) };
  if (!findEvent(result, 'done')) return { kind: 'runtime', message: 'the run ended before its last call' };
  return undefined;
}

export function interpretProbe(
  results: readonly PhaseResult[],
  limits: ResourceLimits,
  deadlineMs: number,
): ProbeRunReport {
  const byName = new Map(results.map((r) => [r.name, r]));
  const judged = byName.get('judge') && findEvent(byName.get('judge') as PhaseResult, 'judged');
  if (!judged || !Array.isArray(judged.outcomes))
    throw new Error(`the probe judge failed: ${byName.get('judge')?.stderrTail?.trim().slice(-300) ?? 'no result'}`);
  const candidate = byName.get('candidate');
  const failure = candidateStopped(candidate, limits, deadlineMs);
  return {
    outcomes: judged.outcomes as unknown as CallOutcome[],
    ...(failure ? { candidateFailure: failure } : {}),
    wallMs: candidate?.wallMs ?? 0,
  };
}

/** Did the candidate fail on this call (a different result, a raise the reference did not, or a stop)? */
export function disagrees(outcome: CallOutcome | undefined): boolean {
  return outcome?.status === 'differ' || outcome?.status === 'candidate-stopped';
}

/** A disagreement's witness label: what went wrong on the call. */
export function witnessLabel(outcome: CallOutcome): string {
  if (outcome.status === 'candidate-stopped') return 'did not finish';
  return outcome.actualType ? 'raised an exception' : 'wrong output';
}

/** What the candidate did on a call it disagrees on, as a witness's `actual`. */
export function actualOf(outcome: CallOutcome, failure: VerdictError | undefined): string {
  if (outcome.status === 'candidate-stopped') return failure ? `stopped: ${failure.message}` : 'no result';
  return outcome.actual ?? '';
}
