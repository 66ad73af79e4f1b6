/**
 * The graph schema as CypherBench's baseline prompt shows it (`load_schema_from_json`): the
 * SimpleKG schema with `name` added to every entity's properties, descriptions left out, entities
 * sorted by label, relations by (label, subj_label, obj_label), properties by name, as JSON with
 * an indent of 2.
 */
import type { SimpleKGSchema } from './simplekg.ts';

const sortedProperties = (properties: Record<string, string>) =>
  Object.fromEntries(Object.entries(properties).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** CypherBench's `schema.to_str(exclude_description=True)`. */
export function schemaText(schema: SimpleKGSchema): string {
  const entities = [...schema.entities]
    .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
    .map((e) => ({ label: e.label, properties: sortedProperties({ name: 'str', ...e.properties }) }));
  const key = (r: SimpleKGSchema['relations'][number]) => [r.label, r.subj_label, r.obj_label].join('\u0000');
  const relations = [...schema.relations]
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
    .map((r) => ({
      label: r.label,
      subj_label: r.subj_label,
      obj_label: r.obj_label,
      properties: sortedProperties(r.properties),
    }));
  return JSON.stringify({ name: schema.name, entities, relations }, null, 2);
}
