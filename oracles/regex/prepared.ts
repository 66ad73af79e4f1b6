/** A regex task after preparation (the compiled gold and its stable hidden cases), the oracle's options and the runtime its parts share. */
import type { PreparedTask } from '../../core/oracle.ts';
import type { Candidate, VerdictError } from '../../core/types.ts';
import type { Dialect, RegexNode } from './ast.ts';
import type { CompiledRegex } from './compile.ts';
import type { RegexCase } from './hidden-tests.ts';
import type { RegexMatcher } from './matcher.ts';

export interface RegexPrepared extends PreparedTask {
  goldDialect: Dialect;
  gold: CompiledRegex;
  goldNode: RegexNode;
  cases: RegexCase[];
}

export interface RegexOracleOptions {
  /** Dialect the model answers in (default ecmascript). */
  candidateDialect?: Dialect;
  /** Dialect of the golds; default: the task's `context.dialect`, else ecmascript. */
  goldDialect?: Dialect;
  positives?: number;
  negatives?: number;
  /** Seed of the hidden tests (default 0); the same seed gives the same tests on every run. */
  seed?: number;
  /** Deadline for matching a non-regular candidate (default 1000 ms). */
  deadlineMs?: number;
  /** Longest answer compiled, in characters (default 100,000); longer ones are `too-complex`. */
  maxAnswerLength?: number;
  matcher?: RegexMatcher;
}

/** What the oracle's parts (hardener, observer, simulator) share: how candidates are compiled and matched. */
export interface RegexRuntime {
  candidateDialect: Dialect;
  deadlineMs: number;
  compile(candidate: Candidate): CompiledRegex | VerdictError;
  matcher(): RegexMatcher;
}
