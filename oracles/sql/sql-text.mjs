// SQL text helpers shared by the TypeScript oracle and the plain-JS SQLite child process (which
// runs without TypeScript tooling): a lossless SQLite tokenizer, the emulation of SQLite's legacy
// double-quoted string literals, and the reasons the read-only gate gives. Types: sql-text.d.mts.

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const OPERATORS = ['->>', '->', '||', '<=', '>=', '<>', '!=', '==', '<<', '>>'];

/**
 * Splits SQL into tokens whose texts concatenate back to the input exactly; with `limit`, stops
 * after that many tokens that are not whitespace or comments (what a look at a statement's start needs).
 */
export function tokenize(sql, limit = Infinity) {
  const tokens = [];
  let i = 0;
  const n = sql.length;
  let significant = 0;
  const push = (type, end) => {
    tokens.push({ type, text: sql.slice(i, end), start: i });
    i = end;
    if (type !== 'space' && type !== 'comment') significant++;
  };
  const closing = (quote, from) => {
    // Quoted runs end at the first unpaired quote ('' inside '…' is an escaped quote); unterminated runs take the rest.
    let j = from;
    while (j < n) {
      if (sql[j] === quote) {
        if (quote !== ']' && sql[j + 1] === quote) j += 2;
        else return j + 1;
      } else j++;
    }
    return n;
  };
  while (i < n && significant < limit) {
    const c = sql[i];
    const next = sql[i + 1];
    if (/\s/.test(c)) {
      let j = i + 1;
      while (j < n && /\s/.test(sql[j])) j++;
      push('space', j);
    } else if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      push('comment', end === -1 ? n : end);
    } else if (c === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      push('comment', end === -1 ? n : end + 2);
    } else if ((c === 'x' || c === 'X') && next === "'") {
      push('blob', closing("'", i + 2));
    } else if (c === "'") {
      push('string', closing("'", i + 1));
    } else if (c === '"' || c === '`') {
      push('quoted', closing(c, i + 1));
    } else if (c === '[') {
      push('quoted', closing(']', i + 1));
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(next ?? ''))) {
      let j = i;
      if (c === '0' && (next === 'x' || next === 'X')) {
        j += 2;
        while (j < n && /[0-9A-Fa-f_]/.test(sql[j])) j++;
      } else {
        while (j < n && /[0-9_]/.test(sql[j])) j++;
        if (sql[j] === '.') {
          j++;
          while (j < n && /[0-9_]/.test(sql[j])) j++;
        }
        if (
          (sql[j] === 'e' || sql[j] === 'E') &&
          /[0-9]/.test(sql[j + 1] === '+' || sql[j + 1] === '-' ? (sql[j + 2] ?? '') : (sql[j + 1] ?? ''))
        ) {
          j += sql[j + 1] === '+' || sql[j + 1] === '-' ? 2 : 1;
          while (j < n && /[0-9]/.test(sql[j])) j++;
        }
      }
      push('number', j);
    } else if (c === '?' || ((c === ':' || c === '@' || c === '$') && WORD_START.test(next ?? ''))) {
      let j = i + 1;
      while (j < n && WORD_PART.test(sql[j])) j++;
      push('param', j);
    } else if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < n && WORD_PART.test(sql[j])) j++;
      push('word', j);
    } else {
      const op = OPERATORS.find((o) => sql.startsWith(o, i));
      push('op', i + (op ? op.length : 1));
    }
  }
  return tokens;
}

/** Whitespace and comments. */
export function isTrivia(token) {
  return token.type === 'space' || token.type === 'comment';
}

const unquote = (token) => token.slice(1, token.endsWith('"') && token.length > 1 ? -1 : undefined).replace(/""/g, '"');

/** `"it""s"` → `'it"s'`: a double-quoted token as the string literal SQLite's legacy mode reads it as. */
export function toSingleQuoted(doubleQuoted) {
  return `'${unquote(doubleQuoted).replace(/'/g, "''")}'`;
}

// SQLite names the token by its unquoted text inside double quotes: "a""b" is reported as "a"b".
const DQS_ERROR = /^no such column: "([\s\S]*)" - should this be a string literal in single-quotes\?$/;
const MAX_DQS_REWRITES = 64;

/**
 * Prepares `sql` the way an SQLite built with the legacy double-quoted-string option (as Python's
 * sqlite3, which BIRD's evaluator uses) would: a double-quoted token that names no column is a
 * string literal. better-sqlite3 is built with SQLITE_DQS=0 and reports such a token as an error
 * naming it; every token with that exact text is then rewritten to a single-quoted literal and the
 * statement prepared again. Returns the statement and the SQL that was prepared.
 */
export function prepareStatement(prepare, sql) {
  const problem = unencodableText(sql);
  if (problem) throw new Error(problem);
  let text = sql;
  for (let round = 0; ; round++) {
    try {
      return { statement: prepare(text), sql: text };
    } catch (error) {
      const match = DQS_ERROR.exec(error && error.message);
      if (!match || round >= MAX_DQS_REWRITES) throw error;
      const name = match[1];
      let changed = false;
      text = tokenize(text)
        .map((t) => {
          if (t.type === 'quoted' && t.text.startsWith('"') && unquote(t.text) === name) {
            changed = true;
            return toSingleQuoted(t.text);
          }
          return t.text;
        })
        .join('');
      if (!changed) throw error;
    }
  }
}

