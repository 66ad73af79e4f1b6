/**
 * Exact language comparison of two compiled regexes (either dialect) on their minimal DFAs.
 *
 * Conventions: full-match languages over UTF-16 code units 0–0xFFFF (so brics and ECMAScript
 * regexes compare directly). Counterexamples are shortest words of candidate \ gold (false
 * positive: accepted by the candidate only) and gold \ candidate (false negative: accepted by the
 * gold only); among the shortest, refa picks the most readable characters. Words are decoded as
 * UTF-16 (`Words.fromUTF16ToString`), never as code points. When either side has no DFA
 * (non-regular ECMAScript) or the difference automaton exceeds the node budget the comparison is
 * undecided, and the oracle falls back to sampling.
 */
import { FAIterators, Words, getIntersectionIterator, type DFA, type ReadonlyDFA } from 'refa';
import { MAX_DFA_NODES, complementOf, withNodeBudget } from './automaton.ts';
import type { CompiledRegex } from './compile.ts';
import { RegexTooComplexError } from './errors.ts';

export type Comparison =
  | { decided: true; equivalent: true }
  | { decided: true; equivalent: false; falsePositive?: string; falseNegative?: string }
  | { decided: false; reason: string };

export function compareLanguages(gold: CompiledRegex, candidate: CompiledRegex): Comparison {
  if (!gold.dfa) return { decided: false, reason: `gold regex: ${gold.nonRegular ?? 'no automaton'}` };
  if (!candidate.dfa) return { decided: false, reason: `candidate regex: ${candidate.nonRegular ?? 'no automaton'}` };
  if (gold.dfa.structurallyEqual(candidate.dfa)) return { decided: true, equivalent: true };
  try {
    const falsePositive = shortestDifference(candidate.dfa, gold.dfa);
    const falseNegative = shortestDifference(gold.dfa, candidate.dfa);
    const result: Comparison = { decided: true, equivalent: false };
    if (falsePositive !== undefined) result.falsePositive = falsePositive;
    if (falseNegative !== undefined) result.falseNegative = falseNegative;
    return result;
  } catch (error) {
    if (error instanceof RegexTooComplexError) return { decided: false, reason: `difference automaton: ${error.message}` };
    throw error;
  }
}

/** True / false for regular regexes, null when there is no DFA. */
export function isEmptyLanguage(compiled: CompiledRegex): boolean | null {
  return compiled.dfa ? compiled.dfa.isEmpty : null;
}

/** A shortest, most readable member of the language; undefined when empty, null without a DFA. */
export function shortestMember(compiled: CompiledRegex): string | undefined | null {
  if (!compiled.dfa) return null;
  const wordSet = FAIterators.shortestWordSet(compiled.dfa.transitionIterator());
  return wordSet && Words.fromUTF16ToString(Words.pickMostReadableWord(wordSet));
}

/** Shortest, most readable word in L(a) \ L(b), explored lazily on the product automaton. */
export function shortestDifference(a: ReadonlyDFA, b: ReadonlyDFA): string | undefined {
  return withNodeBudget(() => {
    const product = getIntersectionIterator(a, complementCached(b), MAX_DFA_NODES);
    const wordSet = FAIterators.shortestWordSet(product);
    return wordSet && Words.fromUTF16ToString(Words.pickMostReadableWord(wordSet));
  });
}

const complements = new WeakMap<ReadonlyDFA, DFA>();

function complementCached(dfa: ReadonlyDFA): DFA {
  let complement = complements.get(dfa);
  if (!complement) {
    complement = withNodeBudget(() => complementOf(dfa));
    complements.set(dfa, complement);
  }
  return complement;
}
