/**
 * Parser for the dk.brics.automaton regex syntax (the NL-RX-Turk target DSL), mirroring
 * `dk.brics.automaton.RegExp` with all syntax flags on. Grammar, loosest to tightest:
 *
 *   union  ::= inter ('|' union)?            `|`
 *   inter  ::= concat ('&' inter)?           `&` intersection, looser than concatenation
 *   concat ::= repeat concat?                (stops before `)` `|` `&`)
 *   repeat ::= compl ('?' | '*' | '+' | '{n}' | '{n,}' | '{n,m}')*
 *   compl  ::= '~' compl | class             `~` complement: binds tightest, applies to the next
 *                                            atom only (`~a*` = `(~a)*`; only `~(…)` complements a group)
 *   class  ::= '[' '^'? ranges ']' | simple
 *   simple ::= '.' | '#' | '@' | '"' chars '"' | '(' ')' | '(' union ')' | '<' n '-' m '>' | charexp
 *   charexp::= '\' c | c                     (`\c` is the literal c for every c: `\b` is the letter b)
 *
 * Conventions: full-match; `.` is any UTF-16 code unit (0–0xFFFF); `#` the empty language; `@` any
 * string; `()` the empty string; `~` complements relative to [0, 0xFFFF]*; `[^…]` is any single
 * character not in the class; `{n,m}` with n > m denotes the empty language (as in brics).
 * As in brics, a character that cannot start an operator is a literal wherever an atom is
 * expected (`*a` is the string "*a"). `<n-m>` numeric intervals follow brics: when n and m have
 * the same number of digits, exactly that many digits (zero-padded); otherwise any number of
 * leading zeros. `<identifier>` (named automata) is unsupported.
 */
import type { RegexNode } from './regex-node.ts';
import { ALL_CHARS, charSetOf, charSetOfChar } from './automaton.ts';
import { RegexSyntaxError, RegexUnsupportedError } from './errors.ts';

export function parseBrics(source: string): RegexNode {
  if (source.length === 0) return { type: 'seq', items: [] };
  const parser = new BricsParser(source);
  const node = parser.union();
  if (parser.pos < source.length) parser.fail(`end-of-string expected at position ${parser.pos}`);
  return node;
}

class BricsParser {
  pos = 0;
  constructor(readonly src: string) {}

  fail(message: string, position = this.pos): never {
    throw new RegexSyntaxError(message, 'brics', position);
  }

  private more(): boolean {
    return this.pos < this.src.length;
  }

  private peek(chars: string): boolean {
    return this.more() && chars.includes(this.src[this.pos] as string);
  }

  private match(char: string): boolean {
    if (this.more() && this.src[this.pos] === char) {
      this.pos++;
      return true;
    }
    return false;
  }

  private next(): string {
    if (!this.more()) this.fail(`unexpected end-of-string at position ${this.pos}`);
    return this.src[this.pos++] as string;
  }

  union(): RegexNode {
    const first = this.inter();
    if (!this.match('|')) return first;
    const rest = this.union();
    return { type: 'alt', options: rest.type === 'alt' ? [first, ...rest.options] : [first, rest] };
  }

  private inter(): RegexNode {
    const left = this.concat();
    if (!this.match('&')) return left;
    return { type: 'and', left, right: this.inter() };
  }

  private concat(): RegexNode {
    const items: RegexNode[] = [this.repeat()];
    while (this.more() && !this.peek(')|&')) items.push(this.repeat());
    return items.length === 1 ? (items[0] as RegexNode) : { type: 'seq', items };
  }

  private repeat(): RegexNode {
    let node = this.complement();
    while (this.peek('?*+{')) {
      if (this.match('?')) node = { type: 'repeat', node, min: 0, max: 1 };
      else if (this.match('*')) node = { type: 'repeat', node, min: 0, max: Infinity };
      else if (this.match('+')) node = { type: 'repeat', node, min: 1, max: Infinity };
      else {
        this.match('{');
        const min = this.integer();
        let max = min;
        if (this.match(',')) max = this.peek('0123456789') ? this.integer() : Infinity;
        if (!this.match('}')) this.fail(`expected '}' at position ${this.pos}`);
        node = min > max ? { type: 'none' } : { type: 'repeat', node, min, max };
      }
    }
    return node;
  }

  private integer(): number {
    const start = this.pos;
    while (this.peek('0123456789')) this.pos++;
    if (start === this.pos) this.fail(`integer expected at position ${this.pos}`);
    const value = Number(this.src.slice(start, this.pos));
    if (!Number.isSafeInteger(value) || value > 2_147_483_647)
      this.fail(`integer too large at position ${start}`, start);
    return value;
  }

  private complement(): RegexNode {
    if (this.match('~')) return { type: 'not', node: this.complement() };
    return this.charClass();
  }

  private charClass(): RegexNode {
    const start = this.pos;
    if (!this.match('[')) return this.simple();
    const negate = this.match('^');
    let set = this.classItem();
    while (this.more() && !this.peek(']')) set = set.union(this.classItem());
    if (!this.match(']')) this.fail(`expected ']' at position ${this.pos}`);
    if (negate) set = set.negate();
    return { type: 'chars', set, text: this.src.slice(start, this.pos) };
  }

