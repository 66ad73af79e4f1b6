/**
 * Exact language comparison of two compiled regexes (either dialect).
 *
 * Conventions: full-match languages over UTF-16 code units 0–0xFFFF (so brics and ECMAScript
 * regexes compare directly). Counterexamples are shortest words of candidate \ gold (false
 * positive: accepted by the candidate only) and gold \ candidate (false negative: accepted by the
 * gold only). Words are decoded as UTF-16, never as code points.
 *
 * How it decides:
 * 1. Both sides have minimal DFAs: isomorphic DFAs are equal; otherwise the two shortest
 *    differences (lazy products with the complements, refa) decide — equal exactly when both are
 *    empty — and give the most readable shortest counterexamples.
 * 2. A side has no DFA within the budget (or the difference automaton outgrows it) but has an
 *    AST: the lazy product of the two regexes' derivatives, breadth-first (product.ts), which
 *    finds a short difference without building either automaton (`a*` vs `a{0,99999}b{0,99999}`
 *    differ on `b` at once) and proves equality when it exhausts the reachable pairs.
 * 3. Otherwise — a side is not regular (backreferences, lookarounds the automaton engine cannot
 *    remove), or the lazy product runs out of budget first — the comparison is undecided, with
 *    the reason; `lazyComparison` also returns the words at the product's frontier (hardening
 *    probes them).
 * Equality is never inferred from a shortcut that could be wrong: refa 0.12.1's
 * `DFA.structurallyEqual` is not (its visited set ignores which node a node was paired with, so
 * `A|[Aa]x*` and `A|[Aa]x+` passed as equal); `isomorphic` below checks a bijection.
 */
import { FAIterators, Words, getIntersectionIterator, type DFA, type ReadonlyDFA } from 'refa';
import type { RegexNode } from './ast.ts';
import { MAX_DFA_NODES, complementOf, withNodeBudget } from './automaton.ts';
import type { CompiledRegex } from './compile.ts';
import { DEFAULT_MAX_TERMS, TermBudgetError, TermTable } from './derivatives.ts';
import { isStackOverflow, RegexTooComplexError } from './errors.ts';
import { DEFAULT_MAX_PAIRS, exploreProduct } from './product.ts';

export type Comparison =
  | { decided: true; equivalent: true }
  | {
      decided: true;
      equivalent: false;
      falsePositive?: string;
      falseNegative?: string;
      /** Set when the lazy product stopped before searching both ways: a missing counterexample may exist. */
      partial?: true;
    }
  | { decided: false; reason: string };

export interface LazyComparison {
  comparison: Comparison;
  /** When undecided by budget: words leading to the unexplored part of the product. */
  frontier: string[];
}

/** Budgets of the lazy product (step 2). */
const LAZY_PRODUCT_LIMITS = { maxPairs: DEFAULT_MAX_PAIRS, maxTerms: DEFAULT_MAX_TERMS } as const;

const EQUIVALENT: Comparison = { decided: true, equivalent: true };

function different(falsePositive: string | undefined, falseNegative: string | undefined, partial = false): Comparison {
  const result: Comparison = { decided: true, equivalent: false };
  if (falsePositive !== undefined) result.falsePositive = falsePositive;
  if (falseNegative !== undefined) result.falseNegative = falseNegative;
  if (partial) result.partial = true;
  return result;
}

const cache = new WeakMap<CompiledRegex, WeakMap<CompiledRegex, LazyComparison>>();

/** The comparison of gold and candidate, with the lazy product's frontier when undecided (cached per pair). */
export function compareWithFrontier(gold: CompiledRegex, candidate: CompiledRegex): LazyComparison {
  let byCandidate = cache.get(gold);
  if (!byCandidate) cache.set(gold, (byCandidate = new WeakMap()));
  let known = byCandidate.get(candidate);
  if (!known) {
    known = decide(gold, candidate);
    byCandidate.set(candidate, known);
  }
  return known;
}

export function compareLanguages(gold: CompiledRegex, candidate: CompiledRegex): Comparison {
  return compareWithFrontier(gold, candidate).comparison;
}

