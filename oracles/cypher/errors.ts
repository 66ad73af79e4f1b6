/**
 * Driver and server errors as verdict error kinds (a pure table), and the errors that are not a
 * verdict at all: a lost connection means Neo4j is unreachable, which is the harness's problem, not
 * the model's. Memory errors may hit an innocent query while another one fills the heap, so they
 * are retried before they become a verdict.
 */
import type { VerdictError } from '../../core/types.ts';
import { RESULT_TOO_LARGE_CODE } from './bolt/result-cap.ts';

const MAX_MESSAGE = 1_200;

/** A message cut to a length feedback and reports can carry. */
export function trimMessage(message: string, max = MAX_MESSAGE): string {
  return message.length > max ? `${message.slice(0, max)}…` : message;
}

const codeOf = (error: unknown) => String((error as { code?: unknown })?.code ?? '');
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const firstSentence = (text: string) => /^[^.]*\.?/.exec(text)?.[0] ?? text;

/** Server codes with a kind of their own, and how their message reads. */
const BY_CODE: Record<string, (message: string, code: string) => VerdictError> = {
  'Neo.ClientError.Statement.SyntaxError': (message) => ({ kind: 'syntax', message }),
  [RESULT_TOO_LARGE_CODE]: (message) => ({ kind: 'too-large', message }),
  'Neo.TransientError.General.OutOfMemoryError': (_message, code) => ({
    kind: 'too-large',
    message: `Neo4j ran out of memory running the query: it builds values too large for the server (${code})`,
  }),
  'Neo.TransientError.General.MemoryPoolOutOfMemoryError': (message, code) => ({
    kind: 'too-large',
    message: `the query needs more memory than Neo4j allows a transaction (${code}: ${firstSentence(message)})`,
  }),
  'Neo.TransientError.General.StackOverFlowError': (_message, code) => ({
    kind: 'too-complex',
    message: `the query is nested too deeply for Neo4j to plan or run it (${code})`,
  }),
};

/** A driver or server error as a verdict error (syntax, timeout, unsafe, too-large, too-complex or runtime). */
export function classifyError(error: unknown): VerdictError {
  const code = codeOf(error);
  const message = messageOf(error);
  const known = BY_CODE[code];
  if (known) {
    const verdict = known(message, code);
    return { ...verdict, message: trimMessage(verdict.message) };
  }
  if (error instanceof RangeError && /call stack/i.test(message))
    return { kind: 'too-large', message: 'the result nests lists or maps too deeply to be read' };
  if (code.includes('TransactionTimedOut') || /has been terminated|timed out/i.test(code))
    return { kind: 'timeout', message: trimMessage(`${message} (${code})`) };
  if (code === 'Neo.ClientError.Statement.AccessMode' || code.startsWith('Neo.ClientError.Security.'))
    return { kind: 'unsafe', message: trimMessage(message) };
  return { kind: 'runtime', message: trimMessage(code ? `${code}: ${message}` : message) };
}

/** The driver lost (or could not get) its connection: nothing was learnt about the query. */
export function isConnectionLoss(error: unknown): boolean {
  const code = codeOf(error);
  // A connection closed while the driver waited for a response can also surface as a ProtocolError.
  return (
    code === 'ServiceUnavailable' ||
    code === 'SessionExpired' ||
    (code === 'ProtocolError' && /connection\b.*\bclosed/i.test(messageOf(error)))
  );
}

/**
 * The server stopped the query: its connection was closed or its transaction terminated (not by the
 * timeout, which has codes of its own). The launcher's reaper does this to a query filling the heap.
 */
export function isStoppedByServer(error: unknown): boolean {
  const code = codeOf(error);
  return (
    isConnectionLoss(error) ||
    code === 'Neo.ClientError.Transaction.Terminated' ||
    code === 'Neo.TransientError.Transaction.Terminated'
  );
}

/** Memory errors of any kind (the query's own limit, a shared pool, the heap). */
export function isMemoryError(error: unknown): boolean {
  const code = codeOf(error);
  return (
    code === 'Neo.TransientError.General.OutOfMemoryError' ||
    code === 'Neo.TransientError.General.MemoryPoolOutOfMemoryError'
  );
}

/**
 * A memory error that may be a neighbour's doing: the heap is full (whichever query allocates next
 * fails) or a pool shared by several transactions is. The transaction's own limit
 * (`db.memory.transaction.max`) is the query's alone and is not among them.
 */
export function isSharedMemoryError(error: unknown): boolean {
  if (!isMemoryError(error)) return false;
  return !(
    codeOf(error) === 'Neo.TransientError.General.MemoryPoolOutOfMemoryError' &&
    /\bdb\.memory\.transaction\.max\b/.test(messageOf(error))
  );
}

/** Neo4j stopped answering: a harness error (the run's infrastructure), never a model failure. */
export class Neo4jUnreachableError extends Error {
  constructor(what: string, cause: unknown) {
    super(`Neo4j stopped answering while running ${what}: ${trimMessage(messageOf(cause), 300)}`);
    this.name = 'Neo4jUnreachableError';
  }
}
