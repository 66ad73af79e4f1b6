/**
 * When a predicted query is the gold written differently, so that running it once gives both
 * results. Two texts are the same query when they differ only in the length and kind of their
 * whitespace (comments count as whitespace, as in SQLite), in the ASCII case of keywords and
 * identifiers (never inside string, blob or quoted tokens: a double-quoted token may be a legacy
 * string literal), and in one trailing semicolon. A query that may give another result on a second
 * run (random(), changes(), the current date or time…) is never deduplicated.
 */
import { withoutFinalSemicolons } from './compare.ts';
import { isTrivia, tokenize, type Token } from './sql-text.mjs';

/** The text with whitespace runs as one space, words ASCII lower-cased, one trailing semicolon dropped. */
export function normalizeSql(sql: string): string {
  const tokens = tokenize(sql);
  const significant = tokens.map((t) => !isTrivia(t));
  const first = significant.indexOf(true);
  let last = significant.lastIndexOf(true);
  if (first === -1) return '';
  if (tokens[last]?.text === ';') last = significant.lastIndexOf(true, last - 1);
  let out = '';
  let gap = false;
  for (let i = first; i <= last; i++) {
    const token = tokens[i] as Token;
    if (isTrivia(token)) {
      gap = true;
      continue;
    }
    if (gap) out += ' ';
    gap = false;
    out += token.type === 'word' ? token.text.replace(/[A-Z]+/g, (w) => w.toLowerCase()) : token.text;
  }
  return out;
}

// Functions whose every call may differ; date and time functions only when they read the clock.
const VOLATILE = new Set(['random', 'randomblob', 'changes', 'total_changes', 'last_insert_rowid']);
const CLOCK_WORDS = new Set(['current_date', 'current_time', 'current_timestamp']);
const DATE_FUNCTIONS = new Set(['date', 'time', 'datetime', 'julianday', 'unixepoch', 'strftime', 'timediff']);
/** Arguments a date function takes before its time value (with no time value it reads the clock). */
const FORMAT_ARGUMENTS: Record<string, number> = { strftime: 1 };

const unquoted = (t: Token) =>
  t.type === 'string' || t.type === 'quoted' ? t.text.slice(1, -1).replace(/''|""/g, (q) => q[0] as string) : t.text;

/** How many arguments the call whose '(' is at `open` (in `tokens`, trivia removed) has. */
function argumentCount(tokens: Token[], open: number): number {
  let depth = 0;
  let commas = 0;
  for (let i = open; i < tokens.length; i++) {
    const text = (tokens[i] as Token).text;
    if (text === '(') depth++;
    else if (text === ')' && --depth === 0) return i === open + 1 ? 0 : commas + 1;
    else if (text === ',' && depth === 1) commas++;
  }
  return commas + 1;
}

/** True when the query may give another result if it runs again on the same database. */
export function isNondeterministic(sql: string): boolean {
  const tokens = tokenize(sql).filter((t) => !isTrivia(t));
  return tokens.some((token, i) => {
    // 'now' as a time value, in any spelling SQLite accepts (it compares without case).
    if ((token.type === 'string' || token.type === 'quoted') && unquoted(token).trim().toLowerCase() === 'now')
      return true;
    if (token.type !== 'word') return false;
    const word = token.text.toLowerCase();
    if (CLOCK_WORDS.has(word)) return true;
    const call = tokens[i + 1]?.text === '(';
    if (!call) return false;
    if (VOLATILE.has(word)) return true;
    return DATE_FUNCTIONS.has(word) && argumentCount(tokens, i + 1) <= (FORMAT_ARGUMENTS[word] ?? 0);
  });
}

// Cheap pre-checks, so that most questions are decided without tokenizing. Without comments,
// texts whose normalized forms are equal are equal once all whitespace is gone, all case folded and
// trailing semicolons dropped; and a query none of whose text could name a clock or volatile
// function is deterministic.
const COMMENT = /--|\/\*/;
const coarse = (sql: string) => withoutFinalSemicolons(sql.replace(/\s+/g, '')).toLowerCase();
const MAYBE_VOLATILE = /random|changes|last_insert_rowid|current_|now|date|time|julianday|unixepoch/i;

/** The prediction is the gold (see the module comment) and running it once gives both results. */
export function sameDeterministicQuery(predicted: string, gold: string): boolean {
  if (predicted !== gold) {
    if (!COMMENT.test(predicted) && !COMMENT.test(gold) && coarse(predicted) !== coarse(gold)) return false;
    if (normalizeSql(predicted) !== normalizeSql(gold)) return false;
  }
  return !MAYBE_VOLATILE.test(gold) || !isNondeterministic(gold);
}
