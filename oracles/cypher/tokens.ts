/**
 * A small Cypher tokenizer for the mutation operators and for finding the labels, relationship
 * types, property keys and literals a query mentions. It keeps every character (joining the tokens
 * gives the query back) and never looks inside strings, quoted names or comments.
 */

export type TokenKind = 'space' | 'comment' | 'string' | 'name' | 'number' | 'word' | 'param' | 'punct';

export interface Token {
  kind: TokenKind;
  text: string;
}

const MULTI = ['->', '<=', '>=', '<>', '=~', '..', '+='];

function quoted(source: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < source.length) {
    const c = source[i];
    if (quote !== '`' && c === '\\') i += 2;
    else if (c === quote) {
      if (quote === '`' && source[i + 1] === '`') i += 2;
      else return i + 1;
    } else i++;
  }
  return source.length;
}

/** The tokens of a query; `tokens.map(t => t.text).join('')` is the query. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const push = (kind: TokenKind, end: number) => {
    tokens.push({ kind, text: source.slice(i, end) });
    i = end;
  };
  while (i < source.length) {
    const c = source[i] as string;
    const rest = source.slice(i);
    if (/\s/.test(c)) push('space', i + (/^\s+/.exec(rest) as RegExpExecArray)[0].length);
    else if (rest.startsWith('//')) push('comment', rest.includes('\n') ? i + rest.indexOf('\n') : source.length);
    else if (rest.startsWith('/*'))
      push('comment', rest.includes('*/', 2) ? i + rest.indexOf('*/', 2) + 2 : source.length);
    else if (c === "'" || c === '"') push('string', quoted(source, i, c));
    else if (c === '`') push('name', quoted(source, i, '`'));
    else if (c === '$') {
      const m = /^\$(`[^`]*`|\w+)/.exec(rest);
      push('param', i + (m ? m[0].length : 1));
    } else if (/\d/.test(c))
      push('number', i + (/^\d+(\.\d+)?([eE][+-]?\d+)?/.exec(rest) as RegExpExecArray)[0].length);
    else if (/[A-Za-z_]/.test(c)) push('word', i + (/^\w+/.exec(rest) as RegExpExecArray)[0].length);
    else if (rest.startsWith('<-') && (rest[2] === '[' || rest[2] === '-')) push('punct', i + 2);
    else push('punct', i + (MULTI.find((m) => rest.startsWith(m))?.length ?? 1));
  }
  return tokens;
}

/** The query text of a token list. */
export function untokenize(tokens: readonly Token[]): string {
  return tokens.map((t) => t.text).join('');
}

/** Is this token the keyword (case-insensitive)? */
export function isKeyword(token: Token | undefined, ...keywords: string[]): boolean {
  return token?.kind === 'word' && keywords.includes(token.text.toUpperCase());
}

/** Indices of the tokens that carry meaning (not spaces or comments). */
function significant(tokens: readonly Token[]): number[] {
  return tokens.flatMap((t, i) => (t.kind === 'space' || t.kind === 'comment' ? [] : [i]));
}

/** A name token's plain text (backticks removed). */
function nameText(token: Token): string {
  return token.kind === 'name' ? token.text.slice(1, -1).replace(/``/g, '`') : token.text;
}

export interface Mentions {
  labels: Set<string>;
  types: Set<string>;
  properties: Set<string>;
  strings: Set<string>;
  numbers: Set<number>;
  /** ISO dates written as date('YYYY-MM-DD'). */
  dates: Set<string>;
}

/** Labels, relationship types, property keys and literals a query mentions (best effort, for probes). */
export function mentions(query: string): Mentions {
  const tokens = tokenize(query);
  const sig = significant(tokens).map((i) => tokens[i] as Token);
  const out: Mentions = {
    labels: new Set(),
    types: new Set(),
    properties: new Set(),
    strings: new Set(),
    numbers: new Set(),
    dates: new Set(),
  };
  let bracket = 0;
  let paren = 0;
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k] as Token;
    const next = sig[k + 1];
    if (t.text === '[') bracket++;
    else if (t.text === ']') bracket--;
    else if (t.text === '(') paren++;
    else if (t.text === ')') paren--;
    else if ((t.text === ':' || t.text === '|') && next && (next.kind === 'word' || next.kind === 'name')) {
      (bracket > 0 ? out.types : paren > 0 ? out.labels : out.labels).add(nameText(next));
    } else if (t.text === '.' && next && (next.kind === 'word' || next.kind === 'name'))
      out.properties.add(nameText(next));
    else if (
      (t.text === '{' || t.text === ',') &&
      next &&
      (next.kind === 'word' || next.kind === 'name') &&
      sig[k + 2]?.text === ':'
    )
      out.properties.add(nameText(next));
    else if (t.kind === 'string') {
      const value = t.text.slice(1, -1);
      if (/^\d{4}-\d{2}-\d{2}$/.test(value) && /^date$/i.test(sig[k - 2]?.text ?? '')) out.dates.add(value);
      else out.strings.add(value.replace(/\\(.)/g, '$1'));
    } else if (t.kind === 'number') out.numbers.add(Number(t.text));
  }
  return out;
}
