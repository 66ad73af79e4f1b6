/**
 * From the dialect-neutral AST to minimal DFAs (refa), and from DFAs to a compact matching table.
 *
 * Conventions (both dialects):
 * - Full-match semantics: a regex denotes a language of whole strings.
 * - Alphabet: UTF-16 code units, `maxCharacter` = 0xFFFF, so DFAs of both dialects are comparable.
 *   A JS string is matched code unit by code unit (a surrogate pair is two characters).
 * - Complement (`~`, brics) is relative to the full alphabet: [0, 0xFFFF]*.
 * - Budget: every DFA built along the way (the whole regex, each `&` / `~` operand) may have at
 *   most MAX_DFA_NODES (20,000) nodes, else `RegexTooComplexError`. NFAs are capped at
 *   MAX_NFA_NODES to keep memory bounded for huge counted repetitions.
 *
 * The returned DFAs are shared (compile.ts caches them): callers must treat them as read-only and
 * `copy()` before any in-place operation such as `complement()`.
 */
import { CharSet, DFA, ENFA, TooManyNodesError, type Char, type NodeFactory, type ReadonlyDFA } from 'refa';
import type { RegexNode } from './regex-node.ts';
import { RegexTooComplexError } from './errors.ts';

export { RegexTooComplexError };

const MAX_CHAR = 0xffff;
export const MAX_DFA_NODES = 20_000;
export const MAX_NFA_NODES = 200_000;
// Thompson-style ε-NFAs (refa ENFA) are used for construction: refa 0.12.1's NFA.quantify gives
// wrong languages on NFAs made from DFAs (e.g. (\d[^]*){2} became \d\d[^]*), ENFA.quantify does not.
const FA_OPTIONS: { readonly maxCharacter: Char } = { maxCharacter: MAX_CHAR };

export const ALL_CHARS: CharSet = CharSet.all(MAX_CHAR);
const NO_CHARS: CharSet = CharSet.empty(MAX_CHAR);

/** A CharSet over the engine alphabet from inclusive [min, max] pairs. */
export function charSetOf(...ranges: [number, number][]): CharSet {
  return NO_CHARS.union(ranges.map(([min, max]) => ({ min, max })));
}

export function charSetOfChar(char: string | number): CharSet {
  const code = typeof char === 'number' ? char : char.charCodeAt(0);
  return CharSet.fromCharacter(MAX_CHAR, code);
}

/** Minimal DFA of the node's language. Throws RegexTooComplexError past the node budget. */
export function toDfa(node: RegexNode): DFA {
  const tooLarge = () =>
    new RegexTooComplexError(
      `the automaton of this regex is too large (more than ${MAX_DFA_NODES} DFA states or ${MAX_NFA_NODES} NFA states)`,
      MAX_DFA_NODES,
    );
  // Refuse at once what cannot fit, instead of building 200,000 nodes to find out: counted
  // repetitions are copied out in the NFA (a{0,4294967295}); a DFA needs more states than its
  // shortest word has characters ("x" × 50,000).
  const shortest = shortestWordLength(node);
  if (nfaNodesAtLeast(node) > MAX_NFA_NODES || (Number.isFinite(shortest) && shortest >= MAX_DFA_NODES))
    throw tooLarge();
  try {
    return minimalDfa(node, new ENFA.LimitedNodeFactory(MAX_NFA_NODES), { created: 0 });
  } catch (error) {
    if (error instanceof TooManyNodesError) throw tooLarge();
    throw error;
  }
}

/**
 * Length of the shortest word of the node's language: a lower bound for `and`, 0 under `not`,
 * Infinity for a language known to be empty.
 */
function shortestWordLength(node: RegexNode): number {
  switch (node.type) {
    case 'chars':
      return 1;
    case 'seq':
      return node.items.reduce((n, item) => n + shortestWordLength(item), 0);
    case 'alt':
      return node.options.reduce((n, option) => Math.min(n, shortestWordLength(option)), Infinity);
    case 'repeat':
      return node.min === 0 || node.min > node.max
        ? node.min > node.max
          ? Infinity
          : 0
        : node.min * shortestWordLength(node.node);
    case 'and':
      return Math.max(shortestWordLength(node.left), shortestWordLength(node.right));
    case 'not':
    case 'anything':
      return 0;
    case 'none':
      return Infinity;
  }
}

