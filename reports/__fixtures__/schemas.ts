/** The published JSON Schemas, compiled with ajv for the tests. Not a test file itself. */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';

const load = (name: string) => JSON.parse(readFileSync(new URL(`../schema/${name}`, import.meta.url), 'utf8')) as object;

const ajv = new Ajv2020({ allErrors: true, strict: true, formats: { 'date-time': (s: string) => !Number.isNaN(Date.parse(s)) } });
ajv.addSchema(load('witness.results.schema.json'), 'witness.results.schema.json');
ajv.addSchema(load('witness.baseline.schema.json'), 'witness.baseline.schema.json');
ajv.addSchema(load('witness.report.schema.json'), 'witness.report.schema.json');

/** Validation errors of `value` against one schema, as readable lines; empty when valid. */
export function schemaErrors(schema: 'witness.results' | 'witness.report' | 'witness.baseline', value: unknown): string[] {
  const validate = ajv.getSchema(`${schema}.schema.json`);
  if (!validate) throw new Error(`schema ${schema} not loaded`);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
