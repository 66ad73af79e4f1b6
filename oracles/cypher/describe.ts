/**
 * The graph as an Observer describes it (for HERO-T): read from the live database, not from the
 * dataset — labels with node counts, relationship types with their endpoint labels and counts,
 * property names with their Neo4j types and a few sample values. Like CypherBench's schema, the
 * loader's bookkeeping properties (eid, description, aliases, provenance) are left out. Property
 * types are read from up to 2,000 nodes or relationships per label or type.
 */
import type { Driver } from 'neo4j-driver';
import { fromNeo4j, formatCell } from './values.ts';

const HIDDEN = ['eid', 'description', 'aliases', 'provenance'];
const quote = (name: string) => `\`${name.replace(/`/g, '``')}\``;

interface PropertyInfo {
  key: string;
  types: string[];
  samples: string[];
}

async function properties(
  driver: Driver,
  match: string,
  variable: string,
  database?: string,
  samples = 3,
): Promise<PropertyInfo[]> {
  const keys = await driver.executeQuery(
    `${match} WITH ${variable} LIMIT 2000 UNWIND keys(${variable}) AS k WITH k, ${variable} WHERE NOT k IN $hidden RETURN k, collect(DISTINCT valueType(${variable}[k])) AS types ORDER BY k`,
    { hidden: HIDDEN },
    { database, routing: 'READ' },
  );
  const out: PropertyInfo[] = [];
  for (const record of keys.records) {
    const key = record.get('k') as string;
    const values = await driver.executeQuery(
      `${match} WHERE ${variable}[$k] IS NOT NULL RETURN DISTINCT ${variable}[$k] AS v LIMIT ${samples}`,
      { k: key },
      { database, routing: 'READ' },
    );
    out.push({
      key,
      types: (record.get('types') as string[]).map((t) => t.replace(/ NOT NULL$/, '')),
      samples: values.records.map((r) => formatCell(fromNeo4j(r.get('v')), 40)),
    });
  }
  return out;
}

function propertyLines(list: PropertyInfo[]): string[] {
  return list.map(
    (p) => `    ${p.key}: ${p.types.join(' | ')}${p.samples.length ? `, e.g. ${p.samples.join(', ')}` : ''}`,
  );
}

/** A text description of the graph in the database: schema and sample values. */
export async function describeGraph(
  driver: Driver,
  options: { name?: string; database?: string } = {},
): Promise<string> {
  const database = options.database;
  const read = (query: string) => driver.executeQuery(query, {}, { database, routing: 'READ' });
  const totals = await read(
    'MATCH (n) WITH count(n) AS nodes OPTIONAL MATCH ()-[r]->() RETURN nodes, count(r) AS rels',
  );
  const nodes = Number(totals.records[0]?.get('nodes') ?? 0);
  const rels = Number(totals.records[0]?.get('rels') ?? 0);
  const lines = [
    `Graph${options.name ? ` ${options.name}` : ''} (Neo4j 5.20): ${nodes} nodes, ${rels} relationships.`,
    '',
    'Node labels:',
  ];
  const labels = await read('MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS n ORDER BY label');
  for (const record of labels.records) {
    const label = record.get('label') as string;
    lines.push(`- ${label} (${Number(record.get('n'))} nodes)`);
    lines.push(...propertyLines(await properties(driver, `MATCH (n:${quote(label)})`, 'n', database)));
  }
  lines.push('', 'Relationship types (with the labels they connect):');
  const types = await read(
    'MATCH (a)-[r]->(b) RETURN head(labels(a)) AS from, type(r) AS type, head(labels(b)) AS to, count(*) AS n ORDER BY type, from, to',
  );
  const described = new Set<string>();
  for (const record of types.records) {
    const type = record.get('type') as string;
    lines.push(`- (:${record.get('from')})-[:${type}]->(:${record.get('to')}) (${Number(record.get('n'))})`);
    if (!described.has(type)) {
      described.add(type);
      lines.push(...propertyLines(await properties(driver, `MATCH ()-[r:${quote(type)}]->()`, 'r', database)));
    }
  }
  return lines.join('\n');
}
