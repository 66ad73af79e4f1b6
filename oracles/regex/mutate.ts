/**
 * Mutation operators on the dialect-neutral AST (the sim model's plausible mistakes).
 *
 * Each operator finds its applicable sites in the tree, picks one at random (Rng) and rebuilds
 * the tree with that site replaced; it returns null when nothing applies. `mutateRegex` tries the
 * operators in random order and accepts the first result whose printed brics form differs from
 * the input's (same printed form = not a mutation). Results are always valid nodes (repeat
 * bounds 0 ≤ min ≤ max). Operators that introduce `&` or `~` are marked `bricsOnly`; pass
 * `{ dialect: 'ecmascript' }` to skip them (the ECMAScript printer would have to expand them
 * through a DFA). `{ distinctLanguage: true }` also rejects mutants with the same language.
 */
import type { CharSet, DFA } from 'refa';
import type { Rng } from '../../core/random.ts';
import { printBrics, type Dialect, type RegexNode } from './ast.ts';
import { ALL_CHARS, charSetOf, charSetOfChar, toDfa } from './automaton.ts';
import { compareDfas } from './equivalence.ts';
import { isStackOverflow, RegexTooComplexError } from './errors.ts';

export type MutationOperator = {
  name: string;
  /** Introduces `&` / `~`, which ECMAScript cannot spell directly. */
  bricsOnly?: boolean;
  apply(node: RegexNode, rng: Rng): RegexNode | null;
};

type Path = readonly number[];
interface Site<T extends RegexNode = RegexNode> {
  node: T;
  path: Path;
  parent: RegexNode | null;
}

const RELATED_CLASSES: readonly { text: string; set: CharSet }[] = [
  { text: '[A-Z]', set: charSetOf([65, 90]) },
  { text: '[a-z]', set: charSetOf([97, 122]) },
  { text: '[A-Za-z]', set: charSetOf([65, 90], [97, 122]) },
  { text: '[0-9]', set: charSetOf([48, 57]) },
  {
    text: '[AEIOUaeiou]',
    set: charSetOf(...[...'AEIOUaeiou'].map((c): [number, number] => [c.charCodeAt(0), c.charCodeAt(0)])),
  },
  { text: '.', set: ALL_CHARS },
];
const LITERAL_WORDS: readonly string[] = ['dog', 'truck', 'ring', 'lake'];
const REPLACEMENT_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';
const BASIC_QUANTIFIERS: readonly [number, number][] = [
  [0, Infinity],
  [1, Infinity],
  [0, 1],
];

function children(node: RegexNode): RegexNode[] {
  switch (node.type) {
    case 'seq':
      return node.items;
    case 'alt':
      return node.options;
    case 'repeat':
    case 'not':
      return [node.node];
    case 'and':
      return [node.left, node.right];
    default:
      return [];
  }
}

function withChild(node: RegexNode, index: number, child: RegexNode): RegexNode {
  switch (node.type) {
    case 'seq':
      return { type: 'seq', items: node.items.map((item, i) => (i === index ? child : item)) };
    case 'alt':
      return { type: 'alt', options: node.options.map((option, i) => (i === index ? child : option)) };
    case 'repeat':
      return { ...node, node: child };
    case 'not':
      return { type: 'not', node: child };
    case 'and':
      return index === 0
        ? { type: 'and', left: child, right: node.right }
        : { type: 'and', left: node.left, right: child };
    default:
      throw new Error(`${node.type} has no children`);
  }
}

function sites(root: RegexNode): Site[] {
  const out: Site[] = [];
  const visit = (node: RegexNode, path: Path, parent: RegexNode | null): void => {
    out.push({ node, path, parent });
    children(node).forEach((child, i) => visit(child, [...path, i], node));
  };
  visit(root, [], null);
  return out;
}

function replaceAt(root: RegexNode, path: Path, replacement: RegexNode): RegexNode {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [number, ...number[]];
  return withChild(root, head, replaceAt(children(root)[head] as RegexNode, rest, replacement));
}

