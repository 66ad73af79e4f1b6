/**
 * Support for the equivalence property tests: random regex trees over {a, b, c} (overlapping
 * classes, alternations, counted repetitions, brics `&` / `~`), pairs of them (unrelated, edited,
 * one-site tweaks, rewrites that keep the language), printers for both dialects, and native
 * RegExp full matching. Used by tests only.
 */
import fc from 'fast-check';

// ---------------------------------------------------------------- generated trees

export type Tree =
  | { k: 'lit'; c: string }
  | { k: 'cls'; chars: string; negated: boolean }
  | { k: 'dot' }
  | { k: 'eps' }
  | { k: 'seq'; items: Tree[] }
  | { k: 'alt'; options: Tree[] }
  | { k: 'rep'; item: Tree; min: number; max: number }
  | { k: 'and'; left: Tree; right: Tree }
  | { k: 'not'; item: Tree };

const ALPHABET = ['a', 'b', 'c'];
export const ENUMERATION_ALPHABET = [...ALPHABET, 'z'];
export const MAX_LENGTH = 5;

/** Every string over {a, b, c, z} of length 0..MAX_LENGTH. */
export const WORDS: string[] = (() => {
  const out = [''];
  let layer = [''];
  for (let length = 1; length <= MAX_LENGTH; length++) {
    layer = layer.flatMap((w) => ENUMERATION_ALPHABET.map((c) => w + c));
    out.push(...layer);
  }
  return out;
})();

const QUANTIFIERS: [number, number][] = [
  [0, Infinity],
  [1, Infinity],
  [0, 1],
  [2, 2],
  [0, 2],
  [1, 3],
  [2, Infinity],
  [3, 3],
];

export function treeArbitrary(withBricsOperators: boolean): fc.Arbitrary<Tree> {
  const leaf: fc.Arbitrary<Tree> = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ALPHABET).map((c): Tree => ({ k: 'lit', c })) },
    {
      weight: 3,
      arbitrary: fc
        .record({ chars: fc.subarray(ALPHABET, { minLength: 1 }), negated: fc.boolean() })
        .map(({ chars, negated }): Tree => ({ k: 'cls', chars: chars.join(''), negated })),
    },
    { weight: 1, arbitrary: fc.constant<Tree>({ k: 'dot' }) },
    { weight: 1, arbitrary: fc.constant<Tree>({ k: 'eps' }) },
  );
  return fc.letrec<{ tree: Tree }>((tie) => {
    const sub = tie('tree');
    const branches: fc.WeightedArbitrary<Tree>[] = [
      { weight: 6, arbitrary: leaf },
      {
        weight: 3,
        arbitrary: fc.array(sub, { minLength: 2, maxLength: 3 }).map((items): Tree => ({ k: 'seq', items })),
      },
      {
        weight: 2,
        arbitrary: fc.array(sub, { minLength: 2, maxLength: 3 }).map((options): Tree => ({ k: 'alt', options })),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(sub, fc.constantFrom(...QUANTIFIERS))
          .map(([item, [min, max]]): Tree => ({ k: 'rep', item, min, max })),
      },
    ];
    if (withBricsOperators) {
      branches.push(
        { weight: 1, arbitrary: fc.tuple(sub, sub).map(([left, right]): Tree => ({ k: 'and', left, right })) },
        { weight: 1, arbitrary: sub.map((item): Tree => ({ k: 'not', item })) },
      );
    }
    return { tree: fc.oneof({ depthSize: 'small', maxDepth: 4 }, ...branches) };
  }).tree;
}

/** Rewrites that keep the language (so the verdict must be "equivalent"). */
function sameLanguageRewrite(tree: Tree, choice: number, brics: boolean): Tree {
  switch (choice % 5) {
    case 0:
      return { k: 'seq', items: [{ k: 'eps' }, tree] };
    case 1:
      return { k: 'alt', options: [tree, tree] };
    case 2:
      return tree.k === 'alt'
        ? { k: 'alt', options: [...tree.options].reverse() }
        : { k: 'rep', item: tree, min: 1, max: 1 };
    case 3:
      return tree.k === 'rep' && tree.min === 0 && tree.max === Infinity
        ? { k: 'rep', item: { k: 'rep', item: tree.item, min: 1, max: Infinity }, min: 0, max: 1 }
        : { k: 'seq', items: [tree, { k: 'eps' }] };
    default:
      return tree.k === 'rep' && tree.min === 1 && tree.max === Infinity
        ? { k: 'seq', items: [tree.item, { k: 'rep', item: tree.item, min: 0, max: Infinity }] }
        : { k: 'alt', options: brics ? [tree, { k: 'and', left: tree, right: tree }] : [tree, tree, tree] };
  }
}

