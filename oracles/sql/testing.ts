/** Test support: temporary folders that a test file removes together when it is done; peak memory of pool children. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleMemory } from './process-memory.ts';

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

/** Samples the peak resident memory of the processes `pids()` names until `stop()` (bytes; see process-memory.ts). */
export const peakRss = (pids: () => number[]): { stop(): number } => sampleMemory(pids);
