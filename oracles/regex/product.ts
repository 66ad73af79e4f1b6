/**
 * The lazy product of two automata, explored breadth-first: pairs of states are built only as the
 * search reaches them, and at each pair the alphabet is split into the blocks of characters that
 * the two states treat alike (one representative per block), so a difference is found without
 * building either automaton in full. The first pair reached where exactly one side accepts gives
 * a shortest word of that difference (BFS order); among words of the same length, blocks are
 * tried most readable first (lower-case, upper-case, digits, space, printable ASCII, the rest).
 *
 * Bounded by a pair budget; the states' own engine may also give up (a `TermBudgetError` from the
 * derivative table). Then the exploration is incomplete and says so, with the words leading to
 * the unexplored frontier (probes for hardening).
 */
import { CharBase, type CharSet } from 'refa';
import { ALL_CHARS, charSetOf } from './automaton.ts';
import { charSetKey, TermBudgetError, type Term, type TermTable } from './derivatives.ts';

export interface ProductOptions {
  /** Most state pairs to reach (default 20,000). */
  maxPairs?: number;
  /** Once a difference is found one way, at most this many more pairs to find the other (default 2,000). */
  maxPairsAfterFirst?: number;
  /** Most frontier words to return when the budget runs out (default 32). */
  maxFrontier?: number;
}

export interface ProductResult {
  /** A shortest word accepted by the left side only, when one was found. */
  onlyLeft?: string;
  /** A shortest word accepted by the right side only, when one was found. */
  onlyRight?: string;
  /** Every reachable pair was explored: a missing word above does not exist. */
  complete: boolean;
  /** Pairs reached. */
  pairs: number;
  /** Length of the longest word explored. */
  depth: number;
  /** Why the exploration stopped early. */
  stoppedBecause?: string;
  /** Words leading to pairs that were reached but not expanded (shortest first). */
  frontier: string[];
}

export const DEFAULT_MAX_PAIRS = 20_000;
const DEFAULT_MAX_PAIRS_AFTER_FIRST = 2_000;

const READABLE: CharSet[] = [
  charSetOf([0x61, 0x7a]),
  charSetOf([0x41, 0x5a]),
  charSetOf([0x30, 0x39]),
  charSetOf([0x20, 0x20]),
  charSetOf([0x21, 0x7e]),
  charSetOf([0xa1, 0xd7ff], [0xe000, 0xfffd]),
];

/** The most readable character of a non-empty set, and its rank (lower is more readable). */
function readableChar(set: CharSet): { char: number; rank: number } {
  for (let rank = 0; rank < READABLE.length; rank++) {
    const common = set.intersect(READABLE[rank] as CharSet);
    if (!common.isEmpty) return { char: (common.ranges[0] as { min: number }).min, rank };
  }
  return { char: (set.ranges[0] as { min: number }).min, rank: READABLE.length };
}

/** Representatives of the blocks of the alphabet that no set in `sets` splits, most readable first. */
export function blockRepresentatives(sets: readonly CharSet[]): number[] {
  const blocks = sets.length === 0 ? [] : [...new CharBase(sets).sets];
  const covered = blocks.length === 0 ? null : blocks[0]!.union(...blocks.slice(1));
  const rest = covered ? ALL_CHARS.without(covered) : ALL_CHARS;
  if (!rest.isEmpty) blocks.push(rest);
  return blocks
    .map((block) => readableChar(block))
    .sort((a, b) => a.rank - b.rank || a.char - b.char)
    .map((r) => r.char);
}

const listKeys = new WeakMap<readonly CharSet[], string>();
function listKey(sets: readonly CharSet[]): string {
  let key = listKeys.get(sets);
  if (key === undefined) {
    key = sets.map(charSetKey).join('|');
    listKeys.set(sets, key);
  }
  return key;
}