/** An operator from a site filter and a rewrite of the chosen site (null = not applicable there). */
function siteOperator<T extends RegexNode>(
  name: string,
  accept: (site: Site) => site is Site<T>,
  rewrite: (node: T, rng: Rng) => RegexNode | null,
  bricsOnly = false,
): MutationOperator {
  return {
    name,
    bricsOnly,
    apply(root, rng) {
      const candidates = sites(root).filter(accept);
      if (candidates.length === 0) return null;
      const site = rng.pick(candidates);
      const replacement = rewrite(site.node, rng);
      return replacement && replaceAt(root, site.path, replacement);
    },
  };
}

const is =
  <K extends RegexNode['type']>(
    type: K,
    extra: (node: Extract<RegexNode, { type: K }>, site: Site) => boolean = () => true,
  ) =>
  (site: Site): site is Site<Extract<RegexNode, { type: K }>> =>
    site.node.type === type && extra(site.node as Extract<RegexNode, { type: K }>, site);

function requantify(min: number, max: number): [number, number][] {
  if (max === Infinity) {
    if (min === 0)
      return [
        [1, Infinity],
        [0, 1],
      ];
    if (min === 1)
      return [
        [0, Infinity],
        [0, 1],
      ];
    return [
      [min - 1, Infinity],
      [min + 1, Infinity],
    ];
  }
  if (min === 0 && max === 1)
    return [
      [0, Infinity],
      [1, Infinity],
    ];
  const out: [number, number][] = [];
  if (min === max) {
    out.push([min + 1, max + 1], [min, Infinity]);
    if (min >= 2) out.push([min - 1, max - 1]);
    return out;
  }
  if (min + 1 <= max) out.push([min + 1, max]);
  if (min >= 1) out.push([min - 1, max]);
  out.push([min, max + 1]);
  if (max - 1 >= min) out.push([min, max - 1]);
  return out;
}

function singleChar(node: RegexNode): string | null {
  if (node.type !== 'chars' || node.set.size !== 1) return null;
  return String.fromCharCode(node.set.ranges[0]?.min as number);
}

function literal(ch: string): RegexNode {
  return { type: 'chars', set: charSetOfChar(ch), text: ch };
}

/** Runs of single-character items in a seq that spell one of LITERAL_WORDS. */
function wordRuns(node: RegexNode): { start: number; word: string }[] {
  if (node.type !== 'seq') return [];
  const runs: { start: number; word: string }[] = [];
  const letters = node.items.map(singleChar);
  for (let start = 0; start < letters.length; start++) {
    for (const word of LITERAL_WORDS) {
      if ([...word].every((ch, i) => letters[start + i] === ch)) runs.push({ start, word });
    }
  }
  return runs;
}

