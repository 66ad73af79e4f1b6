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
  /** Within two hops of an entity the queries name. */
  near: boolean;
}

export interface PropertyRef {
  target: 'node' | 'relationship';
  id: string;
  owner: string;
  key: string;
  current: TypedValue;
  /** Adjacent to an entity the queries name. */
  near: boolean;
}

export interface Pools {
  relationships: RelationshipRef[];
  properties: PropertyRef[];
  /** Per property key: the queries' literals of that key's type and their neighbours (±1), and no value. */
  boundary: Map<string, TypedValue[]>;
  /** Per property key: values seen in the graph. */
  seen: Map<string, TypedValue[]>;
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

const show = (v: TypedValue) =>
  v.type === 'null' ? 'no value' : v.type === 'str' ? JSON.stringify(v.value) : String(v.value);
const same = (a: TypedValue, b: TypedValue) => JSON.stringify(a) === JSON.stringify(b);

function addTo(map: Map<string, TypedValue[]>, key: string, value: TypedValue): void {
  const list = map.get(key) ?? [];
  if (!list.some((v) => same(v, value))) list.push(value);
  map.set(key, list);
}

/** Relationships and properties the queries touch, near the entities they name; values to set. */
export async function buildPools(
  driver: Driver,
  queries: string[],
  options: { database?: string; limit?: number } = {},
): Promise<Pools> {
  const limit = neo4j.int(options.limit ?? 400);
  const m = queries.map(mentions);
  const names = [...new Set(m.flatMap((x) => [...x.strings]))];
  const types = [...new Set(m.flatMap((x) => [...x.types]))];
  const labels = [...new Set(m.flatMap((x) => [...x.labels]))];
  const keys = [...new Set(m.flatMap((x) => [...x.properties]))].filter((k) => !['name', 'eid'].includes(k));
  const run = (query: string) =>
    driver.executeQuery(query, { names, types, labels, keys, limit }, { database: options.database, routing: 'READ' });

  const ends = 'coalesce(startNode(r).name, startNode(r).eid) AS from, coalesce(endNode(r).name, endNode(r).eid) AS to';
  const nearRels = `MATCH (x) WHERE x.name IN $names MATCH (x)-[*0..1]-(n)-[r]-() WHERE size($types) = 0 OR type(r) IN $types WITH DISTINCT r RETURN elementId(r) AS id, type(r) AS type, ${ends} ORDER BY id LIMIT $limit`;
  const allRels = `MATCH ()-[r]->() WHERE size($types) > 0 AND type(r) IN $types RETURN elementId(r) AS id, type(r) AS type, ${ends} ORDER BY id LIMIT $limit`;
  const relationships = new Map<string, RelationshipRef>();
  for (const [query, near] of [
    [nearRels, true],
    [allRels, false],
  ] as const) {
    for (const r of (await run(query)).records) {
      if (!relationships.has(r.get('id')))
        relationships.set(r.get('id'), {
          id: r.get('id'),
          type: r.get('type'),
          from: String(r.get('from')),
          to: String(r.get('to')),
          near,
        });
    }
  }

  const properties: PropertyRef[] = [];
  const seen = new Map<string, TypedValue[]>();
  if (keys.length > 0) {
    const nodes =
      'MATCH (n) WHERE any(l IN labels(n) WHERE l IN $labels) AND any(k IN $keys WHERE n[k] IS NOT NULL) ' +
      'OPTIONAL MATCH (x)--(n) WHERE x.name IN $names WITH n, count(x) > 0 AS near ORDER BY near DESC, elementId(n) LIMIT $limit ' +
      'RETURN elementId(n) AS id, coalesce(n.name, n.eid, elementId(n)) AS owner, near, [k IN $keys WHERE n[k] IS NOT NULL | [k, n[k]]] AS props';
    const rels =
      'MATCH (a)-[r]->(b) WHERE any(k IN $keys WHERE r[k] IS NOT NULL) WITH a, r, b, a.name IN $names OR b.name IN $names AS near ORDER BY near DESC, elementId(r) LIMIT $limit ' +
      "RETURN elementId(r) AS id, type(r) + ' from ' + coalesce(a.name, a.eid) + ' to ' + coalesce(b.name, b.eid) AS owner, near, [k IN $keys WHERE r[k] IS NOT NULL | [k, r[k]]] AS props";
    for (const [query, target] of [
      [nodes, 'node'],
      [rels, 'relationship'],
    ] as const) {
      for (const r of (await run(query)).records) {
        for (const [key, raw] of r.get('props') as [string, unknown][]) {
          const current = typed(fromNeo4j(raw));
          if (current.type === 'list') continue;
          properties.push({
            target,
            id: r.get('id'),
            owner: String(r.get('owner')),
            key,
            current,
            near: r.get('near') === true,
          });
          addTo(seen, key, current);
        }
      }
    }
  }
  const boundary = new Map<string, TypedValue[]>();
  for (const [key, values] of seen) {
    const kind = (values[0] as TypedValue).type;
    if (kind === 'date')
      for (const d of m.flatMap((x) => [...x.dates]))
        for (const shift of [0, -1, 1]) addTo(boundary, key, { type: 'date', value: shiftDate(d, shift) });
    if (kind === 'int' || kind === 'float')
      for (const n of m.flatMap((x) => [...x.numbers]))
        for (const shift of [0, -1, 1])
          addTo(boundary, key, { type: Number.isInteger(n + shift) ? kind : 'float', value: n + shift });
    if (kind === 'str')
      for (const text of m.flatMap((x) => [...x.strings])) addTo(boundary, key, { type: 'str', value: text });
    addTo(boundary, key, { type: 'null', value: null });
  }
  return { relationships: [...relationships.values()], properties, boundary, seen };
}

/** Picks near items three times as often as others. */
function preferNear<T extends { near: boolean }>(items: T[]): fc.Arbitrary<T> | null {
  const near = items.filter((i) => i.near);
  const far = items.filter((i) => !i.near);
  const choices = [
    ...(near.length ? [{ weight: 3, arbitrary: fc.constantFrom(...near) }] : []),
    ...(far.length ? [{ weight: 1, arbitrary: fc.constantFrom(...far) }] : []),
  ];
  return choices.length ? fc.oneof(...choices) : null;
}

/** The fast-check arbitrary of variants over the pools (null when the pools are empty). */
export function variantArbitrary(pools: Pools): fc.Arbitrary<GraphVariant> | null {
  const ops: { weight: number; arbitrary: fc.Arbitrary<PerturbationOp> }[] = [];
  const rel = preferNear(pools.relationships);
  if (rel) {
    ops.push({
      weight: 1,
      arbitrary: rel.map((r): PerturbationOp => ({
        op: 'remove-relationship',
        id: r.id,
        text: `the ${r.type} relationship from ${r.from} to ${r.to} is removed`,
      })),
    });
    ops.push({
      weight: 1,
      arbitrary: rel.map((r): PerturbationOp => ({
        op: 'duplicate-relationship',
        id: r.id,
        type: r.type,
        text: `the ${r.type} relationship from ${r.from} to ${r.to} appears twice`,
      })),
    });
  }
  const prop = preferNear(pools.properties);
  if (prop) {
    const set = prop.chain((p) => {
      const boundary = (pools.boundary.get(p.key) ?? []).filter((v) => !same(v, p.current));
      const seen = (pools.seen.get(p.key) ?? []).filter((v) => !same(v, p.current));
      const values = [
        ...(boundary.length ? [{ weight: 3, arbitrary: fc.constantFrom(...boundary) }] : []),
        ...(seen.length ? [{ weight: 1, arbitrary: fc.constantFrom(...seen) }] : []),
      ];
      if (!values.length) return fc.constant(null);
      return fc.oneof(...values).map((value): PerturbationOp => ({
        op: 'set-property',
        target: p.target,
        id: p.id,
        key: p.key,
        value,
        text: `${p.owner} has ${p.key} = ${show(value)} (instead of ${show(p.current)})`,
      }));
    });
    const weight = [...pools.boundary.values()].some((list) => list.length > 1) ? 2 : 1;
    ops.push({ weight, arbitrary: set.filter((op): op is PerturbationOp => op !== null) });
  }
  if (ops.length === 0) return null;
  return fc.array(fc.oneof(...ops), { minLength: 1, maxLength: 3 }).map((list) => ({
    ops: list.filter(
      (o, i) => list.findIndex((x) => x.id === o.id && ('key' in x ? x.key : '') === ('key' in o ? o.key : '')) === i,
    ),
  }));
}

/** Applies a variant's operations inside an open write transaction. */
export async function applyVariant(tx: Transaction, variant: GraphVariant): Promise<void> {
  for (const op of variant.ops) {
    if (op.op === 'remove-relationship')
      await tx.run('MATCH ()-[r]->() WHERE elementId(r) = $id DELETE r', { id: op.id });
    else if (op.op === 'duplicate-relationship') {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(op.type))
        throw new Error(`relationship type ${JSON.stringify(op.type)} cannot be duplicated`);
      await tx.run(
        `MATCH (a)-[r]->(b) WHERE elementId(r) = $id CREATE (a)-[c:\`${op.type}\`]->(b) SET c = properties(r)`,
        { id: op.id },
      );
    } else {
      const match =
        op.target === 'node' ? 'MATCH (x) WHERE elementId(x) = $id' : 'MATCH ()-[x]->() WHERE elementId(x) = $id';
      await tx.run(`${match} SET x += $props`, { id: op.id, props: { [op.key]: parameter(op.value) } });
    }
  }
}
