/**
 * The dialect-neutral regex AST and its two printers.
 *
 * Conventions:
 * - A node denotes a language of whole strings (full-match semantics) over UTF-16 code units
 *   0–0xFFFF; `.` (the full set) matches every character, line terminators included.
 * - `chars.text` is the source spelling of the set (e.g. `[A-Z]`, `.`, `d`, brics `\b`). A
 *   printer uses it only when it re-parses, in the printer's dialect, to exactly the same set and
 *   is safe in any context (a lone operator character never is); otherwise the printer spells the
 *   set itself. So texts from either dialect, or hand-written ones, can never change the language.
 * - `repeat` with min > max denotes the empty language (as brics `{3,2}` does).
 * - printBrics re-parses (parseBrics) to the same language, with minimal parentheses.
 * - printEcmascript gives a pattern for `new RegExp(src, 's')` whose full-match language is the
 *   node's. `and` / `not` have no ECMAScript syntax: their sub-DFA is printed through refa
 *   (`DFA.toRegex` + `JS.toLiteral`), so the output is always a plain regular pattern.
 */
import { JS, type CharSet } from 'refa';
import { ALL_CHARS, toDfa, withNodeBudget } from './automaton.ts';
import { parseBrics } from './brics.ts';
import type { Dialect, RegexNode } from './regex-node.ts';

export type { Dialect, RegexNode };

/** How prompts and messages name each dialect. */
export const DIALECT_NAMES: Record<Dialect, string> = {
  ecmascript: 'ECMAScript (JavaScript RegExp)',
  brics: 'dk.brics automaton',
};

/** refa flags that make JS.toLiteral print exactly for `new RegExp(src, 's')`. */
export const LITERAL_FLAGS = {
  dotAll: true,
  ignoreCase: false,
  multiline: false,
  unicode: false,
  unicodeSets: false,
  global: false,
  sticky: false,
  hasIndices: false,
} as const;

// ---------------------------------------------------------------- brics printer

/** brics precedence levels, loosest to tightest. */
const B = { Union: 0, Inter: 1, Concat: 2, Repeat: 3, Compl: 4, Atom: 5 } as const;
type B = (typeof B)[keyof typeof B];

const BRICS_SPECIAL = '\\|&~()[]{}?*+.#@"<>';

export function printBrics(node: RegexNode): string {
  return bricsRaw(node)[0];
}

function bricsAt(node: RegexNode, min: B): string {
  const [text, level] = bricsRaw(node);
  return level < min ? `(${text})` : text;
}

function bricsRaw(node: RegexNode): [string, B] {
  switch (node.type) {
    case 'chars':
      return [bricsChars(node), B.Atom];
    case 'none':
      return ['#', B.Atom];
    case 'anything':
      return ['@', B.Atom];
    case 'seq': {
      const items = flatSeq(node.items);
      if (items.length === 0) return ['()', B.Atom];
      if (items.length === 1) return bricsRaw(items[0] as RegexNode);
      return [items.map((item) => bricsAt(item, B.Repeat)).join(''), B.Concat];
    }
    case 'alt': {
      const options = flatAlt(node.options);
      if (options.length === 0) return ['#', B.Atom];
      if (options.length === 1) return bricsRaw(options[0] as RegexNode);
      return [options.map((option) => bricsAt(option, B.Inter)).join('|'), B.Union];
    }
    case 'and':
      return [`${bricsAt(node.left, B.Concat)}&${bricsAt(node.right, B.Inter)}`, B.Inter];
    case 'not':
      return [`~${bricsAt(node.node, B.Compl)}`, B.Compl];
    case 'repeat':
      if (node.min > node.max) return ['#', B.Atom];
      return [bricsAt(node.node, B.Repeat) + quantifier(node.min, node.max), B.Repeat];
  }
}

function bricsChars(node: { set: CharSet; text: string }): string {
  if (textMatches('brics', node.text, node.set)) return node.text;
  const { set } = node;
  if (set.isEmpty) return '#';
  if (set.isAll) return '.';
  const only = set.ranges.length === 1 ? (set.ranges[0] as { min: number; max: number }) : null;
  if (only && only.min === only.max) {
    const ch = String.fromCharCode(only.min);
    return BRICS_SPECIAL.includes(ch) ? `\\${ch}` : ch;
  }
  const body = classBody(set, (c) => ('\\]-^['.includes(c) ? `\\${c}` : c));
  const negated = classBody(set.negate(), (c) => ('\\]-^['.includes(c) ? `\\${c}` : c));
  return negated.length < body.length ? `[^${negated}]` : `[${body}]`;
}

function classBody(set: CharSet, escape: (ch: string) => string): string {
  return set.ranges
    .map(({ min, max }) => {
      const lo = escape(String.fromCharCode(min));
      if (min === max) return lo;
      const hi = escape(String.fromCharCode(max));
      return max === min + 1 ? lo + hi : `${lo}-${hi}`;
    })
    .join('');
}