/** Replaces the `index`-th node (pre-order, modulo the size) by `replacement`. */
function replaceNth(tree: Tree, index: number, replacement: Tree): Tree {
  const size = (t: Tree): number => 1 + kids(t).reduce((n, c) => n + size(c), 0);
  let target = index % size(tree);
  const visit = (t: Tree): Tree => {
    if (target-- === 0) return replacement;
    switch (t.k) {
      case 'seq':
        return { k: 'seq', items: t.items.map(visit) };
      case 'alt':
        return { k: 'alt', options: t.options.map(visit) };
      case 'rep':
        return { ...t, item: visit(t.item) };
      case 'and':
        return { k: 'and', left: visit(t.left), right: visit(t.right) };
      case 'not':
        return { k: 'not', item: visit(t.item) };
      default:
        return t;
    }
  };
  return visit(tree);
}

function kids(t: Tree): Tree[] {
  switch (t.k) {
    case 'seq':
      return t.items;
    case 'alt':
      return t.options;
    case 'rep':
    case 'not':
      return [t.item];
    case 'and':
      return [t.left, t.right];
    default:
      return [];
  }
}

export type Relation = 'unrelated' | 'edited' | 'tweaked' | 'same-language';
export interface Pair {
  gold: Tree;
  candidate: Tree;
  relation: Relation;
}

/** The `index`-th node (pre-order, modulo the size). */
function nth(tree: Tree, index: number): Tree {
  const all: Tree[] = [];
  const visit = (t: Tree): void => {
    all.push(t);
    kids(t).forEach(visit);
  };
  visit(tree);
  return all[index % all.length]!;
}

/** A one-site mistake of the kind models make: another quantifier, or an overlapping class or literal. */
function tweak(node: Tree, choice: number): Tree {
  if (node.k === 'rep') {
    const [min, max] = QUANTIFIERS[choice % QUANTIFIERS.length]!;
    return { ...node, min, max };
  }
  const leaves: Tree[] = [
    ...ALPHABET.map((c): Tree => ({ k: 'lit', c })),
    { k: 'cls', chars: 'ab', negated: false },
    { k: 'cls', chars: 'bc', negated: false },
    { k: 'cls', chars: 'a', negated: true },
    { k: 'dot' },
  ];
  if (node.k === 'lit' || node.k === 'cls' || node.k === 'dot') return leaves[choice % leaves.length]!;
  return { k: 'rep', item: node, min: 1, max: Infinity };
}

export function pairArbitrary(withBricsOperators: boolean): fc.Arbitrary<Pair> {
  const tree = treeArbitrary(withBricsOperators);
  return fc.oneof(
    {
      weight: 1,
      arbitrary: fc.tuple(tree, tree).map(([gold, candidate]): Pair => ({ gold, candidate, relation: 'unrelated' })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(tree, tree, fc.nat()).map(([gold, replacement, at]): Pair => ({
        gold,
        candidate: replaceNth(gold, at, replacement),
        relation: 'edited',
      })),
    },
    {
      weight: 5,
      arbitrary: fc.tuple(tree, fc.nat(), fc.nat()).map(([gold, at, choice]): Pair => ({
        gold,
        candidate: replaceNth(gold, at, tweak(nth(gold, at), choice)),
        relation: 'tweaked',
      })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(tree, fc.nat(), fc.nat()).map(([gold, at, choice]): Pair => ({
        gold,
        candidate: replaceNth(gold, at, sameLanguageRewrite(nth(gold, at), choice, withBricsOperators)),
        relation: 'same-language',
      })),
    },
  );
}

// ---------------------------------------------------------------- printers

const quantifier = (min: number, max: number) =>
  max === Infinity
    ? min === 0
      ? '*'
      : min === 1
        ? '+'
        : `{${min},}`
    : min === 0 && max === 1
      ? '?'
      : min === max
        ? `{${min}}`
        : `{${min},${max}}`;

export function printEcma(t: Tree): string {
  switch (t.k) {
    case 'lit':
      return t.c;
    case 'cls':
      return `[${t.negated ? '^' : ''}${t.chars}]`;
    case 'dot':
      return '.';
    case 'eps':
      return '(?:)';
    case 'seq':
      return t.items.map((x) => `(?:${printEcma(x)})`).join('');
    case 'alt':
      return `(?:${t.options.map(printEcma).join('|')})`;
    case 'rep':
      return `(?:${printEcma(t.item)})${quantifier(t.min, t.max)}`;
    case 'and':
    case 'not':
      throw new Error('no ECMAScript syntax');
  }
}

export function printBricsTree(t: Tree): string {
  switch (t.k) {
    case 'lit':
      return t.c;
    case 'cls':
      return `[${t.negated ? '^' : ''}${t.chars}]`;
    case 'dot':
      return '.';
    case 'eps':
      return '()';
    case 'seq':
      return t.items.map((x) => `(${printBricsTree(x)})`).join('');
    case 'alt':
      return `(${t.options.map(printBricsTree).join('|')})`;
    case 'rep':
      return `(${printBricsTree(t.item)})${quantifier(t.min, t.max)}`;
    case 'and':
      return `((${printBricsTree(t.left)})&(${printBricsTree(t.right)}))`;
    case 'not':
      return `(~(${printBricsTree(t.item)}))`;
  }
}

export const nativeMatcher = (source: string) => {
  const regex = new RegExp(`^(?:${source})$`, 's');
  return (s: string) => regex.test(s);
};