export const MUTATION_OPERATORS: readonly MutationOperator[] = [
  siteOperator(
    'quantifier-change',
    is('repeat', (n) => n.min <= n.max),
    (node, rng) => {
      const [min, max] = rng.pick(requantify(node.min, node.max));
      return { type: 'repeat', node: node.node, min, max };
    },
  ),
  siteOperator('quantifier-drop', is('repeat'), (node) => node.node),
  siteOperator(
    'quantifier-add',
    (site): site is Site => site.node.type !== 'repeat' && site.parent?.type !== 'repeat' && site.node.type !== 'none',
    (node, rng) => {
      const [min, max] = rng.pick(BASIC_QUANTIFIERS);
      return { type: 'repeat', node, min, max };
    },
  ),
  siteOperator(
    'class-swap',
    is('chars', (n) => n.set.size > 1),
    (node, rng) => {
      const others = RELATED_CLASSES.filter((c) => !c.set.equals(node.set));
      const next = rng.pick(others);
      return { type: 'chars', set: next.set, text: next.text };
    },
  ),
  siteOperator(
    'word-replace',
    (site): site is Site => wordRuns(site.node).length > 0,
    (node, rng) => {
      const { start, word } = rng.pick(wordRuns(node));
      const next = rng.pick(LITERAL_WORDS.filter((w) => w !== word));
      const items = (node as Extract<RegexNode, { type: 'seq' }>).items;
      return {
        type: 'seq',
        items: [...items.slice(0, start), ...[...next].map(literal), ...items.slice(start + word.length)],
      };
    },
  ),
  siteOperator(
    'char-replace',
    is('chars', (n) => n.set.size === 1),
    (node, rng) => {
      const current = singleChar(node);
      return literal(rng.pick([...REPLACEMENT_CHARS].filter((c) => c !== current)));
    },
  ),
  siteOperator(
    'seq-delete',
    is('seq', (n) => n.items.length >= 2),
    (node, rng) => {
      const drop = rng.int(node.items.length);
      return { type: 'seq', items: node.items.filter((_, i) => i !== drop) };
    },
  ),
  siteOperator(
    'seq-duplicate',
    is('seq', (n) => n.items.length >= 1),
    (node, rng) => {
      const at = rng.int(node.items.length);
      return { type: 'seq', items: node.items.flatMap((item, i) => (i === at ? [item, item] : [item])) };
    },
  ),
  siteOperator(
    'seq-swap',
    is('seq', (n) => n.items.length >= 2),
    (node, rng) => {
      const at = rng.int(node.items.length - 1);
      const items = node.items.slice();
      [items[at], items[at + 1]] = [items[at + 1] as RegexNode, items[at] as RegexNode];
      return { type: 'seq', items };
    },
  ),
  siteOperator(
    'alt-drop',
    is('alt', (n) => n.options.length >= 2),
    (node, rng) => {
      const drop = rng.int(node.options.length);
      const options = node.options.filter((_, i) => i !== drop);
      return options.length === 1 ? (options[0] as RegexNode) : { type: 'alt', options };
    },
  ),
  siteOperator('and-to-or', is('and'), (node) => ({ type: 'alt', options: [node.left, node.right] })),
  siteOperator(
    'or-to-and',
    is('alt', (n) => n.options.length >= 2),
    (node, rng) => {
      const at = rng.int(node.options.length);
      const rest = node.options.filter((_, i) => i !== at);
      return {
        type: 'and',
        left: node.options[at] as RegexNode,
        right: rest.length === 1 ? (rest[0] as RegexNode) : { type: 'alt', options: rest },
      };
    },
    true,
  ),
  siteOperator(
    'not-wrap',
    (site): site is Site => site.node.type !== 'not' && site.parent?.type !== 'not',
    (node) => ({ type: 'not', node }),
    true,
  ),
  siteOperator('not-unwrap', is('not'), (node) => node.node),
];

export interface MutateOptions {
  /** 'ecmascript' skips the operators that introduce `&` / `~`. */
  dialect?: Dialect;
  /**
   * Accept only mutants whose language differs from the input's (minimal DFAs compared; mutants
   * past the DFA budget are skipped). On NL-RX about a third of plain mutants are equivalent:
   * `.*` absorbs many edits and 1,559 golds denote the empty language.
   */
  distinctLanguage?: boolean;
  /** Only these operators (by name); all when unset. The steerable sim draws a mistake of one class this way. */
  only?: readonly string[];
}

/**
 * The sim's "mutant differs" check: true only when the two nodes provably denote different
 * languages; false when they are equal or the comparison cannot tell (past the budgets).
 */
export function changesLanguage(original: RegexNode, mutated: RegexNode): boolean {
  try {
    const comparison = compareDfas(dfaOf(original), toDfa(mutated));
    return comparison !== null && comparison.decided && !comparison.equivalent;
  } catch (error) {
    if (error instanceof RegexTooComplexError || isStackOverflow(error)) return false;
    throw error;
  }
}

// mutateRegex compares many mutants with the same original.
const originals = new WeakMap<RegexNode, DFA>();
function dfaOf(node: RegexNode): DFA {
  let dfa = originals.get(node);
  if (!dfa) originals.set(node, (dfa = toDfa(node)));
  return dfa;
}

export function mutateRegex(
  node: RegexNode,
  rng: Rng,
  options: MutateOptions = {},
): { node: RegexNode; operator: string } | null {
  const before = printBrics(node);
  const differs = (mutated: RegexNode): boolean => {
    if (printBrics(mutated) === before) return false;
    return options.distinctLanguage ? changesLanguage(node, mutated) : true;
  };
  const operators = MUTATION_OPERATORS.filter(
    (op) => !(op.bricsOnly && options.dialect === 'ecmascript') && (!options.only || options.only.includes(op.name)),
  );
  for (const operator of rng.shuffle(operators)) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const mutated = operator.apply(node, rng);
      if (mutated && differs(mutated)) return { node: mutated, operator: operator.name };
    }
  }
  return null;
}
