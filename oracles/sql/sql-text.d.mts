/** Types of sql-text.mjs (plain JS so the SQLite child process can load it without TypeScript tooling). */

export type TokenType = 'space' | 'comment' | 'string' | 'blob' | 'number' | 'word' | 'quoted' | 'param' | 'op';

export interface Token {
  type: TokenType;
  text: string;
  start: number;
}

/** Splits SQL into tokens whose texts concatenate back to the input exactly; with `limit`, only up to that many non-trivia tokens. */
export function tokenize(sql: string, limit?: number): Token[];
/** Whitespace and comments. */
export function isTrivia(token: Token): boolean;
/** `"it""s"` → `'it"s'`. */
export function toSingleQuoted(doubleQuoted: string): string;
/** Prepares like an SQLite with legacy double-quoted string literals (Python's sqlite3, BIRD's evaluator). */
export function prepareStatement<S>(prepare: (sql: string) => S, sql: string): { statement: S; sql: string };
/** Why Python's sqlite3 refuses this text (an unpaired surrogate, a NUL character), or null. */
export function unencodableText(sql: string): string | null;
/** The statement's main keyword, upper-cased, or null when there is none. */
export function statementKeyword(sql: string): string | null;
/** True for a PRAGMA that sets something (any with an argument but the reading ones, such as table_info). */
export function settingPragma(sql: string): boolean;
/** True when the statement calls load_extension (under any quoting), which the gate refuses. */
export function loadsExtension(sql: string): boolean;
/** Why the read-only gate refuses a statement. */
export function unsafeReason(sql: string): string;
export const SEVERAL_STATEMENTS: string;
