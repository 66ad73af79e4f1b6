/**
 * Random members of a regular language, by walking its minimal DFA.
 *
 * - The walk is restricted to live states (those that can still reach acceptance), so every walk
 *   that ends in an accepting state yields a member; lengths stay within [minLength, maxLength].
 * - Each walk draws a target length; before it, the walk stops at accepting states only now and
 *   then; past it, it steers along shortest paths to acceptance.
 * - Characters are picked readably and diversely: often a character that appears literally in the
 *   regex, otherwise a letter/digit or other printable ASCII character of the transition's set;
 *   non-ASCII only when the set has no printable ASCII, and a control character only when the set
 *   has nothing printable at all.
 * - Deterministic for the rng's seed; distinct results; fewer than `count` for small languages
 *   (attempts are capped), none for the empty language. When even the shortest member is longer
 *   than maxLength, maxLength is raised to that length (a non-empty language never samples empty).
 */
import type { CharSet } from 'refa';
import type { Rng } from '../../core/random.ts';
import type { RegexNode } from './ast.ts';
import { charSetOf, liveNodes } from './automaton.ts';
import type { CompiledRegex } from './compile.ts';

export interface SampleOptions {
  /** Default 24. */
  maxLength?: number;
  /** Default 0. */
  minLength?: number;
}

interface Edge {
  set: CharSet;
  to: number;
  picks?: { literal: number[]; alnum: number[]; printable: number[]; fallback: CharSet };
}

interface Walker {
  final: boolean[];
  /** Shortest distance to an accepting state. */
  dist: number[];
  edges: Edge[][];
  literals: CharSet;
}

const PRINTABLE = charSetOf([0x20, 0x7e]);
const ALNUM = charSetOf([0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]);
const READABLE_NON_ASCII = charSetOf([0xc0, 0x24f], [0x391, 0x3c9], [0x410, 0x44f]);
const VISIBLE_NON_ASCII = charSetOf([0xa1, 0xd7ff], [0xe000, 0xfffd]);
const WHITESPACE = charSetOf([0x09, 0x0a], [0x0d, 0x0d], [0xa0, 0xa0]);

const walkers = new WeakMap<CompiledRegex, Walker>();

export function sampleLanguage(
  compiled: CompiledRegex,
  rng: Rng,
  count: number,
  options: SampleOptions = {},
): string[] {
  if (!compiled.dfa)
    throw new Error(`sampleLanguage needs a DFA; ${compiled.source} is not regular: ${compiled.nonRegular ?? ''}`);
  let maxLength = options.maxLength ?? 24;
  const minLength = Math.min(options.minLength ?? 0, maxLength);
  const walker = walkerOf(compiled);
  const out = new Set<string>();
  if (walker.final.length === 0 || count <= 0) return [];
  // A language whose shortest member is longer than maxLength still yields its shortest members.
  maxLength = Math.max(maxLength, walker.dist[0] as number);
  const attempts = count * 8 + 64;
  for (let i = 0; i < attempts && out.size < count; i++) {
    const word = walk(walker, rng, minLength, maxLength);
    if (word !== null) out.add(word);
  }
  return [...out];
}

function walkerOf(compiled: CompiledRegex): Walker {
  let walker = walkers.get(compiled);
  if (!walker) {
    walker = buildWalker(compiled);
    walkers.set(compiled, walker);
  }
  return walker;
}

/**
 * A member of the language chosen by a list of numbers (fast-check draws them): each number picks
 * an edge among the live ones and a character of it (readable first, as `sampleLanguage` does);
 * when the numbers run out, the walk takes shortest paths to an accepting state. Linear in the
 * list and the automaton's depth; null for the empty language.
 */
export function walkByChoices(compiled: CompiledRegex, choices: readonly number[]): string | null {
  if (!compiled.dfa) return null;
  const w = walkerOf(compiled);
  if (w.final.length === 0) return null;
  const codes: number[] = [];
  let s = 0;
  for (const choice of choices) {
    const edges = w.edges[s] as Edge[];
    if (edges.length === 0) break;
    const edge = edges[choice % edges.length] as Edge;
    codes.push(charByChoice(edge, w.literals, Math.floor(choice / edges.length)));
    s = edge.to;
  }
  while (!w.final[s]) {
    const edge = (w.edges[s] as Edge[]).find((e) => (w.dist[e.to] as number) < (w.dist[s] as number)) as Edge;
    codes.push(charByChoice(edge, w.literals, 0));
    s = edge.to;
  }
  return String.fromCharCode(...codes);
}

function charByChoice(edge: Edge, literals: CharSet, choice: number): number {
  const { literal, alnum, printable, fallback } = picksOf(edge, literals);
  const readable = literal.length > 0 ? literal : alnum.length > 0 ? alnum : printable;
  if (readable.length > 0) return readable[choice % readable.length] as number;
  return (fallback.ranges[0] as { min: number }).min;
}