function decide(gold: CompiledRegex, candidate: CompiledRegex): LazyComparison {
  let dfaReason = '';
  if (gold.dfa && candidate.dfa) {
    const exact = compareDfas(gold.dfa, candidate.dfa);
    if (exact) return { comparison: exact, frontier: [] };
    dfaReason = `difference automaton: automaton exceeds ${MAX_DFA_NODES} DFA states; `;
  }
  if (!gold.node)
    return { comparison: { decided: false, reason: `gold regex: ${gold.nonRegular ?? 'no automaton'}` }, frontier: [] };
  if (!candidate.node)
    return {
      comparison: { decided: false, reason: `candidate regex: ${candidate.nonRegular ?? 'no automaton'}` },
      frontier: [],
    };
  const lazy = lazyComparison(gold.node, candidate.node);
  if (lazy.comparison.decided) return lazy;
  const sideReason = !candidate.dfa
    ? `candidate regex: ${candidate.nonRegular ?? 'no automaton'}; `
    : !gold.dfa
      ? `gold regex: ${gold.nonRegular ?? 'no automaton'}; `
      : '';
  return { ...lazy, comparison: { decided: false, reason: `${dfaReason}${sideReason}${lazy.comparison.reason}` } };
}

/** Exact comparison of two DFAs, or null when the difference automaton exceeds the node budget. */
export function compareDfas(gold: ReadonlyDFA, candidate: ReadonlyDFA): Comparison | null {
  if (isomorphic(gold, candidate)) return EQUIVALENT;
  try {
    const falsePositive = shortestDifference(candidate, gold);
    const falseNegative = shortestDifference(gold, candidate);
    return falsePositive === undefined && falseNegative === undefined
      ? EQUIVALENT
      : different(falsePositive, falseNegative);
  } catch (error) {
    if (error instanceof RegexTooComplexError) return null;
    throw error;
  }
}

/** Step 2 on two ASTs: the breadth-first lazy product of their derivatives, within the budgets. */
export function lazyComparison(
  gold: RegexNode,
  candidate: RegexNode,
  limits: { maxPairs?: number; maxTerms?: number } = {},
): LazyComparison {
  const table = new TermTable(limits.maxTerms ?? LAZY_PRODUCT_LIMITS.maxTerms);
  try {
    const result = exploreProduct(table, table.fromNode(candidate), table.fromNode(gold), {
      maxPairs: limits.maxPairs ?? LAZY_PRODUCT_LIMITS.maxPairs,
    });
    if (result.onlyLeft !== undefined || result.onlyRight !== undefined)
      return { comparison: different(result.onlyLeft, result.onlyRight, !result.complete), frontier: [] };
    if (result.complete) return { comparison: EQUIVALENT, frontier: [] };
    const reason = `the lazy product stopped at ${result.stoppedBecause ?? 'its budget'} with no difference among the words up to length ${result.depth}`;
    return { comparison: { decided: false, reason }, frontier: result.frontier };
  } catch (error) {
    if (error instanceof TermBudgetError)
      return { comparison: { decided: false, reason: `the lazy product stopped: ${error.message}` }, frontier: [] };
    if (isStackOverflow(error))
      return {
        comparison: { decided: false, reason: 'the regex is nested too deeply for the lazy product' },
        frontier: [],
      };
    throw error;
  }
}

/**
 * True iff a bijection between the nodes maps initial to initial, finals to finals and every
 * transition range to the same range. Minimal DFAs of the same language are isomorphic.
 */
export function isomorphic(a: ReadonlyDFA, b: ReadonlyDFA): boolean {
  const forward = new Map<DFA.ReadonlyNode, DFA.ReadonlyNode>([[a.initial, b.initial]]);
  const backward = new Map<DFA.ReadonlyNode, DFA.ReadonlyNode>([[b.initial, a.initial]]);
  const stack: [DFA.ReadonlyNode, DFA.ReadonlyNode][] = [[a.initial, b.initial]];
  while (stack.length > 0) {
    const [x, y] = stack.pop() as [DFA.ReadonlyNode, DFA.ReadonlyNode];
    if (a.finals.has(x) !== b.finals.has(y)) return false;
    const xs = [...x.out.entries()].sort((p, q) => p[0].min - q[0].min);
    const ys = [...y.out.entries()].sort((p, q) => p[0].min - q[0].min);
    if (xs.length !== ys.length) return false;
    for (let i = 0; i < xs.length; i++) {
      const [rx, tx] = xs[i] as [{ min: number; max: number }, DFA.ReadonlyNode];
      const [ry, ty] = ys[i] as [{ min: number; max: number }, DFA.ReadonlyNode];
      if (rx.min !== ry.min || rx.max !== ry.max) return false;
      const mapped = forward.get(tx);
      if (mapped === undefined) {
        if (backward.has(ty)) return false;
        forward.set(tx, ty);
        backward.set(ty, tx);
        stack.push([tx, ty]);
      } else if (mapped !== ty) return false;
    }
  }
  return true;
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
