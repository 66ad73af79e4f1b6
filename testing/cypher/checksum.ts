/**
 * A checksum of everything in the database — every node's labels and properties, every
 * relationship's endpoints (by eid), type and properties, with value types and list order kept —
 * to prove that running candidates, refusing unsafe ones and hardening on graph variants never
 * modify the graph.
 */
import { createHash } from 'node:crypto';
import neo4j, { type Driver } from 'neo4j-driver';

export interface GraphChecksum {
  nodes: number;
  relationships: number;
  /** sha256 of the sorted canonical node and relationship lines. */
  sha256: string;
}

/** A value as text that keeps its type (integer, float, date, …) and list order; map keys sorted. */
function strict(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (neo4j.isInt(value)) return `i${value.toString()}`;
  if (typeof value === 'number') return `f${value}`;
  if (typeof value === 'string') return `s${JSON.stringify(value)}`;
  if (typeof value === 'boolean') return `b${value}`;
  if (Array.isArray(value)) return `[${value.map(strict).join(',')}]`;
  if (
    neo4j.isDate(value) ||
    neo4j.isDateTime(value) ||
    neo4j.isLocalDateTime(value) ||
    neo4j.isDuration(value) ||
    neo4j.isPoint(value)
  ) {
    return `t${value.constructor.name}:${String(value)}`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${strict(v)}`).join(',')}}`;
  }
  return `?${String(value)}`;
}

/** Counts and a content hash of the whole database. */
export async function graphChecksum(driver: Driver, database?: string): Promise<GraphChecksum> {
  const nodes = await driver.executeQuery(
    'MATCH (n) RETURN labels(n) AS labels, properties(n) AS props',
    {},
    { database, routing: 'READ' },
  );
  const rels = await driver.executeQuery(
    'MATCH (a)-[r]->(b) RETURN coalesce(a.eid, elementId(a)) AS a, type(r) AS type, coalesce(b.eid, elementId(b)) AS b, properties(r) AS props',
    {},
    { database, routing: 'READ' },
  );
  const lines = [
    ...nodes.records.map((r) => `N ${strict([...(r.get('labels') as string[])].sort())} ${strict(r.get('props'))}`),
    ...rels.records.map((r) => `R ${r.get('a')} ${r.get('type')} ${r.get('b')} ${strict(r.get('props'))}`),
  ].sort();
  return {
    nodes: nodes.records.length,
    relationships: rels.records.length,
    sha256: createHash('sha256').update(lines.join('\n')).digest('hex'),
  };
}
