/**
 * Running one Python program in the sandbox and saying how it ended: ok, a syntax error, an
 * exception (with the limit behind it, when there is one), a timeout, or a killed worker. The
 * general-purpose entry point to the sandbox (the adversarial corpus and the perf script use it).
 */
import type { ErrorKind } from '../../core/types.ts';
import {
  explainException,
  findEvent,
  harnessEventFailure,
  refusalFailure,
  silentExit,
  terminationFailure,
  workerFailure,
} from './pool/outcome.ts';
import type { WorkerPool } from './pool/pool.ts';
import { cpuSecondsFor, DEFAULT_LIMITS, type ResourceLimits } from '../../core/sandbox/limits.ts';

export type ProgramStatus =
  'ok' | Extract<ErrorKind, 'syntax' | 'runtime' | 'timeout' | 'unsafe' | 'too-complex' | 'too-large'>;

export interface ProgramOutcome {
  status: ProgramStatus;
  /** Why it ended as it did, naming the limit or event ("" when it simply finished). */
  reason: string;
  stdout: string;
  stderr: string;
  wallMs: number;
  cpuMs: number;
}

export interface RunProgramOptions {
  deadlineMs?: number;
  limits?: Partial<ResourceLimits>;
}

/** Runs `source` as __main__ in a fresh sandboxed process of the pool. */
export async function runProgram(
  pool: WorkerPool,
  source: string,
  options: RunProgramOptions = {},
): Promise<ProgramOutcome> {
  const deadlineMs = options.deadlineMs ?? 10_000;
  const limits: ResourceLimits = { ...DEFAULT_LIMITS, cpuSeconds: cpuSecondsFor(deadlineMs), ...options.limits };
  const started = performance.now();
  let results;
  try {
    results = await pool.run([
      { name: 'program', kind: 'exec', payload: { source }, limits, deadlineMs, capture: true },
    ]);
  } catch (error) {
    const failure = workerFailure(error);
    if (!failure) throw error;
    return {
      status: failure.kind,
      reason: failure.reason,
      stdout: '',
      stderr: '',
      wallMs: performance.now() - started,
      cpuMs: 0,
    };
  }
  const result = results[0];
  if (!result) throw new Error('the worker returned no phase result');
  const base = {
    stdout: result.stdoutTail ?? '',
    stderr: result.stderrTail ?? '',
    wallMs: result.wallMs,
    cpuMs: result.cpuMs,
  };
  const terminated = terminationFailure(result, deadlineMs, limits);
  if (terminated) return { ...base, status: terminated.kind, reason: terminated.reason };
  const refused = refusalFailure(result);
  if (refused) return { ...base, status: refused.kind, reason: refused.reason };
  const syntax = findEvent(result, 'syntax-error');
  if (syntax)
    return { ...base, status: 'syntax', reason: `${String(syntax.type ?? 'SyntaxError')}: ${String(syntax.message)}` };
  const exception = findEvent(result, 'exception');
  if (exception)
    return {
      ...base,
      status: 'runtime',
      reason: explainException(String(exception.type), String(exception.message ?? ''), limits),
    };
  const exit = findEvent(result, 'exit');
  if (exit) {
    return exit.code === 0 || exit.code === null
      ? { ...base, status: 'ok', reason: 'exited with status 0' }
      : { ...base, status: 'runtime', reason: `exited with status ${String(exit.code)}` };
  }
  const harness = harnessEventFailure(result, limits);
  if (harness) return { ...base, status: harness.kind, reason: harness.reason };
  if (findEvent(result, 'done')) return { ...base, status: 'ok', reason: '' };
  return { ...base, status: 'runtime', reason: silentExit(result) };
}
