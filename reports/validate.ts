/** Shape checks for serialized trajectories: reports read only what others wrote, so they check it. */
import { TRAJECTORY_SCHEMA, TRAJECTORY_SCHEMA_VERSION, type Trajectory } from '../core/types.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The first problem that keeps `value` from being read as a Trajectory, naming the field, or null
 * when it is usable. Checks the schema tag and version and the fields the metrics read; it does
 * not re-validate every nested witness.
 */
export function trajectoryProblem(value: unknown): string | null {
  if (!isRecord(value)) return 'not an object';
  if (value.schema !== TRAJECTORY_SCHEMA) return `schema is ${JSON.stringify(value.schema)}, expected "${TRAJECTORY_SCHEMA}"`;
  if (value.version !== TRAJECTORY_SCHEMA_VERSION) {
    return `version is ${JSON.stringify(value.version)}, expected ${TRAJECTORY_SCHEMA_VERSION}`;
  }
  for (const field of ['runId', 'benchmark', 'taskId', 'strategy', 'promptHash'] as const) {
    if (typeof value[field] !== 'string') return `field "${field}" must be a string`;
  }
  if (typeof value.trial !== 'number') return 'field "trial" must be a number';
  if (!isRecord(value.model) || typeof value.model.name !== 'string' || typeof value.model.privileged !== 'boolean') {
    return 'field "model" must have a string "name" and a boolean "privileged"';
  }
  if (!isRecord(value.oracle) || typeof value.oracle.name !== 'string' || !isRecord(value.oracle.settings)) {
    return 'field "oracle" must have a string "name" and an object "settings"';
  }
  if (!Array.isArray(value.caseIds)) return 'field "caseIds" must be an array';
  if (!Array.isArray(value.turns)) return 'field "turns" must be an array';
  for (const [i, turn] of value.turns.entries()) {
    if (!isRecord(turn) || typeof turn.index !== 'number' || (turn.phase !== 'solve' && turn.phase !== 'hardening')) {
      return `turns[${i}] must have a numeric "index" and a "phase" of solve or hardening`;
    }
    if (!isRecord(turn.verdict) || !Array.isArray(turn.verdict.cases)) return `turns[${i}].verdict.cases must be an array`;
    if (!isRecord(turn.usage)) return `turns[${i}].usage must be an object`;
  }
  const outcome = value.outcome;
  if (!isRecord(outcome) || !['solved', 'unsolved', 'model-error', 'harness-error'].includes(outcome.status as string)) {
    return 'field "outcome.status" must be solved, unsolved, model-error or harness-error';
  }
  if (outcome.solvedAtTurn !== null && typeof outcome.solvedAtTurn !== 'number') {
    return 'field "outcome.solvedAtTurn" must be a number or null';
  }
  if (!isRecord(value.tokens) || typeof value.tokens.prompt !== 'number' || typeof value.tokens.completion !== 'number') {
    return 'field "tokens" must have numeric "prompt" and "completion"';
  }
  if (!isRecord(value.cache) || typeof value.cache.hits !== 'number' || typeof value.cache.misses !== 'number') {
    return 'field "cache" must have numeric "hits" and "misses"';
  }
  return null;
}

export function isTrajectory(value: unknown): value is Trajectory {
  return trajectoryProblem(value) === null;
}
