/**
 * Program tokenizers for structural stability. A-CEGIS measures edit distance over regex *token*
 * sequences without naming a tokenizer; this module fixes a closed set of named ones so the metric
 * is reproducible. Each oracle names its tokenizer (`Oracle.tokenizer`, default 'code'); the episode
 * records the name in the trajectory's oracle info, where the reporter reads it.
 */

/** The tokenizers an oracle may name. */
export const TOKENIZER_NAMES = ['regex', 'code'] as const;
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];

/** The tokenizer of an oracle that names none. */
export const DEFAULT_TOKENIZER: TokenizerName = 'code';

/**
 * Splits a candidate program into tokens.
 *
 * - `regex`: each backslash escape (`\d`, `\.`, `\x41`, `\u0041`, `\u{1F600}`, `\p{L}`,
 *   `\k<name>`, `\cA`, `\12`) is one token; each character class `[...]` is one token (escapes
 *   inside are respected; a `]` right after `[` or `[^` is a literal member, as in Python; an
 *   unterminated `[` is a token of its own); each `{n}`, `{n,}`, `{n,m}` (and Python's `{,m}`)
 *   quantifier is one token; every other character (code point) is one token.
 * - `code`: a generic code tokenizer — identifiers/keywords, numbers, string literals
 *   (single, double, backtick and triple quotes, with backslash escapes; an unterminated literal
 *   runs to the end of the source), each other non-whitespace character is a token of its own;
 *   whitespace is skipped. Comments are not special: they tokenize like code.
 */
export function tokenizeProgram(tokenizer: TokenizerName, source: string): string[] {
  return tokenizer === 'regex' ? tokenizeRegex(source) : tokenizeCode(source);
}

/**
 * The tokenizer a trajectory's programs are measured with: the one recorded in its oracle info.
 * Trajectories written before oracles named their tokenizer carry none; for them the regex oracle
 * used the regex tokenizer and every other oracle the code one, so they read as they always did.
 */
export function recordedTokenizer(oracle: { name: string; tokenizer?: TokenizerName }): TokenizerName {
  return oracle.tokenizer ?? (oracle.name === 'regex' ? 'regex' : DEFAULT_TOKENIZER);
}

/** Whether a serialized value names one of the tokenizers. */
export function isTokenizerName(value: unknown): value is TokenizerName {
  return (TOKENIZER_NAMES as readonly unknown[]).includes(value);
}

/** Length in UTF-16 units of the code point at `i` (1 or 2). */
function charLength(source: string, i: number): number {
  const code = source.codePointAt(i);
  return code !== undefined && code > 0xffff ? 2 : 1;
}

const HEX = /^[0-9a-fA-F]$/;

/** End index (exclusive) of the backslash escape starting at `i` (source[i] === '\\'). */
function escapeEnd(source: string, i: number): number {
  const next = source[i + 1];
  if (next === undefined) return i + 1;
  const run = (from: number, max: number, test: (c: string) => boolean): number => {
    let j = from;
    while (j < source.length && j - from < max && test(source[j] as string)) j++;
    return j;
  };
  const braced = (from: number, close: string): number => {
    const end = source.indexOf(close, from);
    return end === -1 ? from : end + 1;
  };
  switch (next) {
    case 'x':
      return run(i + 2, 2, (c) => HEX.test(c));
    case 'u':
      return source[i + 2] === '{' ? braced(i + 2, '}') : run(i + 2, 4, (c) => HEX.test(c));
    case 'p':
    case 'P':
      return source[i + 2] === '{' ? braced(i + 2, '}') : i + 2;
    case 'k':
      return source[i + 2] === '<' ? braced(i + 2, '>') : i + 2;
    case 'c':
      return /^[A-Za-z]$/.test(source[i + 2] ?? '') ? i + 3 : i + 2;
    default:
      if (/^[0-9]$/.test(next)) return run(i + 1, Infinity, (c) => /^[0-9]$/.test(c));
      return i + 1 + charLength(source, i + 1);
  }
}

/** End index (exclusive) of the class starting at `i` (source[i] === '['), or -1 if unterminated. */
function classEnd(source: string, i: number): number {
  let j = i + 1;
  if (source[j] === '^') j++;
  if (source[j] === ']') j++;
  while (j < source.length) {
    const c = source[j];
    if (c === '\\') j = escapeEnd(source, j);
    else if (c === ']') return j + 1;
    else j += charLength(source, j);
  }
  return -1;
}

const QUANTIFIER = /\{(?:\d+(?:,\d*)?|,\d+)\}/y;

function tokenizeRegex(source: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    let end = i + charLength(source, i);
    if (c === '\\') end = escapeEnd(source, i);
    else if (c === '[') end = Math.max(classEnd(source, i), end);
    else if (c === '{') {
      QUANTIFIER.lastIndex = i;
      if (QUANTIFIER.test(source)) end = QUANTIFIER.lastIndex;
    }
    tokens.push(source.slice(i, end));
    i = end;
  }
  return tokens;
}

const WHITESPACE = /\s/u;
const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*/uy;
const NUMBER =
  /(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?)[a-zA-Z]*/y;

/** End index (exclusive) of the string literal starting at `i`. */
function stringEnd(source: string, i: number): number {
  const quote = source[i] as string;
  const triple = source.startsWith(quote.repeat(3), i) && quote !== '`';
  const close = triple ? quote.repeat(3) : quote;
  let j = i + close.length;
  while (j < source.length) {
    if (source[j] === '\\') j += 2;
    else if (source.startsWith(close, j)) return j + close.length;
    else j++;
  }
  return source.length;
}

/** End of a sticky-regex match at `i`, or null when it does not match there. */
function stickyEnd(pattern: RegExp, source: string, i: number): number | null {
  pattern.lastIndex = i;
  return pattern.test(source) ? pattern.lastIndex : null;
}

function tokenizeCode(source: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    const width = charLength(source, i);
    if (WHITESPACE.test(source.slice(i, i + width))) {
      i += width;
      continue;
    }
    let end = i + width;
    if (c === '"' || c === "'" || c === '`') end = stringEnd(source, i);
    else {
      end = stickyEnd(IDENTIFIER, source, i) ?? stickyEnd(NUMBER, source, i) ?? end;
    }
    tokens.push(source.slice(i, end));
    i = end;
  }
  return tokens;
}
