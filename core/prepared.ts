/**
 * One preparation per (oracle, task): hidden cases, gold results and reference runs are computed
 * once, whoever asks first — the suite's episodes, HERO's training pool or HERO-O's evaluator.
 * Keyed by the oracle object and the task's benchmark and id.
 */
import type { Oracle, PreparedTask } from './oracle.ts';
import type { Task } from './types.ts';

const byOracle = new WeakMap<object, Map<string, Promise<PreparedTask>>>();

const keyOf = (task: Task) => `${task.benchmark}\u0000${task.id}`;

export function preparedOnce<P extends PreparedTask>(oracle: Oracle<P>, task: Task): Promise<P> {
  let tasks = byOracle.get(oracle);
  if (!tasks) {
    tasks = new Map();
    byOracle.set(oracle, tasks);
  }
  const key = keyOf(task);
  let prepared = tasks.get(key);
  if (!prepared) {
    prepared = oracle.prepare(task);
    tasks.set(key, prepared);
  }
  return prepared as Promise<P>;
}

/**
 * Forgets a task's preparation (its compiled gold, cases, reference results), so that a suite
 * holds only the tasks it still has episodes of: kept for the whole file, 5,000 regex tasks held
 * their automata to the end. A later preparedOnce prepares it again; holders keep what they have.
 */
export function forgetPrepared(oracle: object, task: Task): void {
  byOracle.get(oracle)?.delete(keyOf(task));
}
