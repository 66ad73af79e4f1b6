/**
 * Hostile answers for the SQL oracle: huge, slow, result bombs, malformed, and attempts to write,
 * to escape the database or to change the connection for later queries. Each names the verdict it
 * must get — a failed verdict with a specific error kind, or a judged verdict (pass or not) —
 * against the fixture question 0 (`SELECT COUNT(customer_id) FROM customers WHERE email IS NULL`
 * on retail_shop). A reply is the model's whole message; the oracle extracts the query from it.
 * Answers that name a file get a scratch folder to name it in (nothing may appear there).
 */
import type { ErrorKind } from '../../../core/types.ts';

export type HostileExpectation =
  | { error: ErrorKind }
  /** Ran and was judged: right or wrong. */
  | { pass: boolean }
  /** No query can be extracted from the reply. */
  | { noArtifact: true };

export type HostileKind = 'huge' | 'slow' | 'result bomb' | 'malformed' | 'write' | 'escape' | 'cheat';

export interface HostileAnswer {
  name: string;
  kind: HostileKind;
  /** The reply, or how to build it around a scratch folder. */
  reply: string | ((scratch: string) => string);
  expect: HostileExpectation;
}

/** The fixture question every answer is checked against. */
export const HOSTILE_TASK_ID = '0';

const sql = (query: string) => '```sql\n' + query + '\n```';
const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => i + from).join(', ');
const COUNTER = (n: number) => `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT ${n})`;
const FOREVER = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)';
const RIGHT = 'SELECT COUNT(customer_id) FROM customers WHERE email IS NULL';
const quote = (path: string) => `'${path.replace(/'/g, "''")}'`;

