/**
 * Errors of the regex language engine.
 *
 * - `RegexSyntaxError`: the source is not a valid regex of its dialect. The message is the
 *   engine's own: V8's `new RegExp(...)` message for ECMAScript, our brics parser's message (with
 *   a 0-based `position`) for brics.
 * - `RegexUnsupportedError`: valid syntax we deliberately do not implement (brics `<identifier>`
 *   named automata, the ECMAScript `u`/`v` flags). It extends `RegexSyntaxError`, so a caller that
 *   treats "cannot compile" as one case needs one `catch`.
 * - `RegexTooComplexError`: a regular language whose DFA exceeds the node budget
 *   (`MAX_DFA_NODES` in automaton.ts).
 */
import type { Dialect } from './regex-node.ts';

export class RegexSyntaxError extends Error {
  constructor(
    message: string,
    readonly dialect: Dialect,
    readonly position?: number,
  ) {
    super(message);
    this.name = 'RegexSyntaxError';
  }
}

export class RegexUnsupportedError extends RegexSyntaxError {
  constructor(message: string, dialect: Dialect, position?: number) {
    super(message, dialect, position);
    this.name = 'RegexUnsupportedError';
  }
}

export class RegexTooComplexError extends Error {
  constructor(
    message: string,
    readonly limit: number,
  ) {
    super(message);
    this.name = 'RegexTooComplexError';
  }
}

/** A JS stack overflow ("Maximum call stack size exceeded"): recursion over an absurdly nested regex. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