/** Block representatives for a pair of class lists, cached per exploration (many pairs share their lists). */
function representativesCache(): (left: readonly CharSet[], right: readonly CharSet[]) => number[] {
  const cache = new Map<string, number[]>();
  return (left, right) => {
    const key = `${listKey(left)}#${listKey(right)}`;
    let representatives = cache.get(key);
    if (!representatives) cache.set(key, (representatives = blockRepresentatives([...left, ...right])));
    return representatives;
  };
}

/** Explores the product of two derivative terms of one table (so equal ids mean equal languages). */
export function exploreProduct(table: TermTable, left: Term, right: Term, options: ProductOptions = {}): ProductResult {
  let maxPairs = options.maxPairs ?? DEFAULT_MAX_PAIRS;
  const afterFirst = options.maxPairsAfterFirst ?? DEFAULT_MAX_PAIRS_AFTER_FIRST;
  const maxFrontier = options.maxFrontier ?? 32;
  const lefts: Term[] = [];
  const rights: Term[] = [];
  const parents: number[] = [];
  const chars: number[] = [];
  const depths: number[] = [];
  const seen = new Map<number, Set<number>>();
  const representatives = representativesCache();
  const result: ProductResult = { complete: false, pairs: 0, depth: 0, frontier: [] };

  const wordOf = (index: number): string => {
    const codes: number[] = [];
    for (let i = index; i > 0; i = parents[i] as number) codes.push(chars[i] as number);
    codes.reverse();
    let word = '';
    for (let i = 0; i < codes.length; i += 4096) word += String.fromCharCode(...codes.slice(i, i + 4096));
    return word;
  };

  const reach = (l: Term, r: Term, parent: number, char: number): void => {
    let partners = seen.get(l.id);
    if (!partners) seen.set(l.id, (partners = new Set()));
    if (partners.has(r.id)) return;
    partners.add(r.id);
    const index = lefts.length;
    lefts.push(l);
    rights.push(r);
    parents.push(parent);
    chars.push(char);
    depths.push(parent < 0 ? 0 : (depths[parent] as number) + 1);
    const first = result.onlyLeft === undefined && result.onlyRight === undefined;
    if (l.nullable && !r.nullable) result.onlyLeft ??= wordOf(index);
    if (r.nullable && !l.nullable) result.onlyRight ??= wordOf(index);
    if (first && (result.onlyLeft !== undefined || result.onlyRight !== undefined))
      maxPairs = Math.min(maxPairs, lefts.length + afterFirst);
  };

  let next = 0;
  try {
    reach(left, right, -1, 0);
    for (; next < lefts.length; next++) {
      if (result.onlyLeft !== undefined && result.onlyRight !== undefined) break;
      const l = lefts[next] as Term;
      const r = rights[next] as Term;
      // Equal terms denote equal languages; two empty ones can never differ again.
      if (l.id === r.id) continue;
      result.depth = depths[next] as number;
      for (const char of representatives(table.classes(l), table.classes(r))) {
        if (lefts.length >= maxPairs) throw new PairBudgetError(maxPairs);
        reach(table.derive(l, char), table.derive(r, char), next, char);
      }
    }
    result.complete = next >= lefts.length;
  } catch (error) {
    if (!(error instanceof PairBudgetError || error instanceof TermBudgetError)) throw error;
    result.stoppedBecause =
      error instanceof PairBudgetError ? `more than ${error.limit.toLocaleString('en-US')} state pairs` : error.message;
  }
  result.pairs = lefts.length;
  if (!result.complete) {
    for (let i = next; i < lefts.length && result.frontier.length < maxFrontier; i++) {
      if ((lefts[i] as Term).id !== (rights[i] as Term).id) result.frontier.push(wordOf(i));
    }
  }
  // A difference found in both directions settles the question even when pairs remain.
  if (result.onlyLeft !== undefined && result.onlyRight !== undefined) result.complete = true;
  return result;
}

class PairBudgetError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} state pairs`);
  }
}
