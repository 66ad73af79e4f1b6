/**
 * Brzozowski derivatives over the dialect-neutral AST: the automaton of a regex built lazily, one
 * state at a time, without expanding counted repetitions (`a{0,99999}` is one term whose
 * derivative is `a{0,99998}`) and with `&` and `~` for free (the derivative of an intersection is
 * the intersection of the derivatives, likewise for the complement).
 *
 * Terms are hash-consed in a `TermTable` and kept in a normal form (associative concatenation;
 * alternation and intersection flattened, deduplicated and sorted — Brzozowski's "similarity" — so
 * a regex has finitely many derivatives), hence two terms with the same id denote the same
 * language. A table has a term budget: past it, operations throw `TermBudgetError`.
 *
 * `classes(term)` lists character sets such that characters agreeing on membership in each of them
 * (including characters in none) have the same derivative: the alphabet partition that lazy
 * explorations need instead of iterating over 65,536 code units.
 */
import type { CharSet } from 'refa';
import type { RegexNode } from './ast.ts';

export type Term = { readonly id: number; readonly nullable: boolean } & (
  | { readonly kind: 'empty' }
  | { readonly kind: 'eps' }
  | { readonly kind: 'chars'; readonly set: CharSet }
  | { readonly kind: 'seq'; readonly head: Term; readonly tail: Term }
  | { readonly kind: 'alt'; readonly items: readonly Term[] }
  | { readonly kind: 'and'; readonly items: readonly Term[] }
  | { readonly kind: 'not'; readonly item: Term }
  | { readonly kind: 'repeat'; readonly item: Term; readonly min: number; readonly max: number }
);

