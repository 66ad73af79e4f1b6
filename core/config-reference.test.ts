/** The JSON Schema and the settings table of docs/configuration.md are what the config schema produces now. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { ENV_SETTINGS, keySchema } from './config-env.ts';
import { configFileSchema } from './config-schema.ts';
import { configJsonSchema, withSettingsTable } from './config-reference.ts';

const inRepo = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const SCHEMA_FILE = 'schemas/witness.config.schema.json';
const REGENERATE = 'out of date: run `npm run config-reference`';

describe('config reference', () => {
  it(`${SCHEMA_FILE} is the JSON Schema the config schema produces`, () => {
    const committed: unknown = JSON.parse(readFileSync(inRepo(SCHEMA_FILE), 'utf8'));
    expect(committed, `${SCHEMA_FILE} is ${REGENERATE}`).toEqual(configJsonSchema());
  });

  it("docs/configuration.md's settings table is the one the config schema produces", () => {
    const doc = readFileSync(inRepo('docs/configuration.md'), 'utf8');
    expect(doc === withSettingsTable(doc), `the settings table of docs/configuration.md is ${REGENERATE}`).toBe(true);
  });

  it('the JSON Schema accepts what loadConfig accepts, "$schema" included, and rejects an unknown key', () => {
    const validate = new Ajv2020({ strict: true }).compile(configJsonSchema());
    const file = {
      $schema: `../${SCHEMA_FILE}`,
      model: { name: 'qwen2.5-7b', baseURL: 'http://127.0.0.1:8000/v1', apiKeyEnv: 'VLLM_KEY' },
      prices: { 'qwen2.5-7b': { input: 0.1, output: 0.2 } },
      suites: { bird: { vesIterations: 3 }, 'nl-rx': { data: 'turk' } },
      run: { tasks: '1,2', strategies: ['zero-shot'] },
    };
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'witness-config-reference-'));
    writeFileSync(join(dir, 'witness.config.json'), JSON.stringify(file));
    const { config } = loadConfig(dir, {});
    expect(config).not.toHaveProperty('$schema');
    expect([config.model.name, config.suites.bird.vesIterations, config.run.tasks]).toEqual([
      'qwen2.5-7b',
      3,
      ['1', '2'],
    ]);
    expect(validate({ ...file, modle: {} })).toBe(false);
    expect(validate({ prices: { 'qwen2.5-7b': { input: 0.1 } } })).toBe(false);
    expect(validate({ turns: 0 })).toBe(false);
  });

  it('every environment variable sets a key of the file schema or brings its own schema', () => {
    const unknown = ENV_SETTINGS.filter((setting) => {
      try {
        return !setting.schema && !keySchema(configFileSchema('.'), setting.key);
      } catch {
        return true;
      }
    });
    expect(unknown.map((setting) => `${setting.name} → ${setting.key}`)).toEqual([]);
    expect(ENV_SETTINGS.length).toBeGreaterThan(50);
  });
});
