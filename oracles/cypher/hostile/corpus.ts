/**
 * Hostile answers to a CypherBench question: huge, slow, result bombs, malformed, or trying to
 * write, escape or cheat. Each names the verdict error kinds it may get (more than one only where
 * the engine decides which limit it meets first, e.g. memory or the result cap). hostile.test.ts
 * runs them all on the real Neo4j and checks the verdict, the time, the graph and the server.
 */
import type { ErrorKind } from '../../../core/types.ts';

export interface HostileAnswer {
  name: string;
  query: string;
  kinds: readonly ErrorKind[];
  /** The answer runs until a timeout stops it (the test allows it the timeout and the server's reaping). */
  slow?: boolean;
}

const list = (n: number) => `[${Array.from({ length: n }, (_, i) => i).join(',')}]`;

export const HOSTILE_CORPUS: readonly HostileAnswer[] = [
  // Huge query texts.
  { name: '5 MB string literal', query: `RETURN '${'a'.repeat(5_000_000)}' AS s`, kinds: ['too-complex'] },
  { name: '100,000-element list literal', query: `RETURN ${list(100_000)} AS l`, kinds: ['too-complex'] },
  {
    name: 'parentheses nested 3,000 deep',
    query: `RETURN ${'('.repeat(3_000)}1${')'.repeat(3_000)} AS x`,
    kinds: ['too-complex'],
  },
  {
    name: 'a list built 100,000 levels deep',
    query: 'RETURN reduce(l = [], i IN range(1, 100000) | [l]) AS x',
    kinds: ['too-complex', 'too-large'],
  },
  // Slow: a timeout ends them; or, when a neighbour fills the server's heap meanwhile, the reaper may stop
  // one of them first for what it allocates (their garbage counts as much as a neighbour's values).
  {
    name: 'cartesian product of every node, four times',
    query: 'MATCH (a), (b), (c), (d) WHERE a.name < b.name AND c.name < d.name RETURN count(*) AS n',
    kinds: ['timeout', 'too-large'],
    slow: true,
  },
  {
    name: 'ten billion iterations of a pure range loop',
    query: 'UNWIND range(1, 100000) AS x UNWIND range(1, 100000) AS y RETURN count(*) AS n',
    kinds: ['timeout', 'too-large'],
    slow: true,
  },
  {
    name: 'reduce over two billion numbers',
    query: 'RETURN reduce(s = 0, i IN range(1, 2000000000) | s + i) AS n',
    kinds: ['timeout', 'too-large'],
    slow: true,
  },
  {
    name: 'variable-length path explosion',
    query: 'MATCH p = (a)-[*]-(b) RETURN count(p) AS n',
    kinds: ['timeout', 'too-large'],
    slow: true,
  },
  {
    name: 'every path of up to 12 hops, collected',
    query: 'MATCH p = (a:Airline)-[*..12]-(b) RETURN a.name, collect(length(p)) AS hops',
    kinds: ['timeout', 'too-large'],
    slow: true,
  },
  // Result bombs: stopped at the heap or byte cap (too-large) within a second on an idle machine; on a
  // loaded one the query deadline may come first (timeout). Either way the answer is stopped and named.
  {
    name: 'a string doubled 30 times',
    query: "RETURN reduce(s = '', i IN range(1, 30) | s + s + 'x') AS s",
    kinds: ['too-large', 'timeout'],
  },
  {
    name: 'ten million integers in one cell',
    query: 'RETURN range(1, 10000000) AS l',
    kinds: ['too-large', 'timeout'],
  },
  {
    name: 'a list comprehension of ten million strings',
    query: 'RETURN [x IN range(1, 10000000) | toString(x)] AS l',
    kinds: ['too-large', 'timeout'],
  },
  {
    name: 'a hundred million rows',
    query: 'UNWIND range(1, 100000000) AS x RETURN x',
    kinds: ['too-large', 'timeout'],
  },
  {
    name: 'every node joined to every node',
    query: 'MATCH (a), (b) RETURN a.name, b.name',
    kinds: ['too-large', 'timeout'],
  },
  {
    name: 'a map holding ten million values',
    query: 'RETURN {big: range(1, 10000000)} AS m',
    kinds: ['too-large', 'timeout'],
  },
  // Malformed.
  { name: 'unbalanced parenthesis', query: 'MATCH (n:Airline RETURN n.name', kinds: ['syntax'] },
  { name: 'two statements', query: 'MATCH (n:Airline) RETURN n.name; MATCH (n) RETURN n', kinds: ['syntax'] },
  { name: 'only a comment', query: '// MATCH (n) RETURN n', kinds: ['syntax'] },
  {
    name: 'a NUL byte',
    query: "MATCH (n:Airline) WHERE n.name = 'x' RETURN n.name\u0000; MATCH (n) DETACH DELETE n",
    kinds: ['syntax'],
  },
  { name: 'binary junk', query: '\u0001\u0002\u00ff\ufffd\ud800 RETURN', kinds: ['syntax'] },
  { name: 'an unterminated string', query: "MATCH (n:Airline) WHERE n.name = 'Pavotaes RETURN n", kinds: ['syntax'] },
  { name: 'EXPLAIN in front', query: 'EXPLAIN MATCH (n:Airline) RETURN n.name', kinds: ['syntax'] },
  { name: 'PROFILE in front', query: 'PROFILE MATCH (n:Airline) RETURN n.name', kinds: ['syntax'] },
  { name: 'a missing parameter', query: 'MATCH (n:Airline {name: $gold}) RETURN n.name', kinds: ['runtime'] },
  {
    name: 'USING PERIODIC COMMIT (gone in Neo4j 5)',
    query: "USING PERIODIC COMMIT 10 LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l",
    kinds: ['syntax'],
  },
  // Writes.
  { name: 'CREATE', query: 'CREATE (n:Injected {x: 1}) RETURN n.x', kinds: ['unsafe'] },
  { name: 'MERGE', query: "MERGE (n:Airline {name: 'Witness Air'}) RETURN n.name", kinds: ['unsafe'] },
  { name: 'DETACH DELETE', query: 'MATCH (n) DETACH DELETE n', kinds: ['unsafe'] },
  { name: 'SET', query: "MATCH (n:Airline) SET n.name = 'x' RETURN count(n)", kinds: ['unsafe'] },
  { name: 'REMOVE', query: 'MATCH (n:Airline) REMOVE n.name RETURN count(n)', kinds: ['unsafe'] },
  { name: 'FOREACH with CREATE', query: 'FOREACH (x IN [1, 2] | CREATE (:Injected {x: x}))', kinds: ['unsafe'] },
  {
    name: 'a write inside CALL { }',
    query: 'MATCH (n:Airline) WITH n LIMIT 1 CALL { WITH n SET n.fleet_size = -1 } RETURN n.name',
    kinds: ['unsafe'],
  },
  {
    name: 'CALL { } IN TRANSACTIONS deleting',
    query: 'MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10 ROWS',
    kinds: ['unsafe'],
  },
  {
    name: 'CALL { } IN TRANSACTIONS reading',
    query: 'MATCH (n:Airline) CALL { WITH n RETURN n.name AS name } IN TRANSACTIONS RETURN name',
    kinds: ['runtime', 'unsafe'],
  },
  { name: 'CREATE INDEX', query: 'CREATE INDEX injected FOR (n:Airline) ON (n.fleet_size)', kinds: ['unsafe'] },
  { name: 'DROP INDEX', query: 'DROP INDEX injected IF EXISTS', kinds: ['unsafe'] },
  {
    name: 'CREATE CONSTRAINT',
    query: 'CREATE CONSTRAINT injected FOR (n:Airline) REQUIRE n.name IS UNIQUE',
    kinds: ['unsafe'],
  },
  { name: 'CALL db.createLabel', query: "CALL db.createLabel('Injected')", kinds: ['unsafe'] },
  { name: 'CALL db.clearQueryCaches', query: 'CALL db.clearQueryCaches()', kinds: ['unsafe'] },
  // Escapes: files, URLs, the server and its other databases.
  { name: 'LOAD CSV from a file', query: "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line", kinds: ['unsafe'] },
  {
    name: 'LOAD CSV from a URL',
    query: "LOAD CSV FROM 'http://127.0.0.1:9/x.csv' AS line RETURN line",
    kinds: ['unsafe'],
  },
  { name: 'CALL dbms.components', query: 'CALL dbms.components() YIELD name RETURN name', kinds: ['unsafe'] },
  {
    name: 'CALL dbms.listConfig',
    query: 'CALL dbms.listConfig() YIELD name, value RETURN name, value',
    kinds: ['unsafe', 'runtime'],
  },
  {
    name: 'CALL dbms.setConfigValue',
    query: "CALL dbms.setConfigValue('db.transaction.timeout', '0')",
    kinds: ['unsafe', 'runtime'],
  },
  {
    name: 'CALL apoc.load.json',
    query: "CALL apoc.load.json('file:///etc/passwd') YIELD value RETURN value",
    kinds: ['runtime', 'syntax', 'unsafe'],
  },
  {
    name: 'CALL apoc.cypher.runWrite',
    query: "CALL apoc.cypher.runWrite('MATCH (n) DETACH DELETE n', {})",
    kinds: ['runtime', 'syntax', 'unsafe'],
  },
  { name: 'USE system', query: 'USE system SHOW USERS', kinds: ['unsafe', 'runtime', 'syntax'] },
  { name: 'USE system, reading', query: 'USE system MATCH (n) RETURN count(n)', kinds: ['unsafe', 'runtime'] },
  { name: 'SHOW USERS', query: 'SHOW USERS', kinds: ['unsafe', 'runtime'] },
  { name: 'SHOW DATABASES', query: 'SHOW DATABASES', kinds: ['unsafe', 'runtime'] },
  {
    name: 'SHOW TRANSACTIONS (the gold runs beside it)',
    query: 'SHOW TRANSACTIONS YIELD currentQuery RETURN currentQuery',
    kinds: ['unsafe'],
  },
  { name: 'TERMINATE TRANSACTIONS', query: "TERMINATE TRANSACTIONS 'neo4j-transaction-1'", kinds: ['unsafe'] },
  { name: 'CREATE DATABASE', query: 'CREATE DATABASE injected', kinds: ['unsafe', 'runtime'] },
  { name: 'ALTER USER', query: "ALTER USER neo4j SET PASSWORD 'witness-owned'", kinds: ['unsafe', 'runtime'] },
  // Transaction control.
  { name: 'BEGIN', query: 'BEGIN', kinds: ['syntax'] },
  { name: 'COMMIT', query: 'COMMIT', kinds: ['syntax'] },
  { name: 'ROLLBACK', query: 'ROLLBACK', kinds: ['syntax'] },
  { name: ':begin', query: ':begin\nCREATE (n:Injected)\n:commit', kinds: ['syntax'] },
];
