/**
 * One DSCodeBench check as sandbox phases — the candidate's run, the reference's run (same inputs,
 * same seed), then the judge comparing their outputs — and what their results mean. The candidate
 * phase is forked before the reference program is ever read by the worker, so it cannot find it.
 */
import type { ErrorKind, Json, VerdictError, Witness } from '../../../core/types.ts';
import { findEvent, harnessEventFailure, silentExit, terminationFailure } from '../pool/outcome.ts';
import type { PhaseResult, PhaseSpec } from '../pool/protocol.ts';
import { ownFrames, programFailure } from '../program-failure.ts';
import type { ResourceLimits } from '../../../core/sandbox/limits.ts';

/** Extra inputs beyond the seeded ones (hardening): another generator seed, or a given value. */
export type ProbeSpec = { kind: 'generated'; seed: number; n: number; index: number } | { kind: 'values'; value: Json };

export type InputsMode = { kind: 'generated'; seed: number; n: number } | { kind: 'values'; values: Json[] };

export interface ComparatorOptions {
  /** Replicate the original's bug: same-typed floats, torch tensors, masked arrays and frozen multivariate normals always match. */
  noOpFloatBranches: boolean;
  /** Replicate the original's np.allclose on non-numeric arrays (they never match, not even the reference with itself). */
  nonNumericArraysFail: boolean;
}

export interface DsSettings {
  seed: number;
  cases: number;
  candidateDeadlineMs: number;
  referenceDeadlineMs: number;
  judgeDeadlineMs: number;
  limits: ResourceLimits;
  referenceLimits: ResourceLimits;
  comparator: ComparatorOptions;
  /** Score only the cases that raised as failed (the original fails every case when any raises). */
  isolateCaseExceptions: boolean;
  forceRandomState: boolean;
  /** Cap on the pickled outputs of one run (and on the reference's pickled inputs), bytes. */
  maxResultBytes: number;
  /** Largest candidate program run, UTF-8 bytes. */
  maxProgramBytes: number;
}

export interface DsProgram {
  code: string;
  testScript: string;
}

export interface JudgeReport {
  total: number;
  pass: boolean[];
  witnesses: { index: number; input: string | null; expected: string; actual: string; reason: string }[];
  candidateRaised: number[];
  goldRaised: { index: number; type: string; message: string }[];
  goldRaisedCount: number;
  unreadable?: string;
  missing?: boolean;
}

/** A judge witness as a verdict witness: the failing input, expected and actual values (truncated by the judge). */
export function judgeWitness(w: JudgeReport['witnesses'][number], caseId: string, unnamedInput: string): Witness {
  return {
    kind: 'failing-input',
    label: w.actual.startsWith('raised ') ? 'raised an exception' : 'wrong output',
    input: w.input ?? unnamedInput,
    expected: w.expected,
    actual: w.actual,
    size: (w.input ?? '').length,
    caseId,
  };
}

export interface DsRunReport {
  /** The candidate never produced outputs (syntax error, exception at import, timeout, …). */
  candidateFailure?: VerdictError;
  /** The first case on which the candidate raised. */
  candidateRaised?: { index: number; type: string; message: string; traceback?: string };
  /** The reference or the task itself failed. */
  referenceFailure?: string;
  /** How it failed: its own fault (syntax, runtime, unsafe) or a limit that stopped it. */
  referenceFailureKind?: ErrorKind;
  judge?: JudgeReport;
  entry?: string;
  single?: boolean;
  schema?: Json;
  timings: { candidateMs: number; referenceMs: number; judgeMs: number };
}

/** The three phases of a check (or of a probe, with other inputs). */
export function checkPhases(
  candidate: string,
  reference: DsProgram,
  inputs: InputsMode,
  extra: readonly ProbeSpec[],
  settings: DsSettings,
  options: { describeDomain?: boolean; maxWitnesses?: number; observe?: number } = {},
): PhaseSpec[] {
  const run = (code: string, more: Record<string, unknown>) => ({
    code,
    testScript: reference.testScript,
    inputs,
    extra,
    seed: settings.seed,
    forceRandomState: settings.forceRandomState,
    maxResultBytes: settings.maxResultBytes,
    ...more,
  });
  return [
    {
      name: 'candidate',
      kind: 'ds.run',
      payload: run(candidate, {}),
      limits: settings.limits,
      deadlineMs: settings.candidateDeadlineMs,
      capture: true,
    },
    {
      name: 'gold',
      kind: 'ds.run',
      payload: run(reference.code, { recordInputs: true, describeDomain: options.describeDomain ?? false }),
      limits: settings.referenceLimits,
      deadlineMs: settings.referenceDeadlineMs,
    },
    {
      name: 'judge',
      kind: 'ds.compare',
      payload: { options: settings.comparator, maxWitnesses: options.maxWitnesses ?? 2 },
      limits: settings.referenceLimits,
      deadlineMs: settings.judgeDeadlineMs,
    },
  ];
}

