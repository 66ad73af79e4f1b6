/**
 * Mutation operators for Python programs (the sim model's mistakes): off-by-one (an integer
 * literal ±1), wrong operator (+ ↔ -, * ↔ +, / ↔ //, …), wrong comparison (< ↔ <=, == ↔ !=,
 * and ↔ or, …), dropped branch (an elif/else clause, or an if without one, removed) and wrong
 * return (return another variable, or None). Each works on tokens and lines, never inside strings
 * or comments, and keeps the program parseable.
 */
import type { Rng } from '../../../core/random.ts';
import { indentOf, lineStarts, logicalLineStarts, tokenize, type Token } from './tokenize.ts';

export type PythonMutation = 'off-by-one' | 'wrong-operator' | 'wrong-comparison' | 'dropped-branch' | 'wrong-return';

export const PYTHON_MUTATIONS: readonly PythonMutation[] = [
  'off-by-one',
  'wrong-operator',
  'wrong-comparison',
  'dropped-branch',
  'wrong-return',
];

interface Site {
  start: number;
  end: number;
  replacement: string;
}

const OPERATOR_SWAPS: Record<string, string[]> = {
  '+': ['-'],
  '-': ['+'],
  '*': ['+', '/'],
  '/': ['//', '*'],
  '//': ['/'],
  '%': ['//'],
  '**': ['*'],
  '+=': ['-='],
  '-=': ['+='],
  '*=': ['+='],
  '/=': ['//='],
  '//=': ['/='],
};
const COMPARISON_SWAPS: Record<string, string[]> = {
  '<': ['<=', '>'],
  '<=': ['<', '>='],
  '>': ['>=', '<'],
  '>=': ['>', '<='],
  '==': ['!='],
  '!=': ['=='],
  and: ['or'],
  or: ['and'],
};

function codeTokens(source: string): Token[] {
  return tokenize(source).filter((t) => t.type !== 'space' && t.type !== 'comment' && t.type !== 'newline');
}

function offByOneSites(tokens: readonly Token[]): Site[] {
  return tokens
    .filter((t) => t.type === 'number' && /^\d+$/.test(t.text))
    .flatMap((t) => {
      const n = Number(t.text);
      const out = [{ start: t.start, end: t.end, replacement: String(n + 1) }];
      if (n > 0) out.push({ start: t.start, end: t.end, replacement: String(n - 1) });
      return out;
    });
}

function swapSites(tokens: readonly Token[], table: Record<string, string[]>): Site[] {
  const sites: Site[] = [];
  tokens.forEach((t, i) => {
    const swaps = table[t.text];
    if (!swaps || (t.type !== 'op' && t.type !== 'name')) return;
    // `*` and `**` in argument lists, unpacking and imports are not arithmetic.
    const previous = tokens[i - 1];
    if (
      (t.text === '*' || t.text === '**') &&
      (!previous || ['(', ',', '[', '{', '=', 'import', 'lambda', ':'].includes(previous.text))
    )
      return;
    if ((t.text === '-' || t.text === '+') && (!previous || (previous.type === 'op' && !/[)\]}]/.test(previous.text))))
      return; // unary
    for (const replacement of swaps) sites.push({ start: t.start, end: t.end, replacement });
  });
  return sites;
}

interface Line {
  start: number;
  end: number;
  text: string;
  logical: boolean;
}

function linesOf(source: string): Line[] {
  const starts = lineStarts(source);
  const logical = logicalLineStarts(source);
  return starts.map((start, i) => {
    const end = i + 1 < starts.length ? (starts[i + 1] as number) : source.length;
    return { start, end, text: source.slice(start, end), logical: logical[i] === true };
  });
}

