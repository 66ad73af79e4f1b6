/**
 * Loads a SimpleKG graph into Neo4j the way CypherBench's loader image does (benchmarks.md §2.5):
 * nodes per label in batches (`name`, `eid`, `description`, `aliases`, `provenance` and the
 * declared properties; dates as Neo4j dates), relationships per schema triple matched by eid
 * (`rid` is not stored), and the same indexes: `eid` per label, every declared node property
 * (plus name, description, aliases, provenance) and every relationship property. Unlike the
 * upstream loader, all indexes are created first, in one schema transaction, on the empty
 * database: the same end state, several times faster.
 *
 * A graph is only ever loaded into an empty database; `ensureGraph` reuses a database that already
 * holds exactly this graph (same counts and eids) and refuses anything else unless told it may
 * replace the contents (servers Witness started itself).
 */
import { createHash } from 'node:crypto';
import neo4j, { type Driver } from 'neo4j-driver';
import type { SimpleDtype, SimpleKG, SimpleValue } from './simplekg.ts';

export interface LoadOptions {
  batchSize?: number;
  database?: string;
}

export interface GraphFingerprint {
  nodes: number;
  relationships: number;
  /** sha256 (16 hex digits) of the sorted eids. */
  eids: string;
}

const quote = (name: string) => `\`${name.replace(/`/g, '``')}\``;

