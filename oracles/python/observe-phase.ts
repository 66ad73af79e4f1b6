/** Running the one phase of an Observer (HERO-T) in the sandbox: a worker that failed is an observation, not a crash. */
import type { Observation } from '../../core/oracle.ts';
import { workerFailure } from './pool/outcome.ts';
import type { WorkerPool } from './pool/pool.ts';
import type { PhaseResult, PhaseSpec } from './pool/protocol.ts';

export async function runObservedPhase(
  pool: WorkerPool,
  phase: PhaseSpec,
): Promise<{ result: PhaseResult } | { failed: Observation }> {
  let result: PhaseResult | undefined;
  try {
    [result] = await pool.run([phase]);
  } catch (error) {
    const failure = workerFailure(error);
    if (!failure) throw error;
    return { failed: { ok: false, error: { kind: failure.kind, message: failure.reason }, output: '' } };
  }
  if (!result) throw new Error('the sandbox returned no result');
  return { result };
}
