/**
 * CypherBench's SimpleKG graph format (benchmarks.md §2.4): `schema` (entity labels with typed
 * properties, relation triples label/subj_label/obj_label with typed properties), `entities`
 * (eid, label, name, aliases, description, properties, provenance) and `relations` (rid, label,
 * subj_id, obj_id, properties, provenance). Parsing validates everything the loader relies on and
 * throws one SimpleKGError listing the problems by item, so a broken graph is never half-loaded.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { indexKeyProblem } from './index-limits.ts';

const SIMPLE_DTYPES = [
  'str',
  'int',
  'float',
  'bool',
  'date',
  'list[str]',
  'list[int]',
  'list[float]',
  'list[bool]',
  'list[date]',
] as const;
export type SimpleDtype = (typeof SIMPLE_DTYPES)[number];

export type SimpleValue = string | number | boolean | string[] | number[] | boolean[];

export interface EntitySchema {
  label: string;
  description?: string | null;
  properties: Record<string, SimpleDtype>;
}

export interface RelationSchema {
  label: string;
  subj_label: string;
  obj_label: string;
  properties: Record<string, SimpleDtype>;
}

export interface SimpleKGSchema {
  name: string;
  entities: EntitySchema[];
  relations: RelationSchema[];
}

export interface SimpleEntity {
  eid: string;
  label: string;
  name: string | null;
  aliases: string[];
  description: string | null;
  properties: Record<string, SimpleValue>;
  provenance: string[];
}

export interface SimpleRelation {
  rid: string;
  label: string;
  subj_id: string;
  obj_id: string;
  properties: Record<string, SimpleValue>;
  provenance: string[];
}

export interface SimpleKG {
  schema: SimpleKGSchema;
  entities: SimpleEntity[];
  relations: SimpleRelation[];
}

/** A SimpleKG file that cannot be loaded, with its problems by item. */
export class SimpleKGError extends Error {
  constructor(
    readonly source: string,
    readonly issues: string[],
    what = 'is not a valid SimpleKG graph',
  ) {
    const shown = issues.slice(0, 10);
    super(
      `${source} ${what} (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n  ${shown.join('\n  ')}${issues.length > shown.length ? `\n  … and ${issues.length - shown.length} more` : ''}`,
    );
    this.name = 'SimpleKGError';
  }
}

const tripleKey = (label: string, subj?: string, obj?: string) => `${label}\u0000${subj}\u0000${obj}`;

/** The stored properties every entity has besides its label's declared ones. */
const BUILT_IN_DTYPES: Record<string, SimpleDtype> = {
  eid: 'str',
  name: 'str',
  description: 'str',
  aliases: 'list[str]',
  provenance: 'list[str]',
};