/** The file a candidate or reference runs as; only its frames of a traceback mean anything to the model. */
const SOLUTION_FILE = 'solution.py';

/** A run's failure as a whole; a task error counts as the run's runtime error. */
function phaseFailure(result: PhaseResult, deadlineMs: number, limits: ResourceLimits): VerdictError | null {
  const failure = programFailure(result, deadlineMs, limits, { file: SOLUTION_FILE });
  return failure && { kind: failure.kind, message: failure.message };
}

/** Reads the three phase results of a check. */
export function interpretCheck(results: readonly PhaseResult[], settings: DsSettings): DsRunReport {
  const [candidate, gold, judge] = results;
  if (!candidate || !gold || !judge) throw new Error('the sandbox returned fewer phases than requested');
  const report: DsRunReport = {
    timings: { candidateMs: candidate.wallMs, referenceMs: gold.wallMs, judgeMs: judge.wallMs },
  };
  const started = findEvent(candidate, 'started');
  if (started) {
    report.entry = String(started.entry);
    report.single = Boolean(started.single);
  }
  const failure = phaseFailure(candidate, settings.candidateDeadlineMs, settings.limits);
  if (failure) report.candidateFailure = failure;
  const done = findEvent(candidate, 'done');
  const first = done?.firstError as
    { index: number; type: string; message: string; traceback?: string } | null | undefined;
  if (first) report.candidateRaised = first;
  const goldFailure = phaseFailure(gold, settings.referenceDeadlineMs, settings.referenceLimits);
  if (goldFailure) {
    report.referenceFailure = `the reference solution failed: ${goldFailure.message}`;
    report.referenceFailureKind = goldFailure.kind;
    return report;
  }
  const inputs = findEvent(gold, 'inputs');
  if (inputs?.schema) report.schema = inputs.schema as Json;
  const goldStarted = findEvent(gold, 'started');
  if (goldStarted && report.entry === undefined) report.single = Boolean(goldStarted.single);
  const judgeError = findEvent(judge, 'judge-error');
  if (judgeError) {
    report.referenceFailure = `the judge could not read the reference outputs: ${String(judgeError.message)}`;
    report.referenceFailureKind = 'runtime';
    return report;
  }
  const compared = findEvent(judge, 'compared');
  if (!compared) {
    const stopped =
      terminationFailure(judge, settings.judgeDeadlineMs, settings.referenceLimits) ??
      harnessEventFailure(judge, settings.referenceLimits);
    const why = stopped?.reason ?? silentExit(judge);
    // The reference's outputs were judged against themselves when the task was prepared: when judging
    // fails now, the candidate's outputs made it fail (too big or too slow to compare), not the task.
    if (!report.candidateFailure && stopped)
      report.candidateFailure = { kind: stopped.kind, message: `judging the outputs failed: ${why}` };
    else {
      report.referenceFailure = `the judge phase failed: ${why}`;
      report.referenceFailureKind = stopped?.kind ?? 'runtime';
    }
    return report;
  }
  report.judge = compared as unknown as JudgeReport;
  return report;
}

/** Per-case results under the scoring policy: the original fails every case once any case raised. */
export function scoreCases(report: DsRunReport, total: number, isolateCaseExceptions: boolean): boolean[] {
  if (report.candidateFailure || !report.judge) return new Array<boolean>(total).fill(false);
  if (report.candidateRaised && !isolateCaseExceptions) return new Array<boolean>(total).fill(false);
  const pass = report.judge.pass;
  return Array.from({ length: total }, (_, i) => pass[i] === true);
}

/** The error a verdict carries for a run: the program's failure, or the first exception on a case. */
export function verdictError(report: DsRunReport, inputLabel: (index: number) => string): VerdictError | undefined {
  if (report.candidateFailure) return report.candidateFailure;
  const raised = report.candidateRaised;
  if (!raised) return undefined;
  const own = ownFrames(raised.traceback, SOLUTION_FILE);
  const where = `${report.entry ?? 'the function'} raised ${raised.type}: ${raised.message} on ${inputLabel(raised.index)}`;
  return { kind: 'runtime', message: own.length ? `${where}\n${own.join('\n')}` : where };
}
