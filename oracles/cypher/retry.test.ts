/** The retry policy (pure): which failures are tried again, how often, after which waits. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  failureCause,
  noRetries,
  retryDelayMs,
  SHARED_MEMORY_RETRY_DELAYS_MS,
  STOPPED_RETRY_DELAYS_MS,
  type FailureCause,
} from './retry.ts';

const neo4jError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('failureCause', () => {
  it('separates what may be a neighbour’s doing from the query’s own failures', () => {
    expect(failureCause(neo4jError('Neo.TransientError.General.OutOfMemoryError'))).toBe('shared-memory');
    expect(
      failureCause(
        neo4jError(
          'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
          'db.memory.transaction.total.max threshold reached',
        ),
      ),
    ).toBe('shared-memory');
    expect(
      failureCause(
        neo4jError(
          'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
          'db.memory.transaction.max threshold reached',
        ),
      ),
    ).toBe('own');
    expect(failureCause(neo4jError('ServiceUnavailable'))).toBe('stopped');
    expect(failureCause(neo4jError('Neo.ClientError.Transaction.Terminated'))).toBe('stopped');
    expect(failureCause(neo4jError('Neo.ClientError.Statement.SyntaxError'))).toBe('own');
    expect(failureCause(neo4jError('Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration'))).toBe('own');
    expect(failureCause(new Error('plain'))).toBe('own');
  });
});

describe('retryDelayMs', () => {
  it('walks each cause’s waits in order, then makes the failure final; the query’s own failures at once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<FailureCause>('shared-memory', 'stopped', 'own'), { maxLength: 30 }),
        (failures) => {
          const counts = noRetries();
          const waited = { 'shared-memory': [] as number[], stopped: [] as number[] };
          for (const cause of failures) {
            const delay = retryDelayMs(cause, counts);
            if (cause === 'own') {
              expect(delay).toBeNull();
              continue;
            }
            const schedule = cause === 'stopped' ? STOPPED_RETRY_DELAYS_MS : SHARED_MEMORY_RETRY_DELAYS_MS;
            expect(delay).toBe(schedule[counts[cause]] ?? null);
            if (delay === null) continue;
            waited[cause].push(delay);
            counts[cause]++;
          }
          // Never more tries than the schedule has waits; the waits grow.
          expect(waited['shared-memory']).toEqual(
            SHARED_MEMORY_RETRY_DELAYS_MS.slice(0, waited['shared-memory'].length),
          );
          expect(waited.stopped).toEqual(STOPPED_RETRY_DELAYS_MS.slice(0, waited.stopped.length));
        },
      ),
    );
    expect([...SHARED_MEMORY_RETRY_DELAYS_MS].sort((a, b) => a - b)).toEqual(SHARED_MEMORY_RETRY_DELAYS_MS);
    expect(SHARED_MEMORY_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2_000);
  });
});
