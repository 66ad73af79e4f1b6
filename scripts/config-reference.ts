/** Regenerates the JSON Schema of witness.config.json and the settings table of docs/configuration.md from core/config-schema.ts. */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { configJsonSchema, withSettingsTable } from '../core/config-reference.ts';

const schemaFile = fileURLToPath(new URL('../schemas/witness.config.schema.json', import.meta.url));
const docFile = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));
const options = { ...(await resolveConfig(schemaFile)), filepath: schemaFile };
writeFileSync(schemaFile, await format(JSON.stringify(configJsonSchema()), options));
writeFileSync(docFile, withSettingsTable(readFileSync(docFile, 'utf8')));
console.log('wrote schemas/witness.config.schema.json and the settings table of docs/configuration.md');
