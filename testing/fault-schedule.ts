/**
 * Seeded, deterministic fault and delay schedules for the scripted test server. A request's fate
 * is a pure function of the schedule's seed, the request body and the attempt number (the openai
 * client's `x-stainless-retry-count`), never of arrival order or timing: the same requests get the
 * same faults however the run interleaves them, and an attempt that faults is answered normally on
 * a later attempt unless that attempt draws a fault of its own.
 */
import { createHash } from 'node:crypto';

/** Everything an OpenAI-compatible endpoint can do wrong, as the test server injects it. */
export type FaultKind =
  /** HTTP 429 (with `retry-after-ms` when the schedule sets one). */
  | 'rate-limit'
  /** HTTP 500 with an error body. */
  | 'server-error'
  /** Nothing is sent until the schedule's `hangMs` (the client's per-attempt timeout ends it). */
  | 'hang'
  /** The connection is destroyed before any byte is sent. */
  | 'reset'
  /** Status 200 and the first bytes of the body are sent, then the connection is destroyed. */
  | 'reset-mid-body'
  /** Status 200, `application/json`, a body cut off in the middle. */
  | 'truncated-body'
  /** Status 200 with `choices: []`. */
  | 'empty-choices'
  /** Status 200 with an HTML page (a proxy's error page). */
  | 'non-json-body'
  /** Status 200 with a choice that has no `message`. */
  | 'no-message';

export const FAULT_KINDS: readonly FaultKind[] = [
  'rate-limit',
  'server-error',
  'hang',
  'reset',
  'reset-mid-body',
  'truncated-body',
  'empty-choices',
  'non-json-body',
  'no-message',
];

export interface FaultSchedule {
  seed: number;
  /** Probability that an attempt faults, in [0, 1]. */
  rate: number;
  /** The kinds drawn from, uniformly (default: every kind). */
  kinds?: readonly FaultKind[];
  /** How long a `hang` holds the request (default 60 s; closing the server ends it). */
  hangMs?: number;
  /** `retry-after-ms` sent with a `rate-limit` fault (default: none, the client backs off on its own). */
  retryAfterMs?: number;
}

export interface DelaySchedule {
  seed: number;
  /** Each answered attempt waits a delay drawn uniformly from [0, maxMs). */
  maxMs: number;
}

/** What the schedule says about one attempt. */
export interface AttemptKey {
  /** The raw request body. */
  body: string;
  /** 0 for the first attempt, 1 for the first retry, … */
  attempt: number;
}

/** A number in [0, 1) drawn from the seed, a label and the attempt: stable across runs and machines. */
function uniform(seed: number, label: string, key: AttemptKey): number {
  const digest = createHash('sha256')
    .update(`${seed}\u0000${label}\u0000${key.attempt}\u0000${key.body}`, 'utf8')
    .digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** The fault this attempt gets, or null when it is answered normally. */
export function faultFor(schedule: FaultSchedule, key: AttemptKey): FaultKind | null {
  validateSchedule(schedule);
  if (uniform(schedule.seed, 'fault?', key) >= schedule.rate) return null;
  const kinds = schedule.kinds ?? FAULT_KINDS;
  return kinds[Math.floor(uniform(schedule.seed, 'kind', key) * kinds.length)] as FaultKind;
}

/** The delay before this attempt is answered, in whole milliseconds. */
export function delayFor(schedule: DelaySchedule, key: AttemptKey): number {
  if (!(Number.isFinite(schedule.maxMs) && schedule.maxMs >= 0))
    throw new RangeError(`delay schedule: maxMs must be >= 0, got ${schedule.maxMs}`);
  return Math.floor(uniform(schedule.seed, 'delay', key) * schedule.maxMs);
}

function validateSchedule(schedule: FaultSchedule): void {
  if (!(schedule.rate >= 0 && schedule.rate <= 1))
    throw new RangeError(`fault schedule: rate must be in [0, 1], got ${schedule.rate}`);
  if (schedule.kinds && schedule.kinds.length === 0) throw new RangeError('fault schedule: kinds must not be empty');
  for (const kind of schedule.kinds ?? []) {
    if (!FAULT_KINDS.includes(kind)) throw new RangeError(`fault schedule: unknown fault kind ${JSON.stringify(kind)}`);
  }
}
