/**
 * A small Python tokenizer for source-level mutations: it knows enough of the lexical grammar
 * (string prefixes, triple quotes, comments, numbers, names, operators, brackets, line joins) to
 * tell code from text, and which physical lines start a logical line.
 */

export type TokenType = 'string' | 'comment' | 'number' | 'name' | 'op' | 'newline' | 'space';

export interface Token {
  type: TokenType;
  text: string;
  start: number;
  end: number;
  /** Bracket nesting depth before this token. */
  depth: number;
}

const OPERATORS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '->',
  ':=',
  '**',
  '//',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '@=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '@',
  '<',
  '>',
  '&',
  '|',
  '^',
  '~',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '.',
  ';',
  '=',
  '\\',
];

const STRING_START = /^(?:[rRuUbBfF]{0,2})('''|"""|'|")/;
const NUMBER =
  /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?[jJ]?)/;
const NAME = /^[A-Za-z_\u00c0-\uffff][A-Za-z0-9_\u00c0-\uffff]*/;

function stringEnd(source: string, from: number, quote: string): number {
  let i = from;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (source.startsWith(quote, i)) return i + quote.length;
    if (quote.length === 1 && c === '\n') return i; // unterminated single-quoted string: stop at the line end
    i++;
  }
  return source.length;
}

/** Tokens of a Python program, in order; never throws (unknown characters become operators). */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let depth = 0;
  const push = (type: TokenType, end: number) => {
    tokens.push({ type, text: source.slice(i, end), start: i, end, depth });
    i = end;
  };
  while (i < source.length) {
    const rest = source.slice(i, i + 4);
    const c = source[i] as string;
    if (c === '\n') push('newline', i + 1);
    else if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      let j = i;
      while (j < source.length && ' \t\r\f'.includes(source[j] as string)) j++;
      push('space', j);
    } else if (c === '#') {
      const j = source.indexOf('\n', i);
      push('comment', j < 0 ? source.length : j);
    } else if (STRING_START.test(source.slice(i, i + 5))) {
      const m = STRING_START.exec(source.slice(i, i + 5)) as RegExpExecArray;
      const quote = m[1] as string;
      push('string', stringEnd(source, i + m[0].length, quote));
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      const m = NUMBER.exec(source.slice(i)) as RegExpExecArray;
      push('number', i + Math.max(1, m[0].length));
    } else if (NAME.test(source.slice(i, i + 2))) {
      const m = NAME.exec(source.slice(i)) as RegExpExecArray;
      push('name', i + m[0].length);
    } else {
      const op = OPERATORS.find((o) => rest.startsWith(o)) ?? c;
      if (op === '(' || op === '[' || op === '{') {
        push('op', i + op.length);
        depth++;
      } else if (op === ')' || op === ']' || op === '}') {
        depth = Math.max(0, depth - 1);
        push('op', i + op.length);
      } else push('op', i + op.length);
    }
  }
  return tokens;
}

/** Offsets where each physical line starts. */
export function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') starts.push(i + 1);
  return starts;
}

/**
 * For each physical line, whether it begins a logical line (not inside a string, brackets or a
 * backslash continuation) and is not blank or a comment.
 */
export function logicalLineStarts(source: string, tokens: readonly Token[] = tokenize(source)): boolean[] {
  const starts = lineStarts(source);
  const result = new Array<boolean>(starts.length).fill(false);
  let t = 0;
  let continued = false;
  for (let line = 0; line < starts.length; line++) {
    const at = starts[line] as number;
    while (t < tokens.length && (tokens[t] as Token).end <= at) t++;
    const token = tokens[t];
    const insideToken = token !== undefined && token.start < at;
    const lineEnd = line + 1 < starts.length ? (starts[line + 1] as number) - 1 : source.length;
    const text = source.slice(at, lineEnd);
    const blank = /^\s*(#.*)?$/.test(text);
    const inBrackets = token !== undefined && !insideToken && token.depth > 0;
    result[line] = !insideToken && !inBrackets && !continued && !blank;
    // A line ending in a backslash (outside strings) continues onto the next.
    continued = !insideToken && /\\\s*$/.test(text) ? true : insideToken ? continued : false;
  }
  return result;
}

export function indentOf(line: string): number {
  const m = /^[ \t]*/.exec(line) as RegExpExecArray;
  return m[0].replace(/\t/g, '        ').length;
}