/**
 * Why Python's sqlite3 (BIRD's evaluator) refuses to execute this text, or null. It encodes the
 * query to UTF-8 first, which fails on an unpaired surrogate, then refuses a NUL character; SQLite
 * itself would read the text only up to a NUL, silently dropping the rest.
 */
export function unencodableText(sql) {
  if (!sql.isWellFormed()) {
    // Positions count characters (code points), as Python's message does.
    const characters = [...sql];
    const at = characters.findIndex((c) => c.length === 1 && c >= '\ud800' && c <= '\udfff');
    const unit = characters[at].charCodeAt(0).toString(16).toUpperCase();
    return `the query is not valid Unicode: an unpaired surrogate (U+${unit}) at position ${at}`;
  }
  return sql.includes('\u0000') ? 'the query contains a null character' : null;
}

const MAIN_KEYWORDS = new Set(['SELECT', 'VALUES', 'INSERT', 'UPDATE', 'DELETE', 'REPLACE']);

/** The statement's main keyword, upper-cased (for `WITH … INSERT` the INSERT), or null when there is none. */
export function statementKeyword(sql) {
  const words = [];
  let depth = 0;
  for (const t of tokenize(sql)) {
    if (t.type === 'op' && t.text === '(') depth++;
    else if (t.type === 'op' && t.text === ')') depth = Math.max(0, depth - 1);
    else if (t.type === 'word' && depth === 0) words.push(t.text.toUpperCase());
  }
  if (words.length === 0) return null;
  if (words[0] !== 'WITH') return words[0];
  return words.find((w) => MAIN_KEYWORDS.has(w)) ?? 'WITH';
}

// Pragmas that take an argument and only read (those SQLite also offers as table-valued functions).
const READING_PRAGMAS_WITH_ARGUMENT = new Set([
  'table_info',
  'table_xinfo',
  'table_list',
  'index_info',
  'index_xinfo',
  'index_list',
  'foreign_key_list',
  'foreign_key_check',
  'integrity_check',
  'quick_check',
]);

/**
 * True for a PRAGMA that sets something (`PRAGMA name = value`, `PRAGMA name(value)`) other than
 * the reading pragmas that take an argument. SQLite reports some setters as read-only statements
 * returning rows (`PRAGMA mmap_size = N`, `PRAGMA busy_timeout = N`, `PRAGMA locking_mode =
 * EXCLUSIVE`): they would change the warm connection for every later query.
 */
export function settingPragma(sql) {
  const words = tokenize(sql, 5).filter((t) => !isTrivia(t));
  if (words[0]?.type !== 'word' || words[0].text.toUpperCase() !== 'PRAGMA') return false;
  const named = words[2]?.text === '.' ? 3 : 1;
  const argument = words[named + 1]?.text;
  if (argument !== '=' && argument !== '(') return false;
  const name = (words[named]?.text ?? '').replace(/^["`[]|["`\]]$/g, '').toLowerCase();
  return !READING_PRAGMAS_WITH_ARGUMENT.has(name);
}

const REASONS = {
  ATTACH: 'ATTACH opens another database file',
  DETACH: 'DETACH changes the attached databases',
  PRAGMA: 'this PRAGMA changes a setting (only reading pragmas are queries)',
  VACUUM: 'VACUUM rewrites the database (VACUUM INTO writes a file)',
  ANALYZE: 'ANALYZE writes statistics tables',
  REINDEX: 'REINDEX rebuilds indexes',
  INSERT: 'INSERT modifies the database',
  REPLACE: 'REPLACE modifies the database',
  UPDATE: 'UPDATE modifies the database',
  DELETE: 'DELETE modifies the database',
  CREATE: 'CREATE changes the schema (temporary tables included)',
  DROP: 'DROP changes the schema',
  ALTER: 'ALTER changes the schema',
  BEGIN: 'BEGIN controls transactions',
  COMMIT: 'COMMIT controls transactions',
  END: 'END controls transactions',
  ROLLBACK: 'ROLLBACK controls transactions',
  SAVEPOINT: 'SAVEPOINT controls transactions',
  RELEASE: 'RELEASE controls transactions',
};

/**
 * True when the statement calls load_extension (under any quoting): SQLite reports such a SELECT
 * as read-only, and only refuses it while stepping ("not authorized"), so the gate refuses it first.
 */
export function loadsExtension(sql) {
  if (!/load_extension/i.test(sql)) return false; // most statements: no tokenizing
  const tokens = tokenize(sql).filter((t) => !isTrivia(t));
  return tokens.some(
    (t, i) =>
      (t.type === 'word' || t.type === 'quoted') &&
      tokens[i + 1]?.text === '(' &&
      (t.type === 'word' ? t.text : t.text.slice(1, -1)).toLowerCase() === 'load_extension',
  );
}

/** Why the gate refuses a statement SQLite does not report as a read-only query returning rows. */
export function unsafeReason(sql) {
  const keyword = statementKeyword(sql);
  const why =
    (keyword && REASONS[keyword]) ||
    (loadsExtension(sql) ? 'load_extension loads native code' : 'it is not a read-only query that returns rows');
  return `only a single read-only query that returns rows may run: ${why}`;
}

/** The reason for SQL text holding several statements. */
export const SEVERAL_STATEMENTS =
  'only a single read-only query that returns rows may run: the text holds several statements';
