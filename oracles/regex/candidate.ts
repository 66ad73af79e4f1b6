/**
 * A model's regex as the oracle takes it: compiled, or the named reason it cannot be run. Every
 * way a candidate can defeat the engines maps to a verdict error here, so no candidate-derived
 * exception reaches check / observe / probe / exact / agrees:
 *
 * - `syntax`: not valid in its dialect (the engine's message), or syntax we do not support (`u`/`v`).
 * - `too-complex`: longer than the answer limit; an automaton past its budget where no other
 *   engine exists (brics); V8 refusing it (too large, too many captures); nested too deeply to
 *   recurse over.
 * - `timeout` / `too-complex` from matching (`matchFailure`): V8 did not finish by the deadline,
 *   or could not run it at all.
 *
 * Engine messages that embed a huge pattern are shortened (feedback quotes them to the model).
 */
import type { Candidate, VerdictError } from '../../core/types.ts';
import type { Dialect } from './ast.ts';
import { compileRegex, parseRegexLiteral, type CompiledRegex } from './compile.ts';
import { isStackOverflow, RegexSyntaxError, RegexTooComplexError } from './errors.ts';
import type { MatchOutcome } from './matcher.ts';

/** Default longest answer the oracle compiles (characters); longer ones are `too-complex`. */
export const MAX_ANSWER_LENGTH = 100_000;

export function isVerdictError(compiled: CompiledRegex | VerdictError): compiled is VerdictError {
  return 'kind' in compiled;
}

/** The candidate compiled in `dialect` (a `/…/flags` literal with its flags), or why it cannot be. */
export function compileCandidate(
  candidate: Candidate,
  dialect: Dialect,
  maxLength = MAX_ANSWER_LENGTH,
): CompiledRegex | VerdictError {
  if (candidate.source.length > maxLength) {
    return {
      kind: 'too-complex',
      message: `the regex is ${candidate.source.length.toLocaleString('en-US')} characters long; answers are limited to ${maxLength.toLocaleString('en-US')}`,
    };
  }
  const literal = candidate.extraction === 'literal' ? parseRegexLiteral(candidate.source) : null;
  try {
    return literal ? compileRegex(literal.source, dialect, literal.flags) : compileRegex(candidate.source, dialect);
  } catch (error) {
    if (error instanceof RegexSyntaxError) return { kind: 'syntax', message: boundedMessage(error.message) };
    if (error instanceof RegexTooComplexError) return { kind: 'too-complex', message: boundedMessage(error.message) };
    if (isStackOverflow(error)) return { kind: 'too-complex', message: 'the regex is nested too deeply to parse' };
    throw error;
  }
}

/** The verdict error of a batch that did not run to completion. */
export function matchFailure(outcome: Extract<MatchOutcome, { ok: false }>, deadlineMs: number): VerdictError {
  if (outcome.timeout) return { kind: 'timeout', message: `matching did not finish within ${deadlineMs} ms` };
  return { kind: 'too-complex', message: boundedMessage(`V8 cannot run this regex: ${outcome.refused}`) };
}

/** A message of at most about `max` characters: head and tail kept (V8 puts the reason last). */
export function boundedMessage(message: string, max = 300): string {
  if (message.length <= max) return message;
  const tail = Math.floor(max / 3);
  return `${message.slice(0, max - tail)} … (${(message.length - max).toLocaleString('en-US')} characters left out) … ${message.slice(-tail)}`;
}
