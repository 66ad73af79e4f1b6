/**
 * Why a sandboxed phase did not finish normally, in words that name the limit or event: the
 * wall-clock deadline, the CPU limit, the address-space limit, the file-size limit, the process
 * limit, a crash signal, a worker killed from inside. Pure functions over what the worker reported.
 */
import type { ErrorKind } from '../../../core/types.ts';
import { formatBytes, type ResourceLimits } from '../../../core/sandbox/limits.ts';
import { MAX_REPORT_BYTES, type PhaseEvent, type PhaseResult } from './protocol.ts';
import { WorkerFailure } from './worker.ts';

export interface Failure {
  kind: Extract<ErrorKind, 'timeout' | 'runtime' | 'unsafe' | 'too-large' | 'too-complex'>;
  reason: string;
}

const SIGNALS: Record<number, string> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  3: 'SIGQUIT',
  4: 'SIGILL',
  5: 'SIGTRAP',
  6: 'SIGABRT',
  7: 'SIGBUS',
  8: 'SIGFPE',
  9: 'SIGKILL',
  10: 'SIGUSR1',
  11: 'SIGSEGV',
  12: 'SIGUSR2',
  13: 'SIGPIPE',
  14: 'SIGALRM',
  15: 'SIGTERM',
  24: 'SIGXCPU',
  25: 'SIGXFSZ',
  31: 'SIGSYS',
};

export function signalName(signal: number): string {
  return SIGNALS[signal] ?? `signal ${signal}`;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Adds the limit behind a Python exception to its message, when one is recognisable. */
export function explainException(type: string, message: string, limits: ResourceLimits): string {
  const text = message ? `${type}: ${message}` : type;
  if (type === 'MemoryError' || type.endsWith('_ArrayMemoryError')) {
    return `${text} (the address-space limit of ${formatBytes(limits.addressSpaceBytes)} was reached)`;
  }
  if (/\[Errno 27\]|File too large/.test(message))
    return `${text} (the file-size limit of ${formatBytes(limits.fileSizeBytes)} was reached; stdout and stderr count)`;
  if (/\[Errno 28\]|No space left on device/.test(message))
    return `${text} (the sandbox's private scratch space is full)`;
  if (type === 'BlockingIOError' && /\[Errno 11\]/.test(message))
    return `${text} (the process limit of ${limits.processes} was reached)`;
  if (/\[Errno 24\]|Too many open files/.test(message))
    return `${text} (the open-file limit of ${limits.openFiles} was reached)`;
  if (type === 'RecursionError') return `${text} (recursion too deep)`;
  if (/Network is unreachable|Temporary failure in name resolution|\[Errno -3\]|\[Errno 101\]/.test(message)) {
    return `${text} (the sandbox has no network)`;
  }
  return text;
}

/** How the phase process ended, when it did not end by itself (deadline, limit, signal); else null. */
export function terminationFailure(result: PhaseResult, deadlineMs: number, limits: ResourceLimits): Failure | null {
  if (result.printCap) {
    return {
      kind: 'too-large',
      reason: `printed more than ${formatBytes(limits.fileSizeBytes)} to ${result.printCap} and was stopped (the output cap, limits.fileSizeBytes)`,
    };
  }
  if (result.deadline)
    return { kind: 'timeout', reason: `killed at the wall-clock deadline of ${seconds(deadlineMs)}` };
  if (result.outputCap)
    return {
      kind: 'too-large',
      reason: `reported more than ${formatBytes(MAX_REPORT_BYTES)} of results to the harness and was stopped`,
    };
  if (result.signal === 24)
    return { kind: 'timeout', reason: `killed by the CPU time limit of ${limits.cpuSeconds} s (SIGXCPU)` };
  if (result.signal === 25)
    return {
      kind: 'runtime',
      reason: `killed by the file-size limit of ${formatBytes(limits.fileSizeBytes)} (SIGXFSZ)`,
    };
  if (result.signal === 9)
    return { kind: 'runtime', reason: 'killed by SIGKILL (out of memory, or the program killed itself)' };
  if (result.signal !== null)
    return { kind: 'runtime', reason: `crashed with ${signalName(result.signal)}${stderrNote(result)}` };
  return null;
}

function stderrNote(result: PhaseResult): string {
  const tail = result.stderrTail?.trim();
  return tail ? `: ${tail.split('\n').slice(-3).join(' | ').slice(0, 300)}` : '';
}

/**
 * A program CPython refused for its size or depth, or whose results went over a cap (events the
 * phase sent itself); else null.
 */
export function refusalFailure(result: PhaseResult): Failure | null {
  const complex = findEvent(result, 'too-complex');
  if (complex)
    return {
      kind: 'too-complex',
      reason: `the program is too big or too deeply nested for the interpreter: ${String(complex.type)}: ${String(complex.message ?? '')}`,
    };
  const large = findEvent(result, 'too-large');
  if (large) return { kind: 'too-large', reason: String(large.message ?? 'its results are over the size cap') };
  return null;
}

/** The first event of one of the given kinds, if any. */
export function findEvent(result: PhaseResult, ...kinds: string[]): PhaseEvent | undefined {
  return result.events.find((e) => kinds.includes(e.event));
}

/**
 * A phase whose harness code failed after task code ran (a closed result channel, a full disk):
 * caused by the program, reported as its runtime failure with the harness's message.
 */
export function harnessEventFailure(result: PhaseResult, limits: ResourceLimits): Failure | null {
  const event = findEvent(result, 'harness-error');
  if (!event) return null;
  return {
    kind: 'runtime',
    reason: `the run could not report its results: ${explainException(String(event.type), String(event.message ?? ''), limits)}`,
  };
}

/** A request that failed because its worker died or hung, as a failure of the phase that was running. */
export function workerFailure(error: unknown): Failure | null {
  if (!(error instanceof WorkerFailure)) return null;
  if (error.reason === 'unresponsive')
    return { kind: 'timeout', reason: `${error.message}; the worker was killed and replaced` };
  if (error.reason === 'died')
    return {
      kind: 'runtime',
      reason: `${error.message} (did the program kill its sandbox worker?); the worker was replaced`,
    };
  return { kind: 'runtime', reason: error.message };
}

/** A phase that ended without its final event and without a recognisable cause. */
export function silentExit(result: PhaseResult): string {
  if (result.exitCode !== null && result.exitCode !== 0)
    return `exited with status ${result.exitCode} before reporting its results`;
  return 'ended before reporting its results (did the program exit, or close the result channel?)';
}
