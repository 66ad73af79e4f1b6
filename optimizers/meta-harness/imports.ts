/**
 * The static side of "imports only the SDK": every import of a harness's source, and the ways
 * around an import a model might try (dynamic `import()`, `require`, `process.binding`, reaching
 * globals through `globalThis`, code from strings). Comments and quoted strings are blanked first,
 * so prompt text that merely mentions these words is not flagged. Pure.
 */
import { SDK_MODULE } from './transpile.ts';

export interface SourceFinding {
  rule: string;
  line: number;
  text: string;
}

/** Where each line starts, for line numbers of offsets in one pass (a slice per match would be quadratic). */
function lineOf(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

const blank = (text: string) => text.replace(/[^\n]/g, ' ');
const isLineTerminator = (c: string | undefined): boolean =>
  c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';

/**
 * Where the '…' or "…" string opening at `from` ends: after its closing quote (`closed`), or where
 * it fails to close on its line (a newline, a backslash before a line terminator, the end).
 */
function stringEnd(source: string, from: number): { end: number; closed: boolean } {
  const quote = source[from];
  for (let i = from + 1; i < source.length; i++) {
    const c = source[i];
    if (c === quote) return { end: i + 1, closed: true };
    if (c === '\n') return { end: i, closed: false };
    if (c === '\\') {
      if (i + 1 >= source.length || isLineTerminator(source[i + 1])) return { end: i, closed: false };
      i++;
    }
  }
  return { end: source.length, closed: false };
}

/**
 * The source with comments (and, with `strings`, the contents of '…' and "…" strings) replaced by
 * spaces, line numbers kept. One left-to-right scan; an unclosed comment or string is ordinary text.
 */
function blankOut(source: string, strings: boolean): string {
  let out = '';
  let copied = 0;
  // Once no later `*/` exists, no later `/*` can close (so the search is not repeated).
  let blockCloses = true;
  // A quote inside a string of its kind that failed to close is escaped there, and a string
  // opening at it fails at the same place: skip those instead of scanning again.
  const failsUntil: Record<string, number> = { "'": -1, '"': -1 };
  for (let i = 0; i < source.length;) {
    const c = source[i] as string;
    let end = -1;
    if (c === '/' && source[i + 1] === '*' && blockCloses) {
      const close = source.indexOf('*/', i + 2);
      if (close === -1) blockCloses = false;
      else end = close + 2;
    } else if (c === '/' && source[i + 1] === '/') {
      const newline = source.indexOf('\n', i);
      end = newline === -1 ? source.length : newline;
    } else if (strings && (c === "'" || c === '"') && i >= (failsUntil[c] as number)) {
      const string = stringEnd(source, i);
      if (string.closed) end = string.end;
      else failsUntil[c] = string.end;
    }
    if (end === -1) {
      i++;
      continue;
    }
    const text = source.slice(i, end);
    out += source.slice(copied, i) + (c === '/' ? blank(text) : c + blank(text.slice(1, -1)) + text.at(-1));
    copied = i = end;
  }
  return out + source.slice(copied);
}

/** The source with comments and the contents of '…' and "…" strings replaced by spaces (line numbers kept). */
export function blankCommentsAndStrings(source: string): string {
  return blankOut(source, true);
}

const RULES: readonly { rule: string; pattern: RegExp }[] = [
  { rule: 'dynamic import()', pattern: /\bimport\s*\(/g },
  { rule: 'import.meta', pattern: /\bimport\s*\.\s*meta\b/g },
  { rule: 'require', pattern: /\brequire\s*[(.[]/g },
  { rule: 'process', pattern: /\bprocess\s*[.[]/g },
  { rule: 'globalThis', pattern: /\bglobalThis\b|\b(global|self|window)\s*[.[]/g },
  { rule: 'code from strings', pattern: /\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(|\.constructor\s*\(/g },
  { rule: 'module internals', pattern: /\b(module|exports|__dirname|__filename|Deno|Bun)\s*[.[]/g },
  { rule: 'WebAssembly', pattern: /\bWebAssembly\b/g },
  { rule: 'network', pattern: /\b(fetch|XMLHttpRequest|WebSocket|EventSource)\s*\(/g },
];

const IMPORT_KEYWORD = /\b(?:import|export)(?=\s)/g;
const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
const isClauseChar = (c: string | undefined) => c !== undefined && /[\w*{}\s,]/.test(c);
const isWordChar = (c: string | undefined) => c !== undefined && /\w/.test(c);

/**
 * Specifiers of the static imports and re-exports (`import … from 'x'`, `import 'x'`, `export …
 * from 'x'`): after the keyword and whitespace (and `type `), a quote at once, or a clause of
 * names, braces, `*`, commas and whitespace that ends in ` from ` right before the quote; then the
 * specifier up to the same quote. A scan, linear in the source: each clause is measured once.
 */
export function staticImports(source: string): { specifier: string; line: number }[] {
  const code = blankOut(source, false);
  const line = lineOf(code);
  const found: { specifier: string; line: number }[] = [];
  let clauseStart = -1;
  let clauseEnd = -1;
  let from = 0;
  for (;;) {
    IMPORT_KEYWORD.lastIndex = from;
    const keyword = IMPORT_KEYWORD.exec(code);
    if (!keyword) break;
    const keywordEnd = keyword.index + keyword[0].length;
    let i = keywordEnd;
    while (isSpace(code[i])) i++;
    const afterKeyword = i;
    if (code.startsWith('type', i) && isSpace(code[i + 4])) {
      i += 4;
      while (isSpace(code[i])) i++;
    }
    let quoteAt = code[i] === "'" || code[i] === '"' ? i : -1;
    if (quoteAt === -1) {
      // The clause's run of characters is shared by every keyword inside it: measure it once.
      if (!(afterKeyword > clauseStart && afterKeyword <= clauseEnd)) {
        clauseStart = afterKeyword;
        clauseEnd = afterKeyword;
        while (isClauseChar(code[clauseEnd])) clauseEnd++;
      }
      const quoted = code[clauseEnd] === "'" || code[clauseEnd] === '"';
      quoteAt = quoted && clauseEndsWithFrom(code, keywordEnd, clauseEnd) ? clauseEnd : -1;
    }
    const quote = code[quoteAt];
    const close = quote === undefined ? -1 : nextQuote(code, quoteAt + 1);
    if (close > quoteAt + 1 && code[close] === quote) {
      found.push({ specifier: code.slice(quoteAt + 1, close), line: line(keyword.index) });
      from = close + 1;
    } else {
      from = keyword.index + 1;
    }
  }
  return found;
}

/**
 * Whether `code[keywordEnd, quoteAt)` reads as whitespace, some clause, whitespace, `from`,
 * whitespace (the clause at least one character after at least one space).
 */
function clauseEndsWithFrom(code: string, keywordEnd: number, quoteAt: number): boolean {
  let i = quoteAt;
  while (i > keywordEnd && isSpace(code[i - 1])) i--;
  if (i === quoteAt || code.slice(i - 4, i) !== 'from' || !isSpace(code[i - 5])) return false;
  return i - 5 - keywordEnd >= 2;
}

function nextQuote(code: string, from: number): number {
  for (let i = from; i < code.length; i++) if (code[i] === "'" || code[i] === '"') return i;
  return -1;
}

/** Everything that breaks "imports only the SDK"; empty when the source is clean. */
export function importFindings(source: string): SourceFinding[] {
  const findings: SourceFinding[] = [];
  for (const { specifier, line } of staticImports(source)) {
    if (specifier !== SDK_MODULE)
      findings.push({ rule: 'import', line, text: `imports "${specifier}" (only ${SDK_MODULE} is allowed)` });
  }
  const code = blankCommentsAndStrings(source);
  const lines = code.split('\n');
  const lineAt = lineOf(code);
  for (const { rule, pattern } of RULES) {
    for (const match of code.matchAll(pattern)) {
      const line = lineAt(match.index);
      findings.push({ rule, line, text: (lines[line - 1] ?? '').trim().slice(0, 160) });
    }
  }
  return findings.sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
}