// ---------------------------------------------------------------- ECMAScript printer

/** ECMAScript precedence levels, loosest to tightest. */
const E = { Alt: 0, Seq: 1, Repeat: 2, Atom: 3 } as const;
type E = (typeof E)[keyof typeof E];

export function printEcmascript(node: RegexNode): string {
  return esRaw(node)[0];
}

function esAt(node: RegexNode, min: E): string {
  const [text, level] = esRaw(node);
  return level < min ? `(?:${text})` : text;
}

function esRaw(node: RegexNode): [string, E] {
  switch (node.type) {
    case 'chars':
      return [esChars(node), E.Atom];
    case 'none':
      return ['[]', E.Atom];
    case 'anything':
      return ['.*', E.Repeat];
    case 'seq': {
      const items = flatSeq(node.items);
      if (items.length === 1) return esRaw(items[0] as RegexNode);
      return [items.map((item) => esAt(item, E.Repeat)).join(''), E.Seq];
    }
    case 'alt': {
      const options = flatAlt(node.options);
      if (options.length === 0) return ['[]', E.Atom];
      if (options.length === 1) return esRaw(options[0] as RegexNode);
      return [options.map((option) => esAt(option, E.Seq)).join('|'), E.Alt];
    }
    case 'repeat':
      if (node.min > node.max) return ['[]', E.Atom];
      return [esAt(node.node, E.Atom) + quantifier(node.min, node.max), E.Repeat];
    case 'and':
    case 'not':
      return esFromDfa(node);
  }
}

function esFromDfa(node: RegexNode): [string, E] {
  const dfa = toDfa(node);
  if (dfa.isEmpty) return ['[]', E.Atom];
  const literal = withNodeBudget(() => JS.toLiteral(dfa.toRegex(), { flags: LITERAL_FLAGS }));
  if (literal.flags.replace('s', '') !== '')
    throw new Error(`refa printed flags ${literal.flags} for ${literal.source}`);
  return [literal.source, E.Alt];
}

function esChars(node: { set: CharSet; text: string }): string {
  if (textMatches('ecmascript', node.text, node.set)) return node.text;
  if (node.set.isAll) return '.';
  const source = JS.toLiteral(
    {
      type: 'Expression',
      alternatives: [{ type: 'Concatenation', elements: [{ type: 'CharacterClass', characters: node.set }] }],
    },
    { flags: LITERAL_FLAGS },
  ).source;
  // `\0` followed by a digit would read as an octal escape.
  return source.replace(/\\0(?![0-9])/g, '\\x00');
}

// ---------------------------------------------------------------- shared

function quantifier(min: number, max: number): string {
  if (min === 0 && max === Infinity) return '*';
  if (min === 1 && max === Infinity) return '+';
  if (min === 0 && max === 1) return '?';
  if (min === max) return `{${min}}`;
  if (max === Infinity) return `{${min},}`;
  return `{${min},${max}}`;
}

/** Concatenation is associative: nested sequences print inline, empty ones vanish. */
function flatSeq(items: RegexNode[]): RegexNode[] {
  return items.flatMap((item) => (item.type === 'seq' ? flatSeq(item.items) : [item]));
}

function flatAlt(options: RegexNode[]): RegexNode[] {
  return options.flatMap((option) =>
    option.type === 'alt' && option.options.length > 0 ? flatAlt(option.options) : [option],
  );
}

const OPERATOR_CHARS: Record<Dialect, string> = { brics: BRICS_SPECIAL, ecmascript: '^$\\*+?()[]{}|/' };
const textCache: Record<Dialect, Map<string, CharSet | null>> = { brics: new Map(), ecmascript: new Map() };

/** Does `text` spell exactly `set` as one self-contained atom of the dialect? */
function textMatches(dialect: Dialect, text: string, set: CharSet): boolean {
  let parsed = textCache[dialect].get(text);
  if (parsed === undefined) {
    parsed = parseAtom(dialect, text);
    if (textCache[dialect].size > 10_000) textCache[dialect].clear();
    textCache[dialect].set(text, parsed);
  }
  return parsed !== null && parsed.equals(set);
}

function parseAtom(dialect: Dialect, text: string): CharSet | null {
  if (text.length === 0 || (text.length === 1 && OPERATOR_CHARS[dialect].includes(text))) return null;
  if (/\\[0-9]/.test(text) && dialect === 'ecmascript') return null;
  try {
    if (dialect === 'brics') {
      const node = parseBrics(text);
      return node.type === 'chars' ? node.set : null;
    }
    const { expression } = JS.Parser.fromLiteral({ source: text, flags: 's' }).parse({ simplify: false });
    const only = expression.alternatives.length === 1 ? expression.alternatives[0]?.elements : undefined;
    const element = only && only.length === 1 ? only[0] : undefined;
    if (element?.type !== 'CharacterClass') return null;
    return element.characters.isAll ? ALL_CHARS : element.characters;
  } catch {
    return null;
  }
}