const DATE = /^(-?\d{4,})-(\d{2})-(\d{2})$/;
/** Labels, relationship types and property keys end up backtick-quoted in Cypher; these must stay plain. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function isIsoDate(value: unknown): value is string {
  const m = typeof value === 'string' ? DATE.exec(value) : null;
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

function scalarOk(dtype: string, value: unknown): boolean {
  switch (dtype) {
    case 'str':
      return typeof value === 'string';
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'bool':
      return typeof value === 'boolean';
    case 'date':
      return isIsoDate(value);
    default:
      return false;
  }
}

/** Does `value` fit `dtype`? (null is handled by callers: a missing property.) */
function valueFits(dtype: SimpleDtype, value: unknown): boolean {
  const list = /^list\[(\w+)\]$/.exec(dtype);
  if (list) return Array.isArray(value) && value.every((v) => scalarOk(list[1] as string, v));
  return scalarOk(dtype, value);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

function parseProperties(
  declared: Record<string, SimpleDtype>,
  raw: unknown,
  item: string,
  issues: string[],
): Record<string, SimpleValue> {
  const out: Record<string, SimpleValue> = {};
  if (raw === undefined || raw === null) return out;
  if (!isObject(raw)) {
    issues.push(`${item}: properties must be an object`);
    return out;
  }
  for (const [key, value] of Object.entries(raw)) {
    const dtype = declared[key];
    // Like the upstream loader, only declared properties are loaded; null means "absent".
    if (!dtype || value === null) continue;
    if (!valueFits(dtype, value)) issues.push(`${item}: property ${key} = ${JSON.stringify(value)} is not a ${dtype}`);
    else out[key] = value as SimpleValue;
  }
  return out;
}

function parseDtypes(raw: unknown, item: string, issues: string[]): Record<string, SimpleDtype> {
  const out: Record<string, SimpleDtype> = {};
  if (raw === undefined || raw === null) return out;
  if (!isObject(raw)) {
    issues.push(`${item}: properties must map names to types`);
    return out;
  }
  for (const [key, dtype] of Object.entries(raw)) {
    if (!NAME.test(key)) issues.push(`${item}: property name ${JSON.stringify(key)} is not a plain identifier`);
    else if (!(SIMPLE_DTYPES as readonly unknown[]).includes(dtype))
      issues.push(
        `${item}: property ${key} has unknown type ${JSON.stringify(dtype)} (known: ${SIMPLE_DTYPES.join(', ')})`,
      );
    else out[key] = dtype as SimpleDtype;
  }
  return out;
}

function parseSchema(raw: unknown, issues: string[]): SimpleKGSchema {
  const schema: SimpleKGSchema = { name: '', entities: [], relations: [] };
  if (!isObject(raw)) {
    issues.push('schema: missing or not an object');
    return schema;
  }
  if (typeof raw.name !== 'string' || !raw.name) issues.push('schema.name: missing');
  else schema.name = raw.name;
  const labels = new Set<string>();
  for (const [i, e] of (Array.isArray(raw.entities) ? raw.entities : []).entries()) {
    const item = `schema.entities[${i}]`;
    if (!isObject(e) || typeof e.label !== 'string' || !NAME.test(e.label)) {
      issues.push(`${item}: label missing or not a plain identifier`);
      continue;
    }
    if (labels.has(e.label)) issues.push(`${item}: label ${e.label} declared twice`);
    labels.add(e.label);
    schema.entities.push({
      label: e.label,
      description: typeof e.description === 'string' ? e.description : null,
      properties: parseDtypes(e.properties, `${item} (${e.label})`, issues),
    });
  }
  if (!Array.isArray(raw.entities)) issues.push('schema.entities: missing or not a list');
  const triples = new Set<string>();
  for (const [i, r] of (Array.isArray(raw.relations) ? raw.relations : []).entries()) {
    const item = `schema.relations[${i}]`;
    if (
      !isObject(r) ||
      typeof r.label !== 'string' ||
      !NAME.test(r.label) ||
      typeof r.subj_label !== 'string' ||
      typeof r.obj_label !== 'string'
    ) {
      issues.push(`${item}: label, subj_label and obj_label are required (plain identifiers)`);
      continue;
    }
    for (const end of [r.subj_label, r.obj_label])
      if (!labels.has(end)) issues.push(`${item} (${r.label}): entity label ${end} is not declared`);
    const key = tripleKey(r.label, r.subj_label, r.obj_label);
    if (triples.has(key)) issues.push(`${item}: ${r.subj_label}-[${r.label}]->${r.obj_label} declared twice`);
    triples.add(key);
    schema.relations.push({
      label: r.label,
      subj_label: r.subj_label,
      obj_label: r.obj_label,
      properties: parseDtypes(r.properties, `${item} (${r.label})`, issues),
    });
  }
  if (!Array.isArray(raw.relations)) issues.push('schema.relations: missing or not a list');
  return schema;
}

/** Validates parsed JSON as a SimpleKG graph; `source` names it in errors. Throws SimpleKGError. */
export function parseSimpleKG(raw: unknown, source: string): SimpleKG {
  const issues: string[] = [];
  if (!isObject(raw))
    throw new SimpleKGError(source, ['the top level must be an object with schema, entities and relations']);
  const schema = parseSchema(raw.schema, issues);
  const entitySchemas = new Map(schema.entities.map((e) => [e.label, e]));
  const relationSchemas = new Map(schema.relations.map((r) => [tripleKey(r.label, r.subj_label, r.obj_label), r]));

  const entities: SimpleEntity[] = [];
  const labelOf = new Map<string, string>();
  if (!Array.isArray(raw.entities)) issues.push('entities: missing or not a list');
  for (const [i, e] of (Array.isArray(raw.entities) ? raw.entities : []).entries()) {
    const item = `entities[${i}]`;
    if (!isObject(e) || typeof e.eid !== 'string' || !e.eid) {
      issues.push(`${item}: eid missing`);
      continue;
    }
    const named = `${item} (eid ${e.eid})`;
    const declared = typeof e.label === 'string' ? entitySchemas.get(e.label) : undefined;
    if (!declared) {
      issues.push(`${named}: label ${JSON.stringify(e.label)} is not declared in the schema`);
      continue;
    }
    if (labelOf.has(e.eid)) issues.push(`${named}: eid appears twice`);
    if (e.name !== undefined && e.name !== null && typeof e.name !== 'string')
      issues.push(`${named}: name must be a string`);
    if (e.aliases !== undefined && e.aliases !== null && !isStringList(e.aliases))
      issues.push(`${named}: aliases must be a list of strings`);
    if (e.provenance !== undefined && e.provenance !== null && !isStringList(e.provenance))
      issues.push(`${named}: provenance must be a list of strings`);
    if (e.description !== undefined && e.description !== null && typeof e.description !== 'string')
      issues.push(`${named}: description must be a string`);
    labelOf.set(e.eid, declared.label);
    entities.push({
      eid: e.eid,
      label: declared.label,
      name: typeof e.name === 'string' ? e.name : null,
      aliases: isStringList(e.aliases) ? e.aliases : [],
      description: typeof e.description === 'string' ? e.description : null,
      properties: parseProperties(declared.properties, e.properties, named, issues),
      provenance: isStringList(e.provenance) ? e.provenance : [],
    });
  }

  const relations: SimpleRelation[] = [];
  if (!Array.isArray(raw.relations)) issues.push('relations: missing or not a list');
  for (const [i, r] of (Array.isArray(raw.relations) ? raw.relations : []).entries()) {
    const item = `relations[${i}]`;
    if (!isObject(r) || typeof r.label !== 'string' || typeof r.subj_id !== 'string' || typeof r.obj_id !== 'string') {
      issues.push(`${item}: label, subj_id and obj_id are required`);
      continue;
    }
    const named = `${item} (${r.subj_id} -[${r.label}]-> ${r.obj_id})`;
    const subj = labelOf.get(r.subj_id);
    const obj = labelOf.get(r.obj_id);
    if (!subj || !obj) {
      issues.push(`${named}: ${!subj ? `subj_id ${r.subj_id}` : `obj_id ${r.obj_id}`} names no entity`);
      continue;
    }
    const declared = relationSchemas.get(tripleKey(r.label, subj, obj));
    if (!declared) {
      issues.push(`${named}: ${subj}-[${r.label}]->${obj} is not declared in the schema`);
      continue;
    }
    relations.push({
      rid: typeof r.rid === 'string' || typeof r.rid === 'number' ? String(r.rid) : String(i),
      label: r.label,
      subj_id: r.subj_id,
      obj_id: r.obj_id,
      properties: parseProperties(declared.properties, r.properties, named, issues),
      provenance: isStringList(r.provenance) ? r.provenance : [],
    });
  }
  if (issues.length > 0) throw new SimpleKGError(source, issues);
  const tooLarge = unindexableValues(schema, entities, relations);
  if (tooLarge.length > 0)
    throw new SimpleKGError(source, tooLarge, 'cannot be loaded into Neo4j: a value is too large');
  return { schema, entities, relations };
}

/** The stored values Neo4j could not index (index-limits.ts), each named by its item and property. */
function unindexableValues(schema: SimpleKGSchema, entities: SimpleEntity[], relations: SimpleRelation[]): string[] {
  const problems: string[] = [];
  const check = (item: string, dtypes: Record<string, SimpleDtype>, values: Record<string, SimpleValue | null>) => {
    for (const [key, value] of Object.entries(values)) {
      const problem = value === null ? null : indexKeyProblem(dtypes[key] as SimpleDtype, value);
      if (problem) problems.push(`${item}: ${key} ${problem}`);
    }
  };
  const entityDtypes = new Map(schema.entities.map((e) => [e.label, { ...BUILT_IN_DTYPES, ...e.properties }]));
  for (const [i, e] of entities.entries()) {
    const { eid, name, description, aliases, provenance } = e;
    const values = { eid, name, description, aliases, provenance, ...e.properties };
    check(`entities[${i}] (eid ${eid.slice(0, 80)})`, entityDtypes.get(e.label) ?? BUILT_IN_DTYPES, values);
  }
  const labelOf = new Map(entities.map((e) => [e.eid, e.label]));
  const relationDtypes = new Map(
    schema.relations.map((r) => [tripleKey(r.label, r.subj_label, r.obj_label), r.properties]),
  );
  for (const [i, r] of relations.entries()) {
    const dtypes = relationDtypes.get(tripleKey(r.label, labelOf.get(r.subj_id), labelOf.get(r.obj_id))) ?? {};
    check(`relations[${i}] (${r.subj_id} -[${r.label}]-> ${r.obj_id})`, dtypes, r.properties);
  }
  return problems;
}

/** Reads and validates a SimpleKG JSON file. Throws SimpleKGError naming the file. */
export function readSimpleKG(path: string): SimpleKG {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SimpleKGError(path, [`cannot be read: ${(error as Error).message}`]);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new SimpleKGError(path, [`is not JSON: ${(error as Error).message}`]);
  }
  const kg = parseSimpleKG(raw, path);
  sourceHashes.set(kg, createHash('sha256').update(text).digest('hex'));
  return kg;
}

/** The SHA-256 of the file each graph was read from (graphs built in memory have none). */
const sourceHashes = new WeakMap<SimpleKG, string>();

/** The SHA-256 (hex) of the file a graph was read from by readSimpleKG; undefined for graphs built in memory. */
export function simpleKGFileHash(kg: SimpleKG): string | undefined {
  return sourceHashes.get(kg);
}

/**
 * The SHA-256 (hex) that identifies a graph's source: of the file it was read from, else of its
 * JSON text. What the loader stores in the database to recognize the graph on the next start.
 */
export function simpleKGSourceHash(kg: SimpleKG): string {
  return sourceHashes.get(kg) ?? createHash('sha256').update(JSON.stringify(kg)).digest('hex');
}
