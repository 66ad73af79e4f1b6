/** Test support: temporary folders that a test file removes together when it is done; peak memory of pool children; values that collide under Python's equality. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { sampleMemory } from './processes/memory.ts';
import type { SqlValue } from '../oracles/sql/values.ts';

export function temporaryFolders(): { make(prefix: string): string; removeAll(): void } {
  const made: string[] = [];
  return {
    make(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Samples the peak resident memory of the processes `pids()` names until `stop()` (bytes; see processes/memory.ts). */
export const peakRss = (pids: () => number[]): { stop(): number } => sampleMemory(pids);

/**
 * Few distinct values, so that rows equal under Python's `==` but of other types (1, 1.0 and 1n;
 * -0 and 0; 2^53 as a double and as a bigint), duplicates and near misses are common.
 */
export const fewSqlValues: fc.Arbitrary<SqlValue> = fc.constantFrom<SqlValue>(
  null,
  0,
  -0,
  1,
  1n,
  1.5,
  2 ** 53,
  2n ** 53n,
  2n ** 53n + 1n,
  '',
  '1',
  'a',
  new Uint8Array([97]),
  new Uint8Array([]),
);
