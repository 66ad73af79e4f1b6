/**
 * ECMAScript regexes into the dialect-neutral AST, through refa's parser.
 *
 * Conventions:
 * - Full-match semantics: the language of `P` is that of `^(?:P)$` with non-multiline anchors,
 *   so leading `^` / trailing `$` are redundant and accepted.
 * - Alphabet: UTF-16 code units 0–0xFFFF. Patterns are compiled as if the `s` flag were set, so `.`
 *   matches every character including line terminators (as brics `.` does).
 * - Flags: `i`, `m`, `s` are honoured (`i` is folded into the character sets); `g`, `y`, `d` are
 *   ignored (they do not change the language); `u` / `v` are rejected with RegexUnsupportedError
 *   (they switch the alphabet to code points, which our 0xFFFF alphabet cannot compare).
 * - Syntax errors carry V8's own message (`new RegExp(source, flags)`).
 * - A pattern is non-regular (node null, with a reason) when refa cannot express it as an
 *   automaton: lookarounds or word boundaries that refa's assertion transformers cannot remove,
 *   backreferences that cannot be expanded to finitely many words, or a pattern refa rejects.
 *   Such patterns still run on V8 (matcher.ts). The 20,000-node DFA limit is checked by compile.ts.
 */
import {
  JS,
  TooManyNodesError,
  Transformers,
  transform,
  type Concatenation,
  type Element,
  type Expression,
  type NoParent,
  type Node,
} from 'refa';
import { LITERAL_FLAGS, type RegexNode } from './ast.ts';
import { ALL_CHARS } from './automaton.ts';
import { isStackOverflow, RegexSyntaxError, RegexTooComplexError, RegexUnsupportedError } from './errors.ts';

/**
 * refa's AST node limit (its default). Past it the pattern goes to V8 without an automaton: an
 * alternation of 2,000 words is about the limit, and determinising larger ones takes many seconds.
 */
const MAX_AST_NODES = 10_000;

export interface ParsedEcmascript {
  node: RegexNode | null;
  nonRegular?: string;
  /** The flags that shape the language, normalised: a subset of `ims`, always with `s`. */
  flags: string;
}

/** Normalised effective flags (`s` always, `g`/`y`/`d` dropped), after validating the flags. */
function effectiveFlags(flags: string): string {
  for (const flag of ['u', 'v']) {
    if (flags.includes(flag)) {
      throw new RegexUnsupportedError(
        `the '${flag}' flag is not supported: it matches by Unicode code point, while this harness compares languages over UTF-16 code units`,
        'ecmascript',
      );
    }
  }
  return ['i', 'm', 's'].filter((flag) => flag === 's' || flags.includes(flag)).join('');
}

// V8 refusals that are limits of the engine, not syntax errors.
const V8_LIMITS = /Regular expression too large|Too many captures|Maximum call stack size exceeded/i;

/**
 * Throws RegexSyntaxError with V8's message when `new RegExp(source, flags)` does, or
 * RegexTooComplexError when V8 refuses the pattern for its size (too many captures, too large).
 */
function checkEcmascriptSyntax(source: string, flags: string): void {
  try {
    new RegExp(source, flags);
  } catch (error) {
    const message = (error as Error).message;
    if (V8_LIMITS.test(message)) throw new RegexTooComplexError(`V8 cannot run this regex: ${message}`, 0);
    throw new RegexSyntaxError(message, 'ecmascript');
  }
}

export function parseEcmascript(source: string, flags = ''): ParsedEcmascript {
  checkEcmascriptSyntax(source, flags);
  const effective = effectiveFlags(flags);
  let expression: NoParent<Expression>;
  try {
    expression = JS.Parser.fromLiteral({ source, flags: effective }).parse({
      assertions: 'parse',
      simplify: false,
      maxNodes: MAX_AST_NODES,
    }).expression;
  } catch (error) {
    return { node: null, flags: effective, nonRegular: refaFailure(error) };
  }
  try {
    if (hasIrregular(expression)) {
      const original = expression;
      expression = resolveAssertions(expression);
      if (hasIrregular(expression)) return { node: null, flags: effective, nonRegular: describeIrregular(original) };
    }
    return { node: alternativesToNode(expression.alternatives), flags: effective };
  } catch (error) {
    // V8 took it (checked above); only our recursion over the tree gave up.
    if (isStackOverflow(error))
      return { node: null, flags: effective, nonRegular: 'the regex is nested too deeply for the automaton engine' };
    throw error;
  }
}

function refaFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof TooManyNodesError) return 'the pattern is too large for the automaton engine';
  if (/backreference/i.test(message))
    return `backreference that cannot be expanded to finitely many words (${message})`;
  return `the automaton engine cannot handle this pattern (${message})`;
}

/** Wraps the expression in hard start/end anchors and lets refa remove every assertion it can. */
function resolveAssertions(expression: NoParent<Expression>): NoParent<Expression> {
  const hard = { multiline: false };
  const wrapped: NoParent<Expression> = {
    type: 'Expression',
    alternatives: [
      {
        type: 'Concatenation',
        elements: [
          JS.createAssertion({ kind: 'start' }, hard),
          { type: 'Alternation', alternatives: expression.alternatives },
          JS.createAssertion({ kind: 'end' }, hard),
        ],
      },
    ],
  };
  const options = { ignoreAmbiguity: true, ignoreOrder: true };
  const simplified = transform(Transformers.simplify(options), wrapped);
  return transform(Transformers.patternEdgeAssertions({ ...options, remove: true }), simplified);
}

function hasIrregular(node: NoParent<Node>): boolean {
  switch (node.type) {
    case 'Assertion':
    case 'Unknown':
      return true;
    case 'CharacterClass':
      return false;
    case 'Concatenation':
      return node.elements.some(hasIrregular);
    default:
      return node.alternatives.some(hasIrregular);
  }
}

function describeIrregular(expression: NoParent<Expression>): string {
  const kinds = new Set<string>();
  const visit = (node: NoParent<Node>): void => {
    if (node.type === 'Unknown') kinds.add('a backreference');
    if (node.type === 'Assertion')
      kinds.add(node.kind === 'ahead' ? 'a lookahead or word boundary' : 'a lookbehind or word boundary');
    if (node.type === 'Concatenation') node.elements.forEach(visit);
    else if (node.type !== 'CharacterClass' && node.type !== 'Unknown') node.alternatives.forEach(visit);
  };
  visit(expression);
  return `not regular for the automaton engine: ${[...kinds].join(' and ') || 'an assertion'} that cannot be rewritten away`;
}

function alternativesToNode(alternatives: readonly NoParent<Concatenation>[]): RegexNode {
  if (alternatives.length === 1) return concatenationToNode(alternatives[0] as NoParent<Concatenation>);
  return { type: 'alt', options: alternatives.map(concatenationToNode) };
}

function concatenationToNode(concatenation: NoParent<Concatenation>): RegexNode {
  if (concatenation.elements.length === 1) return elementToNode(concatenation.elements[0] as NoParent<Element>);
  return { type: 'seq', items: concatenation.elements.map(elementToNode) };
}

function elementToNode(element: NoParent<Element>): RegexNode {
  switch (element.type) {
    case 'CharacterClass': {
      const set = element.characters.isAll ? ALL_CHARS : element.characters;
      return { type: 'chars', set, text: charSetText(element) };
    }
    case 'Alternation':
      return alternativesToNode(element.alternatives);
    case 'Quantifier':
      return { type: 'repeat', node: alternativesToNode(element.alternatives), min: element.min, max: element.max };
    default:
      throw new Error(`unexpected ${element.type} after assertion removal`);
  }
}

function charSetText(element: NoParent<Element> & { type: 'CharacterClass' }): string {
  return JS.toLiteral(
    { type: 'Expression', alternatives: [{ type: 'Concatenation', elements: [element] }] },
    { flags: LITERAL_FLAGS },
  ).source;
}