/**
 * A lower bound of the ε-NFA nodes the node needs (2 per character set, one copy of a repeated
 * body per counted repetition: x{m,n} → n copies, x{m,} → m); `&` / `~` operands are built apart.
 */
function nfaNodesAtLeast(node: RegexNode): number {
  switch (node.type) {
    case 'chars':
      return 2;
    case 'seq':
      return node.items.reduce((n, item) => n + nfaNodesAtLeast(item), 0);
    case 'alt':
      return node.options.reduce((n, option) => n + nfaNodesAtLeast(option), 0);
    case 'repeat':
      return nfaNodesAtLeast(node.node) * Math.max(1, node.max === Infinity ? node.min : node.max);
    case 'and':
      return Math.max(nfaNodesAtLeast(node.left), nfaNodesAtLeast(node.right));
    case 'not':
      return nfaNodesAtLeast(node.node);
    case 'none':
    case 'anything':
      return 1;
  }
}

/** Runs a refa operation and converts its node-limit error into RegexTooComplexError. */
export function withNodeBudget<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof TooManyNodesError) {
      throw new RegexTooComplexError(`automaton exceeds ${MAX_DFA_NODES} DFA states`, MAX_DFA_NODES);
    }
    throw error;
  }
}

function dfaFactory(): DFA.LimitedNodeFactory {
  return new DFA.LimitedNodeFactory(MAX_DFA_NODES);
}

/**
 * Work budget of one whole compilation: DFA nodes created plus nodes minimised, over every `&` /
 * `~` operand and their intersections, so that a chain of intersections, each within
 * MAX_DFA_NODES, cannot take many seconds together. The most any NL-RX-Turk gold needs is 2,874.
 */
export const MAX_DFA_WORK = 50_000;

interface Work {
  created: number;
}

function spend(work: Work, amount: number): void {
  work.created += amount;
  if (work.created > MAX_DFA_WORK) {
    throw new RegexTooComplexError(
      `building the automaton of this regex takes more than ${MAX_DFA_WORK.toLocaleString('en-US')} DFA states of work`,
      MAX_DFA_WORK,
    );
  }
}

function meteredFactory(work: Work): NodeFactory<DFA.Node> {
  const inner = dfaFactory();
  return {
    createNode: () => {
      spend(work, 1);
      return inner.createNode();
    },
  };
}

/** A complemented copy (the input is not modified). */
export function complementOf(dfa: ReadonlyDFA): DFA {
  const copy = dfa.copy(dfaFactory());
  copy.complement(dfaFactory());
  copy.minimize();
  return copy;
}

function minimalDfa(node: RegexNode, nfaNodes: ENFA.LimitedNodeFactory, work: Work): DFA {
  let dfa: DFA;
  switch (node.type) {
    case 'and':
      dfa = DFA.fromIntersection(
        minimalDfa(node.left, nfaNodes, work),
        minimalDfa(node.right, nfaNodes, work),
        meteredFactory(work),
      );
      break;
    case 'not':
      dfa = minimalDfa(node.node, nfaNodes, work);
      dfa.complement(meteredFactory(work));
      break;
    case 'none':
      return DFA.empty(FA_OPTIONS);
    case 'anything':
      return DFA.all(FA_OPTIONS);
    default:
      dfa = DFA.fromFA(toNfa(node, nfaNodes, work), meteredFactory(work));
  }
  spend(work, dfa.countNodes());
  dfa.minimize();
  return dfa;
}

function toNfa(node: RegexNode, nodes: ENFA.LimitedNodeFactory, work: Work): ENFA {
  switch (node.type) {
    case 'chars':
      return ENFA.fromCharSet(node.set, nodes);
    case 'seq': {
      const nfa = ENFA.emptyWord(FA_OPTIONS, nodes);
      for (const item of node.items) nfa.appendInto(toNfa(item, nodes, work), nodes);
      return nfa;
    }
    case 'alt': {
      const nfa = ENFA.empty(FA_OPTIONS, nodes);
      for (const option of node.options) nfa.unionInto(toNfa(option, nodes, work), 'left', nodes);
      return nfa;
    }
    case 'repeat': {
      const nfa = toNfa(node.node, nodes, work);
      if (node.min > node.max) return ENFA.empty(FA_OPTIONS, nodes);
      nfa.quantify(node.min, node.max, false, nodes);
      return nfa;
    }
    case 'none':
      return ENFA.empty(FA_OPTIONS, nodes);
    case 'anything':
      return ENFA.all(FA_OPTIONS, nodes);
    case 'and':
    case 'not':
      return ENFA.fromFA(minimalDfa(node, nodes, work), nodes);
  }
}

