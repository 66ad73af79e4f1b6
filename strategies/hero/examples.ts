/**
 * The retrieval pool of HERO-T when no HERO-O report is given: the training split of the
 * benchmark (the same seeded split HERO-O uses), each task's gold written as a model would answer
 * and kept only if the oracle passes it — execution-verified. This is harness-side setup code: it
 * reads training golds, and the refiner only ever sees other tasks' verified programs. Tasks are
 * prepared through the shared cache, so the suite does not prepare them a second time.
 */
import type { Oracle, PreparedTask } from '../../core/oracle.ts';
import { preparedOnce } from '../../core/prepared.ts';
import type { Task } from '../../core/types.ts';
import { drawPools } from './pools.ts';
import type { VerifiedExample } from './retrieve.ts';

export async function verifiedTrainExamples(
  tasks: readonly Task[],
  oracle: Oracle<PreparedTask>,
  seed = 1,
  trainFraction = 0.5,
): Promise<VerifiedExample[]> {
  if (tasks.length < 3) return [];
  const pools = drawPools(tasks, { seed, trainFraction });
  const train = [...pools.diagnosis, ...pools.update, ...(pools.sharedSelection ? [] : pools.selection)];
  const examples: VerifiedExample[] = [];
  for (const task of train) {
    try {
      const prepared = await preparedOnce(oracle, task);
      // An oracle without the sim's hooks takes the gold as it is written.
      const candidate = oracle.simulator
        ? oracle.extract(oracle.simulator.answer(prepared, task.gold))
        : { source: task.gold, extraction: 'code-block' as const };
      if (candidate && (await oracle.check(prepared, candidate)).pass) {
        examples.push({ taskId: task.id, statement: task.description, program: candidate.source });
      }
    } catch {
      // A training task that cannot be prepared is simply not in the pool.
    }
  }
  return examples;
}
