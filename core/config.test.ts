import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const root = () => mkdtempSync(join(tmpdir(), 'witness-config-'));

describe('loadConfig', () => {
  it('defaults to the sim model with the A-CEGIS budgets and says it defaulted', () => {
    const dir = root();
    const { config, defaultedToSim, file } = loadConfig(dir, {});
    expect(defaultedToSim).toBe(true);
    expect(file).toBeUndefined();
    expect(config.model.name).toBe('sim');
    expect(config.turns).toBe(4);
    expect(config.hardening).toMatchObject({ enabled: true, maxCycles: 2, maxProbes: 320, maxAdded: 4 });
    expect(config.cache).toEqual({ mode: 'readwrite', path: join(dir, '.witness/cache.sqlite') });
  });

  it('reads witness.config.json and lets the environment override it', () => {
    const dir = root();
    writeFileSync(join(dir, 'witness.config.json'), JSON.stringify({ model: { name: 'gpt-x', temperature: 0.5 }, turns: 7, cache: { mode: 'only' } }));
    const fromFile = loadConfig(dir, {});
    expect(fromFile.config.model).toMatchObject({ name: 'gpt-x', temperature: 0.5 });
    expect(fromFile.config.turns).toBe(7);
    expect(fromFile.config.cache.mode).toBe('only');
    expect(fromFile.defaultedToSim).toBe(false);
    const overridden = loadConfig(dir, { WITNESS_MODEL: 'qwen', WITNESS_TURNS: '3', OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', WITNESS_CACHE: 'off' });
    expect(overridden.config.model).toMatchObject({ name: 'qwen', baseURL: 'http://127.0.0.1:8000/v1', temperature: 0.5 });
    expect(overridden.config.turns).toBe(3);
    expect(overridden.config.cache.mode).toBe('off');
  });

  it('names the source of every invalid value', () => {
    const dir = root();
    expect(() => loadConfig(dir, { WITNESS_TURNS: 'four' })).toThrow(/WITNESS_TURNS: expected an integer ≥ 1, got null/);
    expect(() => loadConfig(dir, { WITNESS_CACHE: 'sometimes' })).toThrow(/WITNESS_CACHE: expected one of readwrite, off, only, refresh/);
    writeFileSync(join(dir, 'witness.config.json'), JSON.stringify({ model: { temperature: 9 } }));
    expect(() => loadConfig(dir, {})).toThrow(/witness\.config\.json: model\.temperature: expected a number from 0 to 2, got 9/);
    writeFileSync(join(dir, 'witness.config.json'), JSON.stringify({ modle: {} }));
    expect(() => loadConfig(dir, {})).toThrow(ConfigError);
    writeFileSync(join(dir, 'witness.config.json'), '{ not json');
    expect(() => loadConfig(dir, {})).toThrow(/witness\.config\.json: invalid config/);
    expect(() => loadConfig(dir, { WITNESS_CONFIG: 'nope.json' })).toThrow(/WITNESS_CONFIG names .*nope\.json, which does not exist/);
  });
});
