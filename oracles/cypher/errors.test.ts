/** Driver and server errors as verdict error kinds (pure), with the codes Neo4j 5.20 sends. */
import { describe, expect, it } from 'vitest';
import { RESULT_TOO_LARGE_CODE } from './bolt/result-cap.ts';
import {
  classifyError,
  isConnectionLoss,
  isMemoryError,
  isSharedMemoryError,
  isStoppedByServer,
  trimMessage,
} from './errors.ts';

const neo4jError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('classifyError', () => {
  it('names answers no engine can run or hold: too-large for memory and caps, too-complex for nesting', () => {
    expect(classifyError(neo4jError(RESULT_TOO_LARGE_CODE, 'the result is larger than 16,777,216 bytes'))).toEqual({
      kind: 'too-large',
      message: 'the result is larger than 16,777,216 bytes',
    });
    expect(
      classifyError(
        neo4jError(
          'Neo.TransientError.General.OutOfMemoryError',
          'There is not enough memory to perform the current task. Please try increasing …',
        ),
      ),
    ).toEqual({
      kind: 'too-large',
      message:
        'Neo4j ran out of memory running the query: it builds values too large for the server (Neo.TransientError.General.OutOfMemoryError)',
    });
    expect(
      classifyError(
        neo4jError(
          'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
          'The allocation of an extra 2.0 MiB would use more than the limit 256.0 MiB. Currently using 254.6 MiB.',
        ),
      ),
    ).toEqual({
      kind: 'too-large',
      message:
        'the query needs more memory than Neo4j allows a transaction (Neo.TransientError.General.MemoryPoolOutOfMemoryError: The allocation of an extra 2.)',
    });
    expect(
      classifyError(
        neo4jError(
          'Neo.TransientError.General.StackOverFlowError',
          'There is not enough stack size to perform the current task.',
        ),
      ).kind,
    ).toBe('too-complex');
    expect(classifyError(new RangeError('Maximum call stack size exceeded')).kind).toBe('too-large');
  });

  it('keeps syntax, timeout, unsafe and runtime as before, with bounded messages', () => {
    expect(
      classifyError(neo4jError('Neo.ClientError.Statement.SyntaxError', `Invalid input ${'x'.repeat(5000)}`)),
    ).toEqual({ kind: 'syntax', message: trimMessage(`Invalid input ${'x'.repeat(5000)}`) });
    expect(classifyError(neo4jError('Neo.ClientError.Statement.SyntaxError', 'x'.repeat(5000))).message).toHaveLength(
      1_201,
    );
    expect(
      classifyError(neo4jError('Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration', 'terminated'))
        .kind,
    ).toBe('timeout');
    expect(
      classifyError(neo4jError('Neo.ClientError.Statement.AccessMode', 'Writing in read access mode not allowed')).kind,
    ).toBe('unsafe');
    expect(classifyError(neo4jError('Neo.ClientError.Procedure.ProcedureNotFound', 'There is no procedure'))).toEqual({
      kind: 'runtime',
      message: 'Neo.ClientError.Procedure.ProcedureNotFound: There is no procedure',
    });
  });

  it('tells lost connections and memory errors apart from verdicts', () => {
    expect(isConnectionLoss(neo4jError('ServiceUnavailable', 'Connection was closed by server'))).toBe(true);
    expect(isConnectionLoss(neo4jError('SessionExpired', 'x'))).toBe(true);
    expect(isConnectionLoss(neo4jError('Neo.ClientError.Statement.SyntaxError', 'x'))).toBe(false);
    expect(isMemoryError(neo4jError('Neo.TransientError.General.OutOfMemoryError', 'x'))).toBe(true);
    expect(isMemoryError(neo4jError('Neo.TransientError.General.StackOverFlowError', 'x'))).toBe(false);
  });

  it('counts a connection closed under a pending response, and a terminated transaction, as the server stopping the query', () => {
    expect(isConnectionLoss(neo4jError('ProtocolError', 'Connection was closed by server'))).toBe(true);
    expect(isConnectionLoss(neo4jError('ProtocolError', 'Unknown Bolt protocol version: 9'))).toBe(false);
    expect(
      isStoppedByServer(
        neo4jError(
          'Neo.ClientError.Transaction.Terminated',
          'The transaction has been terminated. Retry your operation in a new transaction',
        ),
      ),
    ).toBe(true);
    expect(isStoppedByServer(neo4jError('Neo.TransientError.Transaction.Terminated', 'terminated'))).toBe(true);
    expect(isStoppedByServer(neo4jError('SessionExpired', 'x'))).toBe(true);
    // The timeout has codes of its own: it is a verdict, not the server stopping the query.
    expect(
      isStoppedByServer(neo4jError('Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration', 'terminated')),
    ).toBe(false);
  });

  it('tells a transaction over its own memory limit (final) from a full heap or shared pool (maybe a neighbour)', () => {
    const own = neo4jError(
      'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
      'The allocation of an extra 16.4 MiB would use more than the limit 128.0 MiB. Currently using 125.5 MiB. db.memory.transaction.max threshold reached',
    );
    const shared = neo4jError(
      'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
      'The allocation of an extra 2.0 MiB would use more than the limit 307.0 MiB. Currently using 306.1 MiB. db.memory.transaction.total.max threshold reached',
    );
    expect(isMemoryError(own) && !isSharedMemoryError(own)).toBe(true);
    expect(isSharedMemoryError(shared)).toBe(true);
    expect(
      isSharedMemoryError(
        neo4jError(
          'Neo.TransientError.General.OutOfMemoryError',
          'There is not enough memory to perform the current task.',
        ),
      ),
    ).toBe(true);
    expect(
      isSharedMemoryError(neo4jError('Neo.ClientError.Statement.SyntaxError', 'db.memory.transaction.total.max')),
    ).toBe(false);
  });
});