  private classItem() {
    const start = this.pos;
    const from = this.charExp();
    if (!this.match('-')) return charSetOfChar(from);
    if (this.peek(']')) return charSetOf([from, from], [45, 45]);
    const to = this.charExp();
    if (from > to)
      this.fail(
        `invalid range at position ${start}: from (${String.fromCharCode(from)}) cannot be > to (${String.fromCharCode(to)})`,
        start,
      );
    return charSetOf([from, to]);
  }

  private charExp(): number {
    this.match('\\');
    return this.next().charCodeAt(0);
  }

  private simple(): RegexNode {
    const start = this.pos;
    if (this.match('.')) return { type: 'chars', set: ALL_CHARS, text: '.' };
    if (this.match('#')) return { type: 'none' };
    if (this.match('@')) return { type: 'anything' };
    if (this.match('"')) {
      while (this.more() && !this.peek('"')) this.pos++;
      if (!this.match('"')) this.fail(`expected '"' at position ${this.pos}`);
      return literalString(this.src.slice(start + 1, this.pos - 1));
    }
    if (this.match('(')) {
      if (this.match(')')) return { type: 'seq', items: [] };
      const inner = this.union();
      if (!this.match(')')) this.fail(`expected ')' at position ${this.pos}`);
      return inner;
    }
    if (this.match('<')) {
      while (this.more() && !this.peek('>')) this.pos++;
      if (!this.match('>')) this.fail(`expected '>' at position ${this.pos}`);
      return this.interval(this.src.slice(start + 1, this.pos - 1), start);
    }
    const code = this.charExp();
    return { type: 'chars', set: charSetOfChar(code), text: this.src.slice(start, this.pos) };
  }

  private interval(body: string, start: number): RegexNode {
    const dash = body.indexOf('-');
    if (dash === -1) {
      throw new RegexUnsupportedError(`unsupported: named automaton <${body}> at position ${start}`, 'brics', start);
    }
    const smin = body.slice(0, dash);
    const smax = body.slice(dash + 1);
    if (!/^\d{1,9}$/.test(smin) || !/^\d{1,9}$/.test(smax)) {
      this.fail(`interval syntax error at position ${this.pos - 1}`, this.pos - 1);
    }
    let min = Number(smin);
    let max = Number(smax);
    if (min > max) [min, max] = [max, min];
    if (smin.length === smax.length)
      return fixedWidthRange(String(min).padStart(smin.length, '0'), String(max).padStart(smin.length, '0'));
    const zeros: RegexNode = { type: 'repeat', node: digitNode('0'), min: 0, max: Infinity };
    const options: RegexNode[] = [];
    for (let width = String(min).length; width <= String(max).length; width++) {
      const lo = Math.max(min, width === 1 ? 0 : 10 ** (width - 1));
      const hi = Math.min(max, 10 ** width - 1);
      if (lo <= hi) options.push(fixedWidthRange(String(lo), String(hi)));
    }
    return { type: 'seq', items: [zeros, options.length === 1 ? (options[0] as RegexNode) : { type: 'alt', options }] };
  }
}

function literalString(text: string): RegexNode {
  const items: RegexNode[] = [];
  for (let i = 0; i < text.length; i++) {
    items.push({ type: 'chars', set: charSetOfChar(text.charCodeAt(i)), text: text[i] as string });
  }
  return items.length === 1 ? (items[0] as RegexNode) : { type: 'seq', items };
}

function digitNode(digit: string): RegexNode {
  return { type: 'chars', set: charSetOfChar(digit), text: digit };
}

function digitRange(from: string, to: string): RegexNode {
  if (from === to) return digitNode(from);
  return {
    type: 'chars',
    set: charSetOf([from.charCodeAt(0), to.charCodeAt(0)]),
    text: from === '0' && to === '9' ? '[0-9]' : `[${from}-${to}]`,
  };
}

/** Digit strings of exactly `lo.length` digits with lo ≤ value ≤ hi (both zero-padded, same width). */
function fixedWidthRange(lo: string, hi: string): RegexNode {
  if (lo.length === 1) return digitRange(lo, hi);
  const lh = lo[0] as string;
  const hh = hi[0] as string;
  const lt = lo.slice(1);
  const ht = hi.slice(1);
  const seq = (head: RegexNode, tail: RegexNode): RegexNode => ({ type: 'seq', items: [head, tail] });
  if (lh === hh) return seq(digitNode(lh), fixedWidthRange(lt, ht));
  const nines = '9'.repeat(lt.length);
  const zeros = '0'.repeat(lt.length);
  const options: RegexNode[] = [];
  let first = lh.charCodeAt(0);
  let last = hh.charCodeAt(0);
  if (lt !== zeros) options.push(seq(digitNode(lh), fixedWidthRange(lt, nines)));
  if (lt !== zeros) first++;
  const highOption = ht !== nines ? seq(digitNode(hh), fixedWidthRange(zeros, ht)) : null;
  if (highOption) last--;
  if (first <= last) {
    const anyDigits: RegexNode = { type: 'repeat', node: digitRange('0', '9'), min: lt.length, max: lt.length };
    options.push(seq(digitRange(String.fromCharCode(first), String.fromCharCode(last)), anyDigits));
  }
  if (highOption) options.push(highOption);
  return options.length === 1 ? (options[0] as RegexNode) : { type: 'alt', options };
}
