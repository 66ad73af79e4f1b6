/** Shape checks for serialized trajectories: reports read only what others wrote, so they check it. */
import { isTokenizerName, TOKENIZER_NAMES } from '../core/tokenizers.ts';
import {
  OUTCOME_STATUSES,
  type OutcomeStatus,
  TRAJECTORY_SCHEMA,
  TRAJECTORY_SCHEMA_VERSION,
  type Trajectory,
} from '../core/types.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isUsage(value: unknown): boolean {
  return isRecord(value) && isCount(value.promptTokens) && isCount(value.completionTokens);
}

/**
 * The first problem that keeps `value` from being read as a Trajectory, naming the field, or null
 * when it is usable. Checks the schema tag and version and the fields the metrics read; it does
 * not re-validate every nested witness.
 */
export function trajectoryProblem(value: unknown): string | null {
  if (!isRecord(value)) return 'not an object';
  if (value.schema !== TRAJECTORY_SCHEMA)
    return `schema is ${JSON.stringify(value.schema)}, expected "${TRAJECTORY_SCHEMA}"`;
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
  if (value.oracle.tokenizer !== undefined && !isTokenizerName(value.oracle.tokenizer)) {
    return `field "oracle.tokenizer" must be one of ${TOKENIZER_NAMES.join(', ')}`;
  }
  if (!Array.isArray(value.caseIds)) return 'field "caseIds" must be an array';
  if (!Array.isArray(value.turns)) return 'field "turns" must be an array';
  for (const [i, turn] of value.turns.entries()) {
    if (!isRecord(turn) || typeof turn.index !== 'number' || (turn.phase !== 'solve' && turn.phase !== 'hardening')) {
      return `turns[${i}] must have a numeric "index" and a "phase" of solve or hardening`;
    }
    if (!isRecord(turn.verdict) || !Array.isArray(turn.verdict.cases))
      return `turns[${i}].verdict.cases must be an array`;
    if (!isUsage(turn.usage)) return `turns[${i}].usage must have numeric "promptTokens" and "completionTokens"`;
    if (turn.candidate !== null && (!isRecord(turn.candidate) || typeof turn.candidate.source !== 'string')) {
      return `turns[${i}].candidate must be null or have a string "source"`;
    }
    if (turn.calls !== undefined) {
      if (!Array.isArray(turn.calls)) return `turns[${i}].calls must be an array`;
      for (const [j, call] of turn.calls.entries()) {
        if (
          !isRecord(call) ||
          typeof call.purpose !== 'string' ||
          typeof call.model !== 'string' ||
          !isUsage(call.usage)
        ) {
          return `turns[${i}].calls[${j}] must have a string "purpose" and "model" and a numeric "usage"`;
        }
      }
    }
  }
  if (value.pricing !== undefined) {
    if (!isRecord(value.pricing)) return 'field "pricing" must be an object';
    for (const [model, price] of Object.entries(value.pricing)) {
      if (!isRecord(price) || !isCount(price.input) || !isCount(price.output))
        return `pricing of "${model}" must have non-negative numeric "input" and "output"`;
    }
  }
  if (typeof value.budget !== 'number' || !Number.isInteger(value.budget) || value.budget < 1)
    return 'field "budget" must be a positive integer';
  const outcome = value.outcome;
  if (!isRecord(outcome) || !OUTCOME_STATUSES.includes(outcome.status as OutcomeStatus)) {
    return `field "outcome.status" must be one of ${OUTCOME_STATUSES.join(', ')}`;
  }
  if (outcome.solvedAtTurn !== null && typeof outcome.solvedAtTurn !== 'number') {
    return 'field "outcome.solvedAtTurn" must be a number or null';
  }
  if (
    !isRecord(value.tokens) ||
    typeof value.tokens.prompt !== 'number' ||
    typeof value.tokens.completion !== 'number'
  ) {
    return 'field "tokens" must have numeric "prompt" and "completion"';
  }
  if (!isRecord(value.cache) || typeof value.cache.hits !== 'number' || typeof value.cache.misses !== 'number') {
    return 'field "cache" must have numeric "hits" and "misses"';
  }
  return null;
}