/**
 * A DFA compiled for fast full-match tests: states numbered from 0 (the initial state) in BFS
 * order; dead states (that cannot reach acceptance) are dropped, so a missing transition is -1.
 * Characters < 128 use a dense table; the rest use per-state sorted ranges (binary search).
 */
export interface DfaTable {
  readonly states: number;
  readonly accepting: Uint8Array;
  /** states × 128 → target state or -1. */
  readonly ascii: Int32Array;
  /** Ranges of state s (for characters ≥ 128) are [offsets[s], offsets[s + 1]). */
  readonly offsets: Int32Array;
  readonly lo: Uint16Array;
  readonly hi: Uint16Array;
  readonly target: Int32Array;
}

export function dfaTable(dfa: ReadonlyDFA): DfaTable {
  const index = new Map<DFA.ReadonlyNode, number>();
  const order: DFA.ReadonlyNode[] = [];
  const live = liveNodes(dfa);
  if (live.has(dfa.initial)) {
    index.set(dfa.initial, 0);
    order.push(dfa.initial);
    for (let i = 0; i < order.length; i++) {
      for (const to of (order[i] as DFA.ReadonlyNode).out.values()) {
        if (live.has(to) && !index.has(to)) {
          index.set(to, order.length);
          order.push(to);
        }
      }
    }
  }
  const states = order.length;
  const accepting = new Uint8Array(Math.max(states, 1));
  const ascii = new Int32Array(Math.max(states, 1) * 128).fill(-1);
  const offsets = new Int32Array(Math.max(states, 1) + 1);
  const lo: number[] = [];
  const hi: number[] = [];
  const target: number[] = [];
  order.forEach((node, s) => {
    if (dfa.finals.has(node)) accepting[s] = 1;
    offsets[s] = lo.length;
    const entries = [...node.out.entries()].sort((a, b) => a[0].min - b[0].min);
    for (const [range, to] of entries) {
      const t = index.get(to);
      if (t === undefined) continue;
      for (let c = range.min; c <= Math.min(range.max, 127); c++) ascii[s * 128 + c] = t;
      if (range.max >= 128) {
        lo.push(Math.max(range.min, 128));
        hi.push(range.max);
        target.push(t);
      }
    }
  });
  offsets[states] = lo.length;
  return {
    states,
    accepting,
    ascii,
    offsets,
    lo: Uint16Array.from(lo),
    hi: Uint16Array.from(hi),
    target: Int32Array.from(target),
  };
}

/** Full-match test of a string against a compiled table; linear in the input length. */
export function tableAccepts(table: DfaTable, input: string): boolean {
  if (table.states === 0) return false;
  const { ascii, offsets, lo, hi, target, accepting } = table;
  let s = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c < 128) {
      s = ascii[(s << 7) | c] as number;
    } else {
      let left = offsets[s] as number;
      let right = (offsets[s + 1] as number) - 1;
      let next = -1;
      while (left <= right) {
        const mid = (left + right) >> 1;
        if (c < (lo[mid] as number)) right = mid - 1;
        else if (c > (hi[mid] as number)) left = mid + 1;
        else {
          next = target[mid] as number;
          break;
        }
      }
      s = next;
    }
    if (s < 0) return false;
  }
  return accepting[s] === 1;
}

/** Nodes from which an accepting node is reachable. */
export function liveNodes(dfa: ReadonlyDFA): Set<DFA.ReadonlyNode> {
  const incoming = new Map<DFA.ReadonlyNode, DFA.ReadonlyNode[]>();
  for (const node of dfa.nodes()) {
    for (const to of new Set(node.out.values())) {
      const list = incoming.get(to);
      if (list) list.push(node);
      else incoming.set(to, [node]);
    }
  }
  const live = new Set<DFA.ReadonlyNode>(dfa.finals);
  const stack = [...dfa.finals];
  while (stack.length > 0) {
    const node = stack.pop() as DFA.ReadonlyNode;
    for (const from of incoming.get(node) ?? []) {
      if (!live.has(from)) {
        live.add(from);
        stack.push(from);
      }
    }
  }
  return live;
}