/** Thrown when a table would hold more terms than its budget. */
export class TermBudgetError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit.toLocaleString('en-US')} derivative terms`);
    this.name = 'TermBudgetError';
  }
}

export const DEFAULT_MAX_TERMS = 100_000;

export class TermTable {
  private readonly byKey = new Map<string, Term>();
  /** Derivatives by term id, then by character. */
  private readonly derivatives: Map<number, Term>[] = [];
  private readonly classCache = new Map<number, readonly CharSet[]>();
  readonly empty: Term;
  readonly eps: Term;
  /** Every string: ~∅. */
  readonly all: Term;

  constructor(readonly maxTerms = DEFAULT_MAX_TERMS) {
    this.empty = this.add('0', { id: 0, nullable: false, kind: 'empty' });
    this.eps = this.add('1', { id: 1, nullable: true, kind: 'eps' });
    this.all = this.add(`n${this.empty.id}`, { id: 2, nullable: true, kind: 'not', item: this.empty });
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The next term id, or TermBudgetError when the table is full. */
  private nextId(): number {
    if (this.byKey.size >= this.maxTerms) throw new TermBudgetError(this.maxTerms);
    return this.byKey.size;
  }

  private add(key: string, term: Term): Term {
    this.byKey.set(key, term);
    return term;
  }

  chars(set: CharSet): Term {
    if (set.isEmpty) return this.empty;
    const key = `c${charSetKey(set)}`;
    return this.byKey.get(key) ?? this.add(key, { id: this.nextId(), nullable: false, kind: 'chars', set });
  }

  seq(head: Term, tail: Term): Term {
    if (head.kind === 'empty' || tail.kind === 'empty') return this.empty;
    if (head.kind === 'eps') return tail;
    if (tail.kind === 'eps') return head;
    if (head.kind === 'seq') {
      // Re-associate to the right, iteratively (chains can be long).
      const heads: Term[] = [];
      let h: Term = head;
      while (h.kind === 'seq') {
        heads.push(h.head);
        h = h.tail;
      }
      let result = this.seq(h, tail);
      for (let i = heads.length - 1; i >= 0; i--) result = this.seq(heads[i] as Term, result);
      return result;
    }
    const key = `s${head.id},${tail.id}`;
    return (
      this.byKey.get(key) ??
      this.add(key, { id: this.nextId(), nullable: head.nullable && tail.nullable, kind: 'seq', head, tail })
    );
  }

  alt(items: readonly Term[]): Term {
    const flat = new Map<number, Term>();
    for (const item of items) {
      if (item.kind === 'alt') for (const inner of item.items) flat.set(inner.id, inner);
      else if (item.kind !== 'empty') flat.set(item.id, item);
    }
    if (flat.has(this.all.id)) return this.all;
    if (flat.size === 0) return this.empty;
    if (flat.size === 1) return flat.values().next().value as Term;
    const sorted = [...flat.values()].sort((a, b) => a.id - b.id);
    const key = `a${sorted.map((t) => t.id).join(',')}`;
    return (
      this.byKey.get(key) ??
      this.add(key, { id: this.nextId(), nullable: sorted.some((t) => t.nullable), kind: 'alt', items: sorted })
    );
  }

  and(items: readonly Term[]): Term {
    const flat = new Map<number, Term>();
    for (const item of items) {
      if (item.kind === 'empty') return this.empty;
      if (item.kind === 'and') for (const inner of item.items) flat.set(inner.id, inner);
      else if (item.id !== this.all.id) flat.set(item.id, item);
    }
    if (flat.size === 0) return this.all;
    if (flat.size === 1) return flat.values().next().value as Term;
    const sorted = [...flat.values()].sort((a, b) => a.id - b.id);
    const key = `&${sorted.map((t) => t.id).join(',')}`;
    return (
      this.byKey.get(key) ??
      this.add(key, { id: this.nextId(), nullable: sorted.every((t) => t.nullable), kind: 'and', items: sorted })
    );
  }

  not(item: Term): Term {
    if (item.kind === 'not') return item.item;
    const key = `n${item.id}`;
    return this.byKey.get(key) ?? this.add(key, { id: this.nextId(), nullable: !item.nullable, kind: 'not', item });
  }

  repeat(item: Term, min: number, max: number): Term {
    if (min > max) return this.empty;
    if (max === 0 || item.kind === 'eps') return this.eps;
    if (item.kind === 'empty') return min === 0 ? this.eps : this.empty;
    if (min === 1 && max === 1) return item;
    // (x*){m,n} = x* for n ≥ 1.
    if (item.kind === 'repeat' && item.min === 0 && item.max === Infinity) return item;
    const key = `r${item.id},${min},${max}`;
    return (
      this.byKey.get(key) ??
      this.add(key, { id: this.nextId(), nullable: min === 0 || item.nullable, kind: 'repeat', item, min, max })
    );
  }

  /** The term of a node. Recursion follows the AST's nesting (a RangeError when absurdly deep). */
  fromNode(node: RegexNode): Term {
    switch (node.type) {
      case 'chars':
        return this.chars(node.set);
      case 'none':
        return this.empty;
      case 'anything':
        return this.all;
      case 'seq': {
        let result = this.eps;
        for (let i = node.items.length - 1; i >= 0; i--)
          result = this.seq(this.fromNode(node.items[i] as RegexNode), result);
        return result;
      }
      case 'alt':
        return this.alt(node.options.map((option) => this.fromNode(option)));
      case 'repeat':
        return this.repeat(this.fromNode(node.node), node.min, node.max);
      case 'and':
        return this.and([this.fromNode(node.left), this.fromNode(node.right)]);
      case 'not':
        return this.not(this.fromNode(node.node));
    }
  }

  /** The derivative of `term` by the character `char` (memoised). */
  derive(term: Term, char: number): Term {
    let byChar = this.derivatives[term.id];
    if (!byChar) this.derivatives[term.id] = byChar = new Map();
    const known = byChar.get(char);
    if (known) return known;
    const result = this.computeDerivative(term, char);
    byChar.set(char, result);
    return result;
  }

  private computeDerivative(term: Term, char: number): Term {
    switch (term.kind) {
      case 'empty':
      case 'eps':
        return this.empty;
      case 'chars':
        return term.set.has(char) ? this.eps : this.empty;
      case 'seq': {
        // d(h·t) = d(h)·t | (ν(h) ? d(t)), walked along the chain of nullable heads.
        const parts: Term[] = [];
        let rest: Term = term;
        while (rest.kind === 'seq') {
          parts.push(this.seq(this.derive(rest.head, char), rest.tail));
          if (!rest.head.nullable) return this.alt(parts);
          rest = rest.tail;
        }
        parts.push(this.derive(rest, char));
        return this.alt(parts);
      }
      case 'alt':
        return this.alt(term.items.map((item) => this.derive(item, char)));
      case 'and':
        return this.and(term.items.map((item) => this.derive(item, char)));
      case 'not':
        return this.not(this.derive(term.item, char));
      case 'repeat':
        return this.seq(this.derive(term.item, char), this.repeat(term.item, Math.max(term.min - 1, 0), term.max - 1));
    }
  }

  /** Character sets the term's derivatives depend on (see the module comment). */
  classes(term: Term): readonly CharSet[] {
    const known = this.classCache.get(term.id);
    if (known) return known;
    let result: readonly CharSet[];
    switch (term.kind) {
      case 'empty':
      case 'eps':
        result = [];
        break;
      case 'chars':
        result = [term.set];
        break;
      case 'seq': {
        const sets: CharSet[] = [];
        let rest: Term = term;
        while (rest.kind === 'seq') {
          sets.push(...this.classes(rest.head));
          if (!rest.head.nullable) break;
          rest = rest.tail;
        }
        if (rest.kind !== 'seq') sets.push(...this.classes(rest));
        result = sets;
        break;
      }
      case 'alt':
      case 'and':
        result = term.items.flatMap((item) => this.classes(item));
        break;
      case 'not':
      case 'repeat':
        result = this.classes(term.item);
        break;
    }
    const unique = dedupe(result);
    this.classCache.set(term.id, unique);
    return unique;
  }
}

const setKeys = new WeakMap<CharSet, string>();

/** A string that identifies a character set by its ranges (cached per set object). */
export function charSetKey(set: CharSet): string {
  let key = setKeys.get(set);
  if (key === undefined) {
    key = set.ranges.map((r) => `${r.min}-${r.max}`).join(',');
    setKeys.set(set, key);
  }
  return key;
}

function dedupe(sets: readonly CharSet[]): readonly CharSet[] {
  if (sets.length < 2) return sets;
  if (sets.length === 2)
    return sets[0] === sets[1] || charSetKey(sets[0] as CharSet) === charSetKey(sets[1] as CharSet)
      ? [sets[0] as CharSet]
      : sets;
  const seen = new Map<string, CharSet>();
  for (const set of sets) seen.set(charSetKey(set), set);
  return seen.size === sets.length ? sets : [...seen.values()];
}
