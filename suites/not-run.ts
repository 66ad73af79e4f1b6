/**
 * A suite whose engine is missing on this machine (no Neo4j, no Python sandbox) is reported as not
 * run, with the reason and how to fix it, and the other suites run. In CI the oracle's own tests
 * fail instead, so a missing engine never passes silently there.
 */
import { describe, it } from 'vitest';

export function declareNotRun(name: string, reason: string): void {
  console.warn(`${name}: not run.\n${reason}`);
  describe(name, () => {
    it.skip(`not run: ${reason
      .split('\n')
      .map((l) => l.trim())
      .join(' ')}`, () => {});
  });
}
