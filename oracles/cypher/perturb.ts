/**
 * Graph variants for hardening: small perturbations of the loaded graph — a relationship removed
 * or duplicated, a property set to a boundary value (a literal from the queries, one day or one
 * unit beside it, another entity's value) or removed — drawn with fast-check from pools of the
 * relationships and properties the gold and candidate queries touch (near the entities they name).
 * A variant only ever exists inside a write transaction that is rolled back: the graph itself is
 * never modified.
 */
import fc from 'fast-check';
import neo4j, { type Driver, type Transaction } from 'neo4j-driver';
import type { Json, JsonObject } from '../../core/types.ts';
import { mentions } from './tokens.ts';
import { fromNeo4j, toJson, type Cell } from './values.ts';

export type ParameterType = 'int' | 'float' | 'str' | 'bool' | 'date' | 'list' | 'null';

export interface TypedValue extends JsonObject {
  type: ParameterType;
  value: Json;
}

export type PerturbationOp =
  | { op: 'remove-relationship'; id: string; text: string }
  | { op: 'duplicate-relationship'; id: string; type: string; text: string }
  | { op: 'set-property'; target: 'node' | 'relationship'; id: string; key: string; value: TypedValue; text: string };

export interface GraphVariant {
  ops: PerturbationOp[];
}

export interface RelationshipRef {
  id: string;
  type: string;
  from: string;
  to: string;
}

export interface PropertyRef {
  target: 'node' | 'relationship';
  id: string;
  owner: string;
  key: string;
  current: TypedValue;
}

export interface Pools {
  relationships: RelationshipRef[];
  properties: PropertyRef[];
  /** Values to try per property key: literals from the queries, neighbours of them, values seen. */
  values: Map<string, TypedValue[]>;
}

/** A stable key for a variant (for caches and de-duplication). */
export function variantKey(variant: GraphVariant): string {
  return JSON.stringify(variant.ops.map((o) => [o.op, o.id, 'key' in o ? o.key : '', 'value' in o ? o.value : null]));
}

/** A variant as JSON (witness inputs carry it). */
export function variantJson(variant: GraphVariant): JsonObject {
  return { ops: variant.ops.map((o) => ({ ...o }) as JsonObject) };
}

/** A witness input's variant back as a GraphVariant, or null. */
export function variantFromJson(value: Json | undefined): GraphVariant | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray(value.ops)) return null;
  return { ops: value.ops as unknown as PerturbationOp[] };
}

function typed(cell: Cell): TypedValue {
  if (cell === null) return { type: 'null', value: null };
  if (typeof cell === 'boolean') return { type: 'bool', value: cell };
  if (typeof cell === 'number') return { type: Number.isInteger(cell) ? 'int' : 'float', value: cell };
  if (typeof cell === 'bigint') return { type: 'int', value: cell.toString() };
  if (typeof cell === 'string') return { type: /^-?\d{4}-\d{2}-\d{2}$/.test(cell) ? 'date' : 'str', value: cell };
  return { type: 'list', value: toJson(cell) };
}

function parameter(value: TypedValue): unknown {
  switch (value.type) {
    case 'int':
      return neo4j.int(value.value as number | string);
    case 'date': {
      const m = /^(-?\d{4,})-(\d{2})-(\d{2})$/.exec(String(value.value)) as RegExpExecArray;
      return new neo4j.types.Date(Number(m[1]), Number(m[2]), Number(m[3]));
    }
    case 'null':
      return null;
    default:
      return value.value;
  }
}

