/**
 * Loads a SimpleKG graph into Neo4j with the end state of CypherBench's loader image
 * (benchmarks.md §2.5): one node per entity with its label and `name`, `eid`, `description`,
 * `aliases`, `provenance` and the declared properties (dates as Neo4j dates), one typed
 * relationship per relation (`rid` is not stored), and the same indexes: `eid` per label, every
 * declared node property (plus name, description, aliases, provenance) and every relationship
 * property. The route there is faster than upstream's: all indexes first, in one schema
 * transaction on the empty database, then nodes and relationships in batches of 500 through one
 * query text each instead of one per label and per triple.
 *
 * A graph is only ever loaded into an empty database; `ensureGraph` reuses a database that already
 * holds exactly this graph and refuses anything else unless told it may replace the contents
 * (servers Witness started itself). Recognizing the graph is cheap at any size: the load names one
 * index after the source file's SHA-256 and the loader version (the marker, invisible to queries),
 * so reuse needs the index list and the two counts Neo4j keeps, never a scan of the graph. A
 * database without a marker (loaded by another tool or an older Witness), or a graph built in memory
 * rather than read from a file, is compared by counts and the hash of all eids instead.
 */
import { createHash } from 'node:crypto';
import neo4j, { type Driver } from 'neo4j-driver';
import {
  simpleKGFileHash,
  simpleKGSourceHash,
  type EntitySchema,
  type RelationSchema,
  type SimpleDtype,
  type SimpleKG,
  type SimpleValue,
} from './simplekg.ts';

export interface LoadOptions {
  batchSize?: number;
  database?: string;
}

/** Bumped whenever the loader's end state changes, so databases loaded by an older loader are reloaded. */
export const LOADER_VERSION = 2;
const MARKER_PREFIX = 'witness_source_';

/** The name of the index that marks a database loaded from the source with this SHA-256. */
export function sourceMarker(sourceHash: string): string {
  return `${MARKER_PREFIX}v${LOADER_VERSION}_${sourceHash}`;
}

/** The source markers a database carries (normally none or one). */
export async function sourceMarkers(driver: Driver, database?: string): Promise<string[]> {
  const result = await driver.executeQuery(
    'SHOW INDEXES YIELD name WHERE name STARTS WITH $prefix RETURN name',
    { prefix: MARKER_PREFIX },
    { database, routing: 'READ' },
  );
  return result.records.map((r) => r.get('name') as string);
}

/** Node and relationship counts, from Neo4j's count store (constant time). */
async function databaseCounts(driver: Driver, database?: string): Promise<{ nodes: number; relationships: number }> {
  const nodes = await driver.executeQuery('MATCH (n) RETURN count(n) AS n', {}, { database, routing: 'READ' });
  const rels = await driver.executeQuery('MATCH ()-[r]->() RETURN count(r) AS n', {}, { database, routing: 'READ' });
  return { nodes: Number(nodes.records[0]?.get('n') ?? 0), relationships: Number(rels.records[0]?.get('n') ?? 0) };
}

export interface GraphFingerprint {
  nodes: number;
  relationships: number;
  /** sha256 (16 hex digits) of the sorted eids. */
  eids: string;
}

