/**
 * Why a harness episode failed, as one of a few named kinds, and the pure rules that classify a
 * child's end (its exit, its last `error` message, its stderr).
 */

export const HARNESS_FAILURE_KINDS = [
  'timeout',
  'memory',
  'budget',
  'oversize',
  'crash',
  'protocol',
  'sandbox-violation',
] as const;
export type HarnessFailureKind = (typeof HARNESS_FAILURE_KINDS)[number];

export interface HarnessFailure {
  kind: HarnessFailureKind;
  message: string;
}

/** Error codes of an operation the sandbox refused (permission model, file system, network). */
const SANDBOX_CODES = new Set([
  'ERR_ACCESS_DENIED',
  'EACCES',
  'EPERM',
  'EROFS',
  'ENETUNREACH',
  'ECONNREFUSED',
  'EAI_AGAIN',
  'ENOTFOUND',
  'ERR_UNKNOWN_BUILTIN_MODULE',
]);

/** Error codes of a write past a size cap: the job folder is full, or a file is over its limit. */
const OVERSIZE_CODES = new Set(['ENOSPC', 'EFBIG', 'ERR_FS_FILE_TOO_LARGE']);

const MEMORY_TEXT =
  /heap out of memory|allocation failed|out of memory|Cannot allocate|ERR_MEMORY_ALLOCATION_FAILED|Invalid array length|ERR_STRING_TOO_LONG|Cannot create a string longer/i;

/** The failure kind of an `error` message the child sent before exiting. */
export function classifyChildError(error: {
  message: string;
  code: string | null;
  name: string | null;
}): HarnessFailure {
  const first = error.message.split('\n')[0] ?? error.message;
  if (error.code && OVERSIZE_CODES.has(error.code)) return { kind: 'oversize', message: `${error.code}: ${first}` };
  if (error.code && SANDBOX_CODES.has(error.code))
    return { kind: 'sandbox-violation', message: `${error.code}: ${first}` };
  if (/fetch failed/.test(first)) return { kind: 'sandbox-violation', message: `network: ${first}` };
  if (MEMORY_TEXT.test(error.message) || (error.name === 'RangeError' && /memory|allocation/i.test(first)))
    return { kind: 'memory', message: first };
  return { kind: 'crash', message: first };
}

/** The failure kind of a child that ended without `done` or `error`, from its exit and stderr. */
export function classifyExit(exit: { code: number | null; signal: string | null }, stderr: string): HarnessFailure {
  const tail = stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 400);
  if (exit.signal === 'SIGXCPU') return { kind: 'timeout', message: 'the CPU time limit was reached' };
  if (exit.signal === 'SIGXFSZ') return { kind: 'oversize', message: 'a file went over the size limit' };
  if (MEMORY_TEXT.test(stderr) || exit.code === 134)
    return { kind: 'memory', message: `the memory limit was reached${tail ? `: ${tail}` : ''}` };
  if (exit.signal === 'SIGKILL') return { kind: 'timeout', message: 'killed by a resource limit (SIGKILL)' };
  if (/ERR_ACCESS_DENIED/.test(stderr)) return { kind: 'sandbox-violation', message: tail };
  const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
  return { kind: 'crash', message: `the harness process ended (${how}) without an answer${tail ? `: ${tail}` : ''}` };
}