function shiftDate(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return iso;
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const show = (v: TypedValue) => (v.type === 'null' ? 'no value' : v.type === 'str' ? JSON.stringify(v.value) : String(v.value));

/** Relationships and properties the queries touch, near the entities they name; values to set. */
export async function buildPools(driver: Driver, queries: string[], options: { database?: string; limit?: number } = {}): Promise<Pools> {
  const limit = options.limit ?? 400;
  const m = queries.map(mentions);
  const names = [...new Set(m.flatMap((x) => [...x.strings]))];
  const types = [...new Set(m.flatMap((x) => [...x.types]))];
  const labels = [...new Set(m.flatMap((x) => [...x.labels]))];
  const keys = [...new Set(m.flatMap((x) => [...x.properties]))].filter((k) => !['name', 'eid'].includes(k));
  const run = (query: string, params: Record<string, unknown>) => driver.executeQuery(query, params, { database: options.database, routing: 'READ' });
  const nameOf = 'coalesce(n.name, n.eid, elementId(n))';

  const relQuery =
    'MATCH (x) WHERE x.name IN $names MATCH (x)-[*0..1]-(n)-[r]-() WHERE size($types) = 0 OR type(r) IN $types ' +
    `WITH DISTINCT r RETURN elementId(r) AS id, type(r) AS type, coalesce(startNode(r).name, startNode(r).eid) AS from, coalesce(endNode(r).name, endNode(r).eid) AS to ORDER BY id LIMIT $limit`;
  const globalRelQuery =
    'MATCH (a)-[r]->(b) WHERE size($types) > 0 AND type(r) IN $types RETURN elementId(r) AS id, type(r) AS type, coalesce(a.name, a.eid) AS from, coalesce(b.name, b.eid) AS to ORDER BY id LIMIT $limit';
  const relationships = new Map<string, RelationshipRef>();
  for (const query of [relQuery, globalRelQuery]) {
    const result = await run(query, { names, types, limit: neo4j.int(limit) });
    for (const r of result.records) relationships.set(r.get('id'), { id: r.get('id'), type: r.get('type'), from: String(r.get('from')), to: String(r.get('to')) });
  }

  const properties: PropertyRef[] = [];
  const values = new Map<string, TypedValue[]>();
  const seen = (key: string, value: TypedValue) => {
    const list = values.get(key) ?? [];
    if (!list.some((v) => JSON.stringify(v) === JSON.stringify(value))) list.push(value);
    values.set(key, list);
  };
  if (keys.length > 0) {
    const nodeQuery =
      `MATCH (n) WHERE any(l IN labels(n) WHERE l IN $labels) AND any(k IN $keys WHERE n[k] IS NOT NULL) ` +
      `OPTIONAL MATCH (x)--(n) WHERE x.name IN $names WITH n, count(x) AS near ORDER BY near DESC, elementId(n) LIMIT $limit ` +
      `RETURN elementId(n) AS id, ${nameOf} AS owner, [k IN $keys WHERE n[k] IS NOT NULL | [k, n[k]]] AS props`;
    const relPropQuery =
      'MATCH (a)-[r]->(b) WHERE any(k IN $keys WHERE r[k] IS NOT NULL) RETURN elementId(r) AS id, ' +
      "type(r) + ' from ' + coalesce(a.name, a.eid) + ' to ' + coalesce(b.name, b.eid) AS owner, [k IN $keys WHERE r[k] IS NOT NULL | [k, r[k]]] AS props ORDER BY id LIMIT $limit";
    for (const [query, target] of [[nodeQuery, 'node'], [relPropQuery, 'relationship']] as const) {
      const result = await run(query, { labels, keys, names, limit: neo4j.int(limit) });
      for (const r of result.records) {
        for (const [key, raw] of r.get('props') as [string, unknown][]) {
          const current = typed(fromNeo4j(raw));
          if (current.type === 'list') continue;
          properties.push({ target, id: r.get('id'), owner: String(r.get('owner')), key, current });
          seen(key, current);
        }
      }
    }
  }
  // Boundary values: the queries' literals and their neighbours, for every key of a matching type.
  for (const key of values.keys()) {
    const sample = (values.get(key) as TypedValue[])[0] as TypedValue;
    const extra: TypedValue[] = [{ type: 'null', value: null }];
    if (sample.type === 'date') for (const d of m.flatMap((x) => [...x.dates])) for (const s of [-1, 0, 1]) extra.push({ type: 'date', value: shiftDate(d, s) });
    if (sample.type === 'int' || sample.type === 'float') for (const n of m.flatMap((x) => [...x.numbers])) for (const s of [-1, 0, 1]) extra.push({ type: Number.isInteger(n + s) ? sample.type : 'float', value: n + s });
    for (const v of extra) seen(key, v);
  }
  return { relationships: [...relationships.values()], properties, values };
}

/** The fast-check arbitrary of variants over the pools (null when the pools are empty). */
export function variantArbitrary(pools: Pools): fc.Arbitrary<GraphVariant> | null {
  const ops: fc.Arbitrary<PerturbationOp>[] = [];
  if (pools.relationships.length > 0) {
    const rel = fc.constantFrom(...pools.relationships);
    ops.push(rel.map((r): PerturbationOp => ({ op: 'remove-relationship', id: r.id, text: `the ${r.type} relationship from ${r.from} to ${r.to} is removed` })));
    ops.push(rel.map((r): PerturbationOp => ({ op: 'duplicate-relationship', id: r.id, type: r.type, text: `the ${r.type} relationship from ${r.from} to ${r.to} appears twice` })));
  }
  const settable = pools.properties.filter((p) => (pools.values.get(p.key) ?? []).length > 1);
  if (settable.length > 0) {
    ops.push(
      fc.tuple(fc.constantFrom(...settable), fc.nat()).map(([p, k]): PerturbationOp => {
        const options = (pools.values.get(p.key) as TypedValue[]).filter((v) => JSON.stringify(v) !== JSON.stringify(p.current));
        const value = options[k % options.length] as TypedValue;
        return { op: 'set-property', target: p.target, id: p.id, key: p.key, value, text: `${p.owner} has ${p.key} = ${show(value)} (instead of ${show(p.current)})` };
      }),
    );
  }
  if (ops.length === 0) return null;
  return fc
    .array(fc.oneof(...ops), { minLength: 1, maxLength: 3 })
    .map((list) => ({ ops: list.filter((o, i) => list.findIndex((x) => x.id === o.id) === i) }));
}

/** Applies a variant's operations inside an open write transaction. */
export async function applyVariant(tx: Transaction, variant: GraphVariant): Promise<void> {
  for (const op of variant.ops) {
    if (op.op === 'remove-relationship') await tx.run('MATCH ()-[r]->() WHERE elementId(r) = $id DELETE r', { id: op.id });
    else if (op.op === 'duplicate-relationship') {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(op.type)) throw new Error(`relationship type ${JSON.stringify(op.type)} cannot be duplicated`);
      await tx.run(`MATCH (a)-[r]->(b) WHERE elementId(r) = $id CREATE (a)-[c:\`${op.type}\`]->(b) SET c = properties(r)`, { id: op.id });
    } else {
      const match = op.target === 'node' ? 'MATCH (x) WHERE elementId(x) = $id' : 'MATCH ()-[x]->() WHERE elementId(x) = $id';
      await tx.run(`${match} SET x += $props`, { id: op.id, props: { [op.key]: parameter(op.value) } });
    }
  }
}