function toDate(iso: string) {
  const m = /^(-?\d{4,})-(\d{2})-(\d{2})$/.exec(iso) as RegExpExecArray;
  return new neo4j.types.Date(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** A SimpleKG value as a driver parameter of the declared type (ints as Neo4j integers, dates as dates). */
export function toParameter(dtype: SimpleDtype, value: SimpleValue): unknown {
  const scalar = dtype.startsWith('list[') ? dtype.slice(5, -1) : dtype;
  const convert = (v: unknown) => (scalar === 'int' ? neo4j.int(v as number) : scalar === 'date' ? toDate(v as string) : v);
  return Array.isArray(value) ? value.map(convert) : convert(value);
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The fingerprint a database holding exactly this graph has. */
export function graphFingerprint(kg: SimpleKG): GraphFingerprint {
  const eids = kg.entities.map((e) => e.eid).sort();
  return { nodes: kg.entities.length, relationships: kg.relations.length, eids: createHash('sha256').update(eids.join('\n')).digest('hex').slice(0, 16) };
}

/** The fingerprint of what the database holds now. */
export async function databaseFingerprint(driver: Driver, database?: string): Promise<GraphFingerprint> {
  const nodes = await driver.executeQuery('MATCH (n) RETURN count(n) AS n', {}, { database, routing: 'READ' });
  const rels = await driver.executeQuery('MATCH ()-[r]->() RETURN count(r) AS n', {}, { database, routing: 'READ' });
  const eids = await driver.executeQuery('MATCH (n) RETURN n.eid AS eid', {}, { database, routing: 'READ' });
  const sorted = eids.records.map((r) => String(r.get('eid'))).sort();
  return {
    nodes: Number(nodes.records[0]?.get('n') ?? 0),
    relationships: Number(rels.records[0]?.get('n') ?? 0),
    eids: createHash('sha256').update(sorted.join('\n')).digest('hex').slice(0, 16),
  };
}

const sameFingerprint = (a: GraphFingerprint, b: GraphFingerprint) => a.nodes === b.nodes && a.relationships === b.relationships && a.eids === b.eids;

/** Loads `kg` into an empty database. Throws if the database is not empty. */
export async function loadSimpleKG(driver: Driver, kg: SimpleKG, options: LoadOptions = {}): Promise<GraphFingerprint> {
  const batchSize = options.batchSize ?? 500;
  const database = options.database;
  const before = await databaseFingerprint(driver, database);
  if (before.nodes > 0 || before.relationships > 0) {
    throw new Error(`cannot load graph ${kg.schema.name}: the database is not empty (${before.nodes} nodes, ${before.relationships} relationships)`);
  }
  const session = driver.session({ database, defaultAccessMode: neo4j.session.WRITE });
  try {
    // The same indexes as the upstream loader, created up front in one schema transaction (many
    // times faster than one by one) while the database is still empty.
    const indexes: string[] = [];
    for (const entitySchema of kg.schema.entities) {
      for (const key of ['eid', 'name', 'description', 'aliases', 'provenance', ...Object.keys(entitySchema.properties)]) {
        indexes.push(`CREATE INDEX IF NOT EXISTS FOR (n:${quote(entitySchema.label)}) ON (n.${quote(key)})`);
      }
    }
    for (const relationSchema of kg.schema.relations) {
      for (const key of Object.keys(relationSchema.properties)) indexes.push(`CREATE INDEX IF NOT EXISTS FOR ()-[r:${quote(relationSchema.label)}]-() ON (r.${quote(key)})`);
    }
    await session.executeWrite(async (tx) => {
      for (const statement of new Set(indexes)) await tx.run(statement);
    });
    await session.run('CALL db.awaitIndexes(300)');
    for (const entitySchema of kg.schema.entities) {
      const rows = kg.entities
        .filter((e) => e.label === entitySchema.label)
        .map((e) => {
          const props: Record<string, unknown> = { eid: e.eid, aliases: e.aliases, provenance: e.provenance };
          if (e.name !== null) props.name = e.name;
          if (e.description !== null) props.description = e.description;
          for (const [key, value] of Object.entries(e.properties)) props[key] = toParameter(entitySchema.properties[key] as SimpleDtype, value);
          return props;
        });
      for (const batch of chunks(rows, batchSize)) {
        await session.executeWrite((tx) => tx.run(`UNWIND $rows AS row CREATE (n:${quote(entitySchema.label)}) SET n = row`, { rows: batch }));
      }
    }
    for (const relationSchema of kg.schema.relations) {
      const subjLabels = new Set(kg.entities.filter((e) => e.label === relationSchema.subj_label).map((e) => e.eid));
      const objLabels = new Set(kg.entities.filter((e) => e.label === relationSchema.obj_label).map((e) => e.eid));
      const rows = kg.relations
        .filter((r) => r.label === relationSchema.label && subjLabels.has(r.subj_id) && objLabels.has(r.obj_id))
        .map((r) => {
          const props: Record<string, unknown> = {};
          for (const [key, value] of Object.entries(r.properties)) props[key] = toParameter(relationSchema.properties[key] as SimpleDtype, value);
          return { s: r.subj_id, o: r.obj_id, props };
        });
      const query =
        `UNWIND $rows AS row MATCH (a:${quote(relationSchema.subj_label)} {eid: row.s}) MATCH (b:${quote(relationSchema.obj_label)} {eid: row.o}) ` +
        `CREATE (a)-[r:${quote(relationSchema.label)}]->(b) SET r = row.props`;
      for (const batch of chunks(rows, batchSize)) await session.executeWrite((tx) => tx.run(query, { rows: batch }));
    }
    await session.run('CALL db.awaitIndexes(300)');
  } finally {
    await session.close();
  }
  const after = await databaseFingerprint(driver, database);
  const expected = graphFingerprint(kg);
  if (!sameFingerprint(after, expected)) {
    throw new Error(`loading graph ${kg.schema.name} gave ${after.nodes} nodes and ${after.relationships} relationships, expected ${expected.nodes} and ${expected.relationships}`);
  }
  return after;
}

/** Deletes every node, relationship, index (except token lookups) and constraint. */
export async function clearDatabase(driver: Driver, database?: string): Promise<void> {
  const session = driver.session({ database, defaultAccessMode: neo4j.session.WRITE });
  try {
    await session.run('MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS');
    const constraints = await session.run('SHOW CONSTRAINTS YIELD name RETURN name');
    for (const r of constraints.records) await session.run(`DROP CONSTRAINT ${quote(r.get('name'))} IF EXISTS`);
    const indexes = await session.run("SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP' RETURN name");
    for (const r of indexes.records) await session.run(`DROP INDEX ${quote(r.get('name'))} IF EXISTS`);
  } finally {
    await session.close();
  }
}

export type EnsureOutcome = 'loaded' | 'reused' | 'replaced';

/**
 * Makes the database hold `kg`: loads it into an empty database, reuses a database that already
 * holds it, and replaces other contents only when `replace` is set. Throws otherwise.
 */
export async function ensureGraph(driver: Driver, kg: SimpleKG, options: LoadOptions & { replace?: boolean } = {}): Promise<EnsureOutcome> {
  const current = await databaseFingerprint(driver, options.database);
  if (sameFingerprint(current, graphFingerprint(kg))) return 'reused';
  if (current.nodes === 0 && current.relationships === 0) {
    await loadSimpleKG(driver, kg, options);
    return 'loaded';
  }
  if (!options.replace) {
    throw new Error(
      `the database holds other data (${current.nodes} nodes, ${current.relationships} relationships), not graph ${kg.schema.name}; ` +
        'Witness loads a graph only into an empty database (or one that already holds exactly that graph) and never overwrites a server it did not start',
    );
  }
  await clearDatabase(driver, options.database);
  await loadSimpleKG(driver, kg, options);
  return 'replaced';
}