const quote = (name: string) => `\`${name.replace(/`/g, '``')}\``;
const cypherString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function toDate(iso: string) {
  const m = /^(-?\d{4,})-(\d{2})-(\d{2})$/.exec(iso) as RegExpExecArray;
  return new neo4j.types.Date(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** A SimpleKG value as a driver parameter of the declared type (ints as Neo4j integers, dates as dates). */
function toParameter(dtype: SimpleDtype, value: SimpleValue): unknown {
  const scalar = dtype.startsWith('list[') ? dtype.slice(5, -1) : dtype;
  const convert = (v: unknown) =>
    scalar === 'int' ? neo4j.int(v as number) : scalar === 'date' ? toDate(v as string) : v;
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
  return {
    nodes: kg.entities.length,
    relationships: kg.relations.length,
    eids: createHash('sha256').update(eids.join('\n')).digest('hex').slice(0, 16),
  };
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

const sameFingerprint = (a: GraphFingerprint, b: GraphFingerprint) =>
  a.nodes === b.nodes && a.relationships === b.relationships && a.eids === b.eids;

/** Loads `kg` into an empty database. Throws if the database is not empty. */
export async function loadSimpleKG(driver: Driver, kg: SimpleKG, options: LoadOptions = {}): Promise<GraphFingerprint> {
  const batchSize = options.batchSize ?? 500;
  const database = options.database;
  const marker = sourceMarker(simpleKGSourceHash(kg));
  const before = await databaseFingerprint(driver, database);
  if (before.nodes > 0 || before.relationships > 0) {
    throw new Error(
      `cannot load graph ${kg.schema.name}: the database is not empty (${before.nodes} nodes, ${before.relationships} relationships)`,
    );
  }
  const session = driver.session({ database, defaultAccessMode: neo4j.session.WRITE });
  try {
    // The same indexes as the upstream loader, created up front in one schema transaction (many
    // times faster than one by one) while the database is still empty.
    // The first label's eid index carries the source marker as its name.
    const first = kg.schema.entities[0];
    const indexes: string[] = first
      ? [`CREATE INDEX ${quote(marker)} IF NOT EXISTS FOR (n:${quote(first.label)}) ON (n.${quote('eid')})`]
      : [];
    for (const entitySchema of kg.schema.entities) {
      for (const key of [
        'eid',
        'name',
        'description',
        'aliases',
        'provenance',
        ...Object.keys(entitySchema.properties),
      ]) {
        indexes.push(`CREATE INDEX IF NOT EXISTS FOR (n:${quote(entitySchema.label)}) ON (n.${quote(key)})`);
      }
    }
    for (const relationSchema of kg.schema.relations) {
      for (const key of Object.keys(relationSchema.properties))
        indexes.push(`CREATE INDEX IF NOT EXISTS FOR ()-[r:${quote(relationSchema.label)}]-() ON (r.${quote(key)})`);
    }
    await session.executeWrite(async (tx) => {
      for (const statement of new Set(indexes)) await tx.run(statement);
    });
    await session.run('CALL db.awaitIndexes(300)');
    // One query text for all nodes and one for all relationships (labels and types chosen with
    // FOREACH): a cold server plans each distinct text slowly, and a graph has dozens of triples.
    const entitySchemas = new Map(kg.schema.entities.map((e) => [e.label, e]));
    const setLabel = kg.schema.entities
      .map(
        (e) =>
          `FOREACH (_ IN CASE WHEN row.label = ${cypherString(e.label)} THEN [1] ELSE [] END | SET n:${quote(e.label)})`,
      )
      .join(' ');
    const nodeRows = kg.entities.map((e) => {
      const declared = (entitySchemas.get(e.label) as EntitySchema).properties;
      const props: Record<string, unknown> = { eid: e.eid, aliases: e.aliases, provenance: e.provenance };
      if (e.name !== null) props.name = e.name;
      if (e.description !== null) props.description = e.description;
      for (const [key, value] of Object.entries(e.properties))
        props[key] = toParameter(declared[key] as SimpleDtype, value);
      return { label: e.label, props };
    });
    const ids = new Map<string, string>();
    for (const batch of chunks(nodeRows, batchSize)) {
      const result = await session.executeWrite((tx) =>
        tx.run(`UNWIND $rows AS row CREATE (n) SET n = row.props ${setLabel} RETURN n.eid AS eid, elementId(n) AS id`, {
          rows: batch,
        }),
      );
      for (const r of result.records) ids.set(r.get('eid'), r.get('id'));
    }
    const relationSchemas = new Map(
      kg.schema.relations.map((r) => [`${r.label}\u0000${r.subj_label}\u0000${r.obj_label}`, r]),
    );
    const labelOf = new Map(kg.entities.map((e) => [e.eid, e.label]));
    const types = [...new Set(kg.schema.relations.map((r) => r.label))];
    const createTyped = types
      .map(
        (t) =>
          `FOREACH (_ IN CASE WHEN row.type = ${cypherString(t)} THEN [1] ELSE [] END | CREATE (a)-[r:${quote(t)}]->(b) SET r = row.props)`,
      )
      .join(' ');
    const relationRows = kg.relations.map((r) => {
      const declared = relationSchemas.get(
        `${r.label}\u0000${labelOf.get(r.subj_id)}\u0000${labelOf.get(r.obj_id)}`,
      ) as RelationSchema;
      const props: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(r.properties))
        props[key] = toParameter(declared.properties[key] as SimpleDtype, value);
      return { a: ids.get(r.subj_id), b: ids.get(r.obj_id), type: r.label, props };
    });
    const relationQuery = `UNWIND $rows AS row MATCH (a) WHERE elementId(a) = row.a MATCH (b) WHERE elementId(b) = row.b ${createTyped}`;
    for (const batch of chunks(relationRows, batchSize))
      await session.executeWrite((tx) => tx.run(relationQuery, { rows: batch }));
    await session.run('CALL db.awaitIndexes(300)');
  } finally {
    await session.close();
  }
  const after = await databaseFingerprint(driver, database);
  const expected = graphFingerprint(kg);
  if (!sameFingerprint(after, expected)) {
    throw new Error(
      `loading graph ${kg.schema.name} gave ${after.nodes} nodes and ${after.relationships} relationships, expected ${expected.nodes} and ${expected.relationships}`,
    );
  }
  return after;
}

/** Deletes every node, relationship, index (except token lookups) and constraint. */
async function clearDatabase(driver: Driver, database?: string): Promise<void> {
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
 * Null when the database holds `kg`, else why not: the marker of its source with the graph's
 * counts, or (no marker) the counts and eids. Cheap whenever the database carries a marker.
 */
export async function graphProblem(driver: Driver, kg: SimpleKG, database?: string): Promise<string | null> {
  const markers = await sourceMarkers(driver, database);
  const counts = await databaseCounts(driver, database);
  const want = { nodes: kg.entities.length, relationships: kg.relations.length };
  const sameCounts = counts.nodes === want.nodes && counts.relationships === want.relationships;
  const has = `it has ${counts.nodes} nodes and ${counts.relationships} relationships; the graph has ${want.nodes} and ${want.relationships}`;
  const fileHash = simpleKGFileHash(kg);
  // A graph built in memory is compared by content; one read from a file by its file's marker.
  if (markers.length > 0 && fileHash) {
    if (markers.includes(sourceMarker(fileHash)) && sameCounts) return null;
    return `the database does not hold graph ${kg.schema.name} as read from its file (it was loaded from another source or by another loader version: ${markers.join(', ')}; ${has})`;
  }
  if (!sameCounts) return `the database does not hold graph ${kg.schema.name} (${has})`;
  return sameFingerprint(await databaseFingerprint(driver, database), graphFingerprint(kg))
    ? null
    : `the database does not hold graph ${kg.schema.name} (same counts, other eids)`;
}

/**
 * Makes the database hold `kg`: reuses a database that already holds it (see graphProblem), loads
 * it into an empty database, and replaces other contents only when `replace` is set. Throws otherwise.
 * `beforeLoad` runs just before the database is changed (a kept store marks itself partial there).
 */
export async function ensureGraph(
  driver: Driver,
  kg: SimpleKG,
  options: LoadOptions & { replace?: boolean; beforeLoad?: () => void } = {},
): Promise<EnsureOutcome> {
  const problem = await graphProblem(driver, kg, options.database);
  if (problem === null) return 'reused';
  const current = await databaseCounts(driver, options.database);
  if (current.nodes === 0 && current.relationships === 0) {
    options.beforeLoad?.();
    await clearDatabase(driver, options.database);
    await loadSimpleKG(driver, kg, options);
    return 'loaded';
  }
  if (!options.replace) {
    throw new Error(
      `the database holds other data (${current.nodes} nodes, ${current.relationships} relationships), not graph ${kg.schema.name}; ` +
        'Witness loads a graph only into an empty database (or one that already holds exactly that graph) and never overwrites a server it did not start',
    );
  }
  options.beforeLoad?.();
  await clearDatabase(driver, options.database);
  await loadSimpleKG(driver, kg, options);
  return 'replaced';
}
