/**
 * Regex source → tokens, for structural-stability metrics (edit distance between turns).
 *
 * One token each: an escape (`\d`, `\b`, `\.`, and the multi-character forms `\uXXXX`,
 * `\u{…}`, `\xHH`, `\cX`, `\p{…}` / `\P{…}`, `\k<name>`, multi-digit `\12`), a bracketed class
 * `[...]` (escapes inside included; it ends at the first unescaped `]`, so `[]` is one token as
 * in ECMAScript; an unterminated class runs to the end),
 * a brace quantifier `{n}` / `{n,}` / `{n,m}`, and a group opener `(?:` `(?=` `(?!` `(?<=` `(?<!`
 * `(?<name>`. Every other character is one token. Works for both dialects (brics sources simply
 * never produce the ECMAScript-only forms).
 */

const ESCAPE_FORMS: readonly RegExp[] = [
  /^\\u\{[0-9A-Fa-f]+\}/,
  /^\\u[0-9A-Fa-f]{4}/,
  /^\\x[0-9A-Fa-f]{2}/,
  /^\\c[A-Za-z]/,
  /^\\[pP]\{[^}]*\}/,
  /^\\k<[^>]*>/,
  /^\\[1-9][0-9]*/,
  /^\\[\s\S]/,
];
const QUANTIFIER = /^\{\d+(?:,\d*)?\}/;
const GROUP_OPENER = /^\(\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/;

export function tokenizeRegex(source: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const token = matchEscape(rest) ?? matchClass(rest) ?? QUANTIFIER.exec(rest)?.[0] ?? GROUP_OPENER.exec(rest)?.[0] ?? (rest[0] as string);
    tokens.push(token);
    i += token.length;
  }
  return tokens;
}

function matchEscape(rest: string): string | null {
  if (rest[0] !== '\\') return null;
  for (const form of ESCAPE_FORMS) {
    const match = form.exec(rest);
    if (match) return match[0];
  }
  return rest; // a trailing lone backslash
}

function matchClass(rest: string): string | null {
  if (rest[0] !== '[') return null;
  let i = 1;
  if (rest[i] === '^') i++;
  while (i < rest.length && rest[i] !== ']') i += rest[i] === '\\' ? 2 : 1;
  return rest.slice(0, Math.min(i + 1, rest.length));
}