function walk(w: Walker, rng: Rng, minLength: number, maxLength: number): string | null {
  const span = maxLength - minLength;
  const target = minLength + (rng.chance(0.5) ? rng.int(Math.min(span, 12) + 1) : rng.int(span + 1));
  const codes: number[] = [];
  let s = 0;
  for (;;) {
    const len = codes.length;
    if (w.final[s] && len >= minLength && (len >= target || rng.chance(0.08))) break;
    const all = w.edges[s] as Edge[];
    const fits = all.filter((e) => len + 1 + (w.dist[e.to] as number) <= maxLength);
    const steer = len >= target ? fits.filter((e) => (w.dist[e.to] as number) < (w.dist[s] as number)) : [];
    const choices = steer.length > 0 ? steer : fits;
    if (choices.length === 0) {
      if (w.final[s] && len >= minLength) break;
      return null;
    }
    const edge = rng.pick(choices);
    codes.push(pickChar(edge, w.literals, rng));
    s = edge.to;
  }
  return String.fromCharCode(...codes);
}

function picksOf(edge: Edge, literals: CharSet): NonNullable<Edge['picks']> {
  edge.picks ??= {
    literal: [...edge.set.intersect(literals).characters()],
    alnum: [...edge.set.intersect(ALNUM).characters()],
    printable: [...edge.set.intersect(PRINTABLE).characters()],
    fallback: fallbackSet(edge.set),
  };
  return edge.picks;
}

function pickChar(edge: Edge, literals: CharSet, rng: Rng): number {
  const { literal, alnum, printable, fallback } = picksOf(edge, literals);
  if (literal.length > 0 && rng.chance(0.45)) return rng.pick(literal);
  if (alnum.length > 0 && (printable.length === alnum.length || rng.chance(0.6))) return rng.pick(alnum);
  if (printable.length > 0) return rng.pick(printable);
  return randomChar(fallback, rng);
}

/** Characters to use when the set has no printable ASCII: readable letters, then visible, then whitespace, then anything. */
function fallbackSet(set: CharSet): CharSet {
  for (const preferred of [READABLE_NON_ASCII, VISIBLE_NON_ASCII, WHITESPACE]) {
    const common = set.intersect(preferred);
    if (!common.isEmpty) return common;
  }
  return set;
}

function randomChar(set: CharSet, rng: Rng): number {
  let index = rng.int(set.size);
  for (const range of set.ranges) {
    const size = range.max - range.min + 1;
    if (index < size) return range.min + index;
    index -= size;
  }
  return (set.ranges[0] as { min: number }).min;
}

function buildWalker(compiled: CompiledRegex): Walker {
  const dfa = compiled.dfa as NonNullable<CompiledRegex['dfa']>;
  const live = liveNodes(dfa);
  const index = new Map<unknown, number>();
  const order: (typeof dfa.initial)[] = [];
  if (live.has(dfa.initial)) {
    index.set(dfa.initial, 0);
    order.push(dfa.initial);
  }
  const edges: Edge[][] = [];
  for (let i = 0; i < order.length; i++) {
    const grouped = (order[i] as typeof dfa.initial).out.invert(dfa.maxCharacter);
    const list: Edge[] = [];
    for (const [to, set] of grouped) {
      if (!live.has(to)) continue;
      if (!index.has(to)) {
        index.set(to, order.length);
        order.push(to);
      }
      list.push({ set, to: index.get(to) as number });
    }
    edges.push(list);
  }
  const final = order.map((node) => dfa.finals.has(node));
  const incoming: number[][] = order.map(() => []);
  edges.forEach((list, s) => list.forEach((edge) => (incoming[edge.to] as number[]).push(s)));
  const dist = order.map((_, i) => (final[i] ? 0 : Infinity));
  const queue = order.flatMap((_, i) => (final[i] ? [i] : []));
  for (let head = 0; head < queue.length; head++) {
    const t = queue[head] as number;
    for (const s of incoming[t] as number[]) {
      if (dist[s] === Infinity) {
        dist[s] = (dist[t] as number) + 1;
        queue.push(s);
      }
    }
  }
  return { final, dist, edges, literals: literalChars(compiled.node) };
}

/** Characters spelled literally in the regex (sets of at most two characters, e.g. `d` or `[Dd]`). */
function literalChars(node: RegexNode | null): CharSet {
  const codes: number[] = [];
  const visit = (n: RegexNode): void => {
    switch (n.type) {
      case 'chars':
        if (n.set.size <= 2) codes.push(...n.set.characters());
        return;
      case 'seq':
        return n.items.forEach(visit);
      case 'alt':
        return n.options.forEach(visit);
      case 'and':
        visit(n.left);
        return visit(n.right);
      case 'repeat':
      case 'not':
        return visit(n.node);
      default:
        return;
    }
  };
  if (node) visit(node);
  return charSetOf(...codes.map((c): [number, number] => [c, c]));
}