export const HOSTILE_ANSWERS: readonly HostileAnswer[] = [
  // ---- huge
  {
    name: 'a 2 MB query (a 300,000-term NOT IN list), over the text cap',
    kind: 'huge',
    reply: sql(`${RIGHT} AND customer_id NOT IN (${numbers(300_000, 1_000_000)})`),
    expect: { error: 'too-complex' },
  },
  {
    name: 'a 100,000-term IN list SQLite takes (600 kB): an ordinary, right answer',
    kind: 'huge',
    reply: sql(`${RIGHT} AND customer_id NOT IN (${numbers(100_000, 1_000_000)})`),
    expect: { pass: true },
  },
  {
    name: 'a sum of 1,500 terms ("Expression tree is too large")',
    kind: 'huge',
    reply: sql(`SELECT ${Array(1500).fill('1').join(' + ')}`),
    expect: { error: 'too-complex' },
  },
  {
    name: '100,000 nested parentheses (the parser’s recursion limit)',
    kind: 'huge',
    reply: sql(`SELECT ${'('.repeat(100_000)}1${')'.repeat(100_000)}`),
    expect: { error: 'too-complex' },
  },
  {
    name: '1,200 nested function calls',
    kind: 'huge',
    reply: sql(`SELECT ${'abs('.repeat(1200)}1${')'.repeat(1200)}`),
    expect: { error: 'too-complex' },
  },
  {
    name: 'a compound SELECT of 600 terms',
    kind: 'huge',
    reply: sql(Array(600).fill('SELECT 1').join(' UNION ALL ')),
    expect: { error: 'too-complex' },
  },
  {
    name: '2,500 result columns',
    kind: 'huge',
    reply: sql(`SELECT ${Array(2500).fill('1').join(', ')}`),
    expect: { error: 'too-complex' },
  },
  {
    name: 'a join of 70 tables',
    kind: 'huge',
    reply: sql(`SELECT 1 FROM ${Array.from({ length: 70 }, (_, i) => `regions r${i}`).join(', ')}`),
    expect: { error: 'too-complex' },
  },
  {
    name: 'a LIKE pattern of 60,000 wildcards',
    kind: 'huge',
    reply: sql(`SELECT COUNT(*) FROM customers WHERE email LIKE '${'%'.repeat(60_000)}'`),
    expect: { error: 'too-complex' },
  },
  {
    name: '40,000 parameters',
    kind: 'huge',
    reply: sql(`SELECT ${Array(40_000).fill('?').join(', ')}`),
    expect: { error: 'too-complex' },
  },
  {
    name: 'a one-megabyte reply around the right answer',
    kind: 'huge',
    reply: `${'Let me think. '.repeat(75_000)}\n${sql(RIGHT)}`,
    expect: { pass: true },
  },

  // ---- slow (the test's deadline is short)
  {
    name: 'an endless recursive CTE',
    kind: 'slow',
    reply: sql(`${FOREVER} SELECT COUNT(*) FROM c`),
    expect: { error: 'timeout' },
  },
  {
    name: 'a six-way cross join',
    kind: 'slow',
    reply: sql('SELECT COUNT(*) FROM orders a, orders b, orders c, orders d, orders e, orders f'),
    expect: { error: 'timeout' },
  },
  {
    name: 'a sort of a cross join that spills to temporary files',
    kind: 'slow',
    reply: sql('SELECT a.order_id FROM orders a, orders b, orders c ORDER BY random() LIMIT 1'),
    expect: { error: 'timeout' },
  },
  {
    name: 'an endless CTE behind a LIMIT that never comes',
    kind: 'slow',
    reply: sql(`${FOREVER} SELECT x FROM c WHERE x < 0 LIMIT 1`),
    expect: { error: 'timeout' },
  },

  // ---- result bombs
  {
    name: '3,000 blobs of a megabyte (3 GB)',
    kind: 'result bomb',
    reply: sql(`${COUNTER(3000)} SELECT zeroblob(1000000) FROM c`),
    expect: { error: 'too-large' },
  },
  {
    name: '2,000 texts of a megabyte (2 GB)',
    kind: 'result bomb',
    reply: sql(`${COUNTER(2000)} SELECT printf('%.1000000c', 'x') FROM c`),
    expect: { error: 'too-large' },
  },
  {
    name: '2,000,000 rows',
    kind: 'result bomb',
    reply: sql(`${COUNTER(2_000_000)} SELECT x FROM c`),
    expect: { error: 'too-large' },
  },
  {
    name: 'rows of reals',
    kind: 'result bomb',
    reply: sql(`${COUNTER(1_000_000)} SELECT ${Array(8).fill('x * 1.5').join(', ')} FROM c`),
    expect: { error: 'too-large' },
  },
  {
    name: 'every customer a million times over',
    kind: 'result bomb',
    reply: sql(`${COUNTER(1_000_000)} SELECT customers.* FROM c, customers`),
    expect: { error: 'too-large' },
  },
  {
    name: 'one blob of a gigabyte',
    kind: 'result bomb',
    reply: sql('SELECT zeroblob(1000000000)'),
    expect: { error: 'too-large' },
  },
  {
    name: 'one blob of 400 MB (more than a SQLite process may take)',
    kind: 'result bomb',
    reply: sql('SELECT zeroblob(400000000)'),
    expect: { error: 'too-large' },
  },
  {
    name: 'one blob of 250 MB (SQLite builds it; a copy does not fit)',
    kind: 'result bomb',
    reply: sql('SELECT zeroblob(250000000)'),
    expect: { error: 'too-large' },
  },
  {
    name: "printf('%.*c', 2e9, 'x')",
    kind: 'result bomb',
    reply: sql("SELECT printf('%.*c', 2000000000, 'x')"),
    expect: { error: 'too-large' },
  },
  {
    name: 'a text doubling until SQLite refuses',
    kind: 'result bomb',
    reply: sql(
      "WITH RECURSIVE c(s, n) AS (SELECT 'x', 0 UNION ALL SELECT s || s, n + 1 FROM c WHERE n < 40) SELECT s FROM c",
    ),
    expect: { error: 'too-large' },
  },
  {
    name: 'a group_concat of two gigabytes',
    kind: 'result bomb',
    reply: sql(`SELECT group_concat(printf('%.1000000c', 'x')) FROM (${COUNTER(2000)} SELECT x FROM c)`),
    expect: { error: 'too-large' },
  },

  // ---- malformed
  {
    name: 'text after a NUL character (Python’s sqlite3 refuses it)',
    kind: 'malformed',
    reply: sql(`${RIGHT}\u0000; DELETE FROM customers`),
    expect: { error: 'syntax' },
  },
  {
    name: 'an unpaired surrogate (not valid Unicode)',
    kind: 'malformed',
    reply: sql(`${RIGHT} AND email <> 'x\ud800'`),
    expect: { error: 'syntax' },
  },
  {
    name: 'an unterminated string',
    kind: 'malformed',
    reply: sql("SELECT COUNT(*) FROM customers WHERE email = 'oops"),
    expect: { error: 'syntax' },
  },
  {
    name: 'an unbalanced parenthesis',
    kind: 'malformed',
    reply: sql('SELECT COUNT((customer_id) FROM customers'),
    expect: { error: 'syntax' },
  },
  { name: 'only a comment', kind: 'malformed', reply: sql('-- nothing here'), expect: { error: 'syntax' } },
  { name: 'a bare SELECT', kind: 'malformed', reply: sql('SELECT'), expect: { error: 'syntax' } },
  { name: 'an empty code block', kind: 'malformed', reply: sql(''), expect: { noArtifact: true } },
  {
    name: 'no query at all',
    kind: 'malformed',
    reply: 'I cannot answer that from the schema.',
    expect: { noArtifact: true },
  },
  {
    name: 'a query on a table that does not exist',
    kind: 'malformed',
    reply: sql('SELECT COUNT(*) FROM clients'),
    expect: { error: 'syntax' },
  },

  // ---- write
  {
    name: 'DELETE',
    kind: 'write',
    reply: sql('DELETE FROM customers WHERE email IS NULL'),
    expect: { error: 'unsafe' },
  },
  {
    name: 'INSERT',
    kind: 'write',
    reply: sql("INSERT INTO regions VALUES (99, 'Nowhere')"),
    expect: { error: 'unsafe' },
  },
  {
    name: 'UPDATE',
    kind: 'write',
    reply: sql("UPDATE customers SET email = 'x' WHERE email IS NULL"),
    expect: { error: 'unsafe' },
  },
  {
    name: 'REPLACE',
    kind: 'write',
    reply: sql("REPLACE INTO regions VALUES (1, 'North')"),
    expect: { error: 'unsafe' },
  },
  {
    name: 'a DELETE behind a WITH',
    kind: 'write',
    reply: sql('WITH gone AS (SELECT customer_id FROM customers) DELETE FROM customers WHERE customer_id IN gone'),
    expect: { error: 'unsafe' },
  },
  { name: 'DROP TABLE', kind: 'write', reply: sql('DROP TABLE customers'), expect: { error: 'unsafe' } },
  {
    name: 'CREATE TABLE … AS SELECT',
    kind: 'write',
    reply: sql('CREATE TABLE answers AS SELECT 1'),
    expect: { error: 'unsafe' },
  },
  {
    name: 'a temporary table',
    kind: 'write',
    reply: sql('CREATE TEMP TABLE scratch AS SELECT * FROM customers'),
    expect: { error: 'unsafe' },
  },
  { name: 'ALTER TABLE', kind: 'write', reply: sql('ALTER TABLE customers ADD COLUMN x'), expect: { error: 'unsafe' } },
  { name: 'VACUUM', kind: 'write', reply: sql('VACUUM'), expect: { error: 'unsafe' } },
  { name: 'REINDEX', kind: 'write', reply: sql('REINDEX'), expect: { error: 'unsafe' } },
  { name: 'ANALYZE', kind: 'write', reply: sql('ANALYZE'), expect: { error: 'unsafe' } },
  {
    name: 'PRAGMA user_version = 1',
    kind: 'write',
    reply: sql('PRAGMA user_version = 1'),
    expect: { error: 'unsafe' },
  },
  {
    name: 'PRAGMA journal_mode = DELETE',
    kind: 'write',
    reply: sql('PRAGMA journal_mode = DELETE'),
    expect: { error: 'unsafe' },
  },
  {
    name: 'PRAGMA writable_schema = 1',
    kind: 'write',
    reply: sql('PRAGMA writable_schema = 1'),
    expect: { error: 'unsafe' },
  },
  { name: 'PRAGMA query_only = 0', kind: 'write', reply: sql('PRAGMA query_only = 0'), expect: { error: 'unsafe' } },
  {
    name: 'EXPLAIN of a DELETE',
    kind: 'write',
    reply: sql('EXPLAIN DELETE FROM customers'),
    expect: { error: 'unsafe' },
  },
  { name: 'BEGIN IMMEDIATE', kind: 'write', reply: sql('BEGIN IMMEDIATE'), expect: { error: 'unsafe' } },
  { name: 'SAVEPOINT', kind: 'write', reply: sql('SAVEPOINT mine'), expect: { error: 'unsafe' } },

  // ---- escape: other files, other statements, the process
  {
    name: 'VACUUM INTO a file',
    kind: 'escape',
    reply: (scratch) => sql(`VACUUM INTO ${quote(`${scratch}/copy.sqlite`)}`),
    expect: { error: 'unsafe' },
  },
  {
    name: 'ATTACH a new file',
    kind: 'escape',
    reply: (scratch) => sql(`ATTACH DATABASE ${quote(`${scratch}/new.sqlite`)} AS other`),
    expect: { error: 'unsafe' },
  },
  {
    name: 'ATTACH an in-memory database',
    kind: 'escape',
    reply: sql("ATTACH ':memory:' AS m"),
    expect: { error: 'unsafe' },
  },
  {
    name: 'a stacked DELETE',
    kind: 'escape',
    reply: sql(`${RIGHT}; DELETE FROM customers`),
    expect: { error: 'unsafe' },
  },
  {
    name: 'a stacked ATTACH behind a comment',
    kind: 'escape',
    reply: sql(`${RIGHT} -- the answer\n; ATTACH ':memory:' AS m`),
    expect: { error: 'unsafe' },
  },
  {
    name: 'load_extension',
    kind: 'escape',
    reply: sql("SELECT load_extension('libc.so.6')"),
    expect: { error: 'unsafe' },
  },
  { name: 'readfile', kind: 'escape', reply: sql("SELECT readfile('SHA256SUMS')"), expect: { error: 'syntax' } },
  { name: 'writefile', kind: 'escape', reply: sql("SELECT writefile('out.txt', 'x')"), expect: { error: 'syntax' } },
  {
    name: 'a temporary-file directory',
    kind: 'escape',
    reply: sql("PRAGMA temp_store_directory = 'elsewhere'"),
    expect: { error: 'syntax' },
  },

  // ---- cheat: read what is fine to read, change nothing for later queries
  {
    name: 'peeking at sqlite_master (fine: a wrong answer)',
    kind: 'cheat',
    reply: sql('SELECT COUNT(*) FROM sqlite_master'),
    expect: { pass: false },
  },
  {
    name: 'reading the table list (fine: a wrong answer)',
    kind: 'cheat',
    reply: sql('PRAGMA table_info(customers)'),
    expect: { pass: false },
  },
  {
    name: 'reading where the database lives (fine: a wrong answer)',
    kind: 'cheat',
    reply: sql('SELECT file FROM pragma_database_list'),
    expect: { pass: false },
  },
  {
    name: 'a setting SQLite reports as a read-only query: mmap_size',
    kind: 'cheat',
    reply: sql('PRAGMA mmap_size = 1000000'),
    expect: { error: 'unsafe' },
  },
  {
    name: 'a setting SQLite reports as a read-only query: busy_timeout',
    kind: 'cheat',
    reply: sql('PRAGMA busy_timeout = 1'),
    expect: { error: 'unsafe' },
  },
  {
    name: 'a setting SQLite reports as a read-only query: locking_mode',
    kind: 'cheat',
    reply: sql('PRAGMA locking_mode = EXCLUSIVE'),
    expect: { error: 'unsafe' },
  },
  {
    name: 'a process-wide setting: hard_heap_limit',
    kind: 'cheat',
    reply: sql('PRAGMA hard_heap_limit = 1000'),
    expect: { error: 'unsafe' },
  },
  {
    name: 'a setting through the function form',
    kind: 'cheat',
    reply: sql('PRAGMA cache_size(1)'),
    expect: { error: 'unsafe' },
  },
  {
    name: 'reverse the order of unordered selects',
    kind: 'cheat',
    reply: sql('PRAGMA reverse_unordered_selects = 1'),
    expect: { error: 'unsafe' },
  },
  {
    name: 'the fts3 tokenizer pointer',
    kind: 'cheat',
    reply: sql("SELECT fts3_tokenizer('simple')"),
    expect: { pass: false },
  },
  {
    name: 'the right answer, written differently',
    kind: 'cheat',
    reply: sql('select count(*) from CUSTOMERS where EMAIL is null;'),
    expect: { pass: true },
  },
];