/** Index one past the last line of the block whose header is line `h`. */
function blockEnd(lines: readonly Line[], h: number): number {
  const indent = indentOf((lines[h] as Line).text);
  let end = h + 1;
  for (let i = h + 1; i < lines.length; i++) {
    const line = lines[i] as Line;
    if (!line.logical) {
      if (/^\s*(#.*)?\n?$/.test(line.text)) continue; // blank or comment: keep scanning
      end = i + 1; // continuation of a statement in the block
      continue;
    }
    if (indentOf(line.text) <= indent) break;
    end = i + 1;
  }
  return end;
}

function droppedBranchSites(source: string): Site[] {
  const lines = linesOf(source);
  const sites: Site[] = [];
  lines.forEach((line, h) => {
    if (!line.logical) return;
    const keyword = /^\s*(if|elif|else)\b/.exec(line.text)?.[1];
    if (!keyword) return;
    const end = blockEnd(lines, h);
    const indent = indentOf(line.text);
    const next = lines.slice(end).find((l) => l.logical);
    const from = line.start;
    const to = end < lines.length ? (lines[end] as Line).start : source.length;
    if (keyword !== 'if') {
      // An elif or else clause: the clauses before it still stand on their own.
      sites.push({ start: from, end: to, replacement: '' });
      return;
    }
    const followedByClause =
      next !== undefined && indentOf(next.text) === indent && /^\s*(elif|else)\b/.test(next.text);
    if (followedByClause) return; // removing the if would orphan its elif/else
    const previous = lines
      .slice(0, h)
      .reverse()
      .find((l) => l.logical);
    const first = previous === undefined || indentOf(previous.text) < indent;
    const last = next === undefined || indentOf(next.text) < indent;
    sites.push({ start: from, end: to, replacement: first && last ? `${' '.repeat(indent)}pass\n` : '' });
  });
  return sites;
}

function wrongReturnSites(source: string): Site[] {
  const lines = linesOf(source);
  const sites: Site[] = [];
  let names: string[] = [];
  lines.forEach((line) => {
    if (!line.logical) return;
    const def = /^\s*(?:async\s+)?def\s+\w+\s*\(([^)]*)\)/.exec(line.text);
    if (def) {
      names = (def[1] ?? '')
        .split(',')
        .map(
          (p) =>
            p
              .trim()
              .replace(/^\*+/, '')
              .split(/[:=\s]/)[0] ?? '',
        )
        .filter((p) => /^[A-Za-z_]\w*$/.test(p) && p !== 'self');
      return;
    }
    const assigned = /^\s*([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)/.exec(line.text)?.[1];
    if (assigned && !names.includes(assigned)) names.push(assigned);
    const ret = returnStatement(line.text.replace(/\n$/, ''));
    if (!ret || /\\$/.test(ret.value) || /[([{]$/.test(ret.value)) return;
    const expression = withoutComment(ret.value);
    const start = line.start + ret.head.length;
    const end = start + expression.length;
    const options = names.filter((n) => n !== expression.trim());
    for (const name of options.slice(-4)) sites.push({ start, end, replacement: name });
    if (expression.trim() !== 'None') sites.push({ start, end, replacement: 'None' });
  });
  return sites;
}

const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;
const RETURN_HEAD = /^\s*return\s+/;

/**
 * `return <value>` split as `/^(\s*return\s+)(.+?)\s*$/` splits it (the value up to its trailing
 * whitespace, on one line; with nothing after the whitespace, its last character that is not a line
 * break), without that pattern's quadratic backtracking.
 */
function returnStatement(text: string): { head: string; value: string } | null {
  const head = RETURN_HEAD.exec(text)?.[0];
  if (head === undefined) return null;
  const value = text.slice(head.length).trimEnd();
  if (value !== '') return LINE_TERMINATOR.test(value) ? null : { head, value };
  const afterKeyword = head.lastIndexOf('return') + 'return'.length;
  for (let at = head.length - 1; at > afterKeyword; at--) {
    if (!LINE_TERMINATOR.test(head[at] as string)) return { head: head.slice(0, at), value: head[at] as string };
  }
  return null;
}

/** The value without a trailing `# comment` and the whitespace before it (the value is one line). */
function withoutComment(value: string): string {
  const hash = value.indexOf('#');
  if (hash === -1) return value;
  let start = hash;
  while (start > 0 && /\s/.test(value[start - 1] as string)) start--;
  return value.slice(0, start);
}

/** Every place an operator applies, by operator. */
export function mutationSites(source: string): Record<PythonMutation, Site[]> {
  const tokens = codeTokens(source);
  return {
    'off-by-one': offByOneSites(tokens),
    'wrong-operator': swapSites(tokens, OPERATOR_SWAPS),
    'wrong-comparison': swapSites(tokens, COMPARISON_SWAPS),
    'dropped-branch': droppedBranchSites(source),
    'wrong-return': wrongReturnSites(source),
  };
}

/** One random mutation (operator, then site), or null when none applies. */
export function mutatePython(
  source: string,
  rng: Rng,
  only?: readonly PythonMutation[],
): { program: string; mutation: PythonMutation } | null {
  const sites = mutationSites(source);
  const usable = (only ?? PYTHON_MUTATIONS).filter((m) => sites[m].length > 0);
  if (usable.length === 0) return null;
  for (const mutation of rng.shuffle(usable)) {
    for (const site of rng.shuffle(sites[mutation])) {
      const program = source.slice(0, site.start) + site.replacement + source.slice(site.end);
      if (program !== source) return { program, mutation };
    }
  }
  return null;
}
