/**
 * The regex Simulator (what the privileged sim model is built from): language-changing mutations
 * of a program in the gold's dialect, mistakes of a named class for the steerable sim, the reply in
 * the candidate's dialect, and whether a candidate agrees with a witness.
 */
import type { Simulator } from '../../core/oracle.ts';
import type { Dialect, RegexNode } from './ast.ts';
import { printBrics, printEcmascript } from './ast.ts';
import { parseBrics } from './brics.ts';
import { isVerdictError } from './candidate.ts';
import { parseEcmascript } from './ecmascript.ts';
import { isStackOverflow, RegexTooComplexError } from './errors.ts';
import { mutateRegex } from './mutate.ts';
import type { RegexPrepared, RegexRuntime } from './prepared.ts';
import { REGEX_CLASS_OPERATORS, REGEX_STEERING, unbalanceParentheses } from './steering.ts';

function parseInDialect(program: string, dialect: Dialect): RegexNode | null {
  try {
    return dialect === 'brics' ? parseBrics(program) : parseEcmascript(program).node;
  } catch {
    return null;
  }
}

function translate(program: string, from: Dialect, to: Dialect): string {
  if (from === to) return program;
  const node = parseInDialect(program, from);
  if (!node) return program;
  try {
    return to === 'ecmascript' ? printEcmascript(node) : printBrics(node);
  } catch (error) {
    // `&` / `~` print through a DFA; past its budget the sim answers in the gold's notation (a failed turn, not a crash).
    if (error instanceof RegexTooComplexError || isStackOverflow(error)) return program;
    throw error;
  }
}

/** The regex Simulator over the oracle's runtime. */
export function regexSimulator(runtime: RegexRuntime): Simulator<RegexPrepared> {
  return {
    mutate(prepared, program, rng) {
      const node = parseInDialect(program, prepared.goldDialect);
      if (!node) return null;
      // Only mutants that change the language: an equivalent "mistake" would be no mistake.
      const mutated = mutateRegex(node, rng, { dialect: prepared.goldDialect, distinctLanguage: true });
      if (!mutated) return null;
      return prepared.goldDialect === 'brics' ? printBrics(mutated.node) : printEcmascript(mutated.node);
    },
    steering: REGEX_STEERING,
    mutateOfClass(prepared, program, cls, rng) {
      if (cls === 'syntax') {
        const broken = unbalanceParentheses(program, rng);
        return parseInDialect(broken, prepared.goldDialect) === null ? broken : `(${program}`;
      }
      const only = REGEX_CLASS_OPERATORS[cls];
      const node = only ? parseInDialect(program, prepared.goldDialect) : null;
      if (!node) return null;
      const mutated = mutateRegex(node, rng, { dialect: prepared.goldDialect, distinctLanguage: true, only });
      if (!mutated) return null;
      return prepared.goldDialect === 'brics' ? printBrics(mutated.node) : printEcmascript(mutated.node);
    },
    answer: (prepared, program) =>
      '```regex\n' + translate(program, prepared.goldDialect, runtime.candidateDialect) + '\n```',
    async agrees(prepared, candidate, witness) {
      const compiled = runtime.compile(candidate);
      if (isVerdictError(compiled)) return false;
      const outcome = await runtime.matcher().matchAll(compiled, [String(witness.input)], runtime.deadlineMs);
      return outcome.ok && outcome.results[0] === witness.expected;
    },
  };
}
