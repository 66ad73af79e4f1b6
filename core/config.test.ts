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
    writeFileSync(
      join(dir, 'witness.config.json'),
      JSON.stringify({ model: { name: 'gpt-x', temperature: 0.5 }, turns: 7, cache: { mode: 'only' } }),
    );
    const fromFile = loadConfig(dir, {});
    expect(fromFile.config.model).toMatchObject({ name: 'gpt-x', temperature: 0.5 });
    expect(fromFile.config.turns).toBe(7);
    expect(fromFile.config.cache.mode).toBe('only');
    expect(fromFile.defaultedToSim).toBe(false);
    const overridden = loadConfig(dir, {
      WITNESS_MODEL: 'qwen',
      WITNESS_TURNS: '3',
      OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1',
      WITNESS_CACHE: 'off',
    });
    expect(overridden.config.model).toMatchObject({
      name: 'qwen',
      baseURL: 'http://127.0.0.1:8000/v1',
      temperature: 0.5,
    });
    expect(overridden.config.turns).toBe(3);
    expect(overridden.config.cache.mode).toBe('off');
  });

  it("reads the steerable sim's settings from the file's sim section and names an invalid one", () => {
    const dir = root();
    writeFileSync(
      join(dir, 'witness.config.json'),
      JSON.stringify({ model: { name: 'sim-steerable' }, sim: { mistakeRate: 0.5, ruleFactor: 0, harmFactor: 4 } }),
    );
    const { config, defaultedToSim } = loadConfig(dir, {});
    expect(defaultedToSim).toBe(false);
    expect(config.model.name).toBe('sim-steerable');
    expect(config.sim).toMatchObject({ mistakeRate: 0.5, ruleFactor: 0, harmFactor: 4, repairRate: 0.9, skill: 0.2 });
    writeFileSync(join(dir, 'witness.config.json'), JSON.stringify({ sim: { repairRate: 1.5 } }));
    expect(() => loadConfig(dir, {})).toThrow(
      /witness\.config\.json: sim\.repairRate: expected a number from 0 to 1, got 1\.5/,
    );
    writeFileSync(join(dir, 'witness.config.json'), JSON.stringify({ sim: { harmFactor: 0.5 } }));
    expect(() => loadConfig(dir, {})).toThrow(/sim\.harmFactor: expected a number from 1 to 1000, got 0\.5/);
  });

  it('names the source of every invalid value', () => {
    const dir = root();
    expect(() => loadConfig(dir, { WITNESS_TURNS: 'four' })).toThrow(
      /WITNESS_TURNS: expected an integer ≥ 1, got null/,
    );
    expect(() => loadConfig(dir, { WITNESS_CACHE: 'sometimes' })).toThrow(
      /WITNESS_CACHE: expected one of readwrite, off, only, refresh/,
    );
    writeFileSync(join(dir, 'witness.config.json'), JSON.stringify({ model: { temperature: 9 } }));
    expect(() => loadConfig(dir, {})).toThrow(
      /witness\.config\.json: model\.temperature: expected a number from 0 to 2, got 9/,
    );
    writeFileSync(join(dir, 'witness.config.json'), JSON.stringify({ modle: {} }));
    expect(() => loadConfig(dir, {})).toThrow(ConfigError);
    writeFileSync(join(dir, 'witness.config.json'), '{ not json');
    expect(() => loadConfig(dir, {})).toThrow(/witness\.config\.json: invalid config/);
    expect(() => loadConfig(dir, { WITNESS_CONFIG: 'nope.json' })).toThrow(
      /WITNESS_CONFIG names .*nope\.json, which does not exist/,
    );
  });

  it('reads trials, prices, budget and gate from the file; the environment overrides; defaults are no prices and no budget', () => {
    const dir = root();
    const defaults = loadConfig(dir, {}).config;
    expect([defaults.trials, defaults.prices, defaults.budget, defaults.run]).toEqual([1, {}, {}, {}]);
    expect(defaults.gate).toEqual({ metric: 'pass1', noiseBand: 0.02, alpha: 0.05, by: 'benchmark' });
    writeFileSync(
      join(dir, 'witness.config.json'),
      JSON.stringify({
        trials: 3,
        prices: { 'gpt-x': { input: 0.15, output: 0.6 } },
        budget: { tokens: 50000 },
        gate: {
          baseline: 'baselines/b.json',
          metric: 'passFinal',
          floor: 0.5,
          by: 'strategy',
          strategies: ['diagnostic'],
        },
      }),
    );
    const { config } = loadConfig(dir, {});
    expect(config.trials).toBe(3);
    expect(config.prices).toEqual({ 'gpt-x': { input: 0.15, output: 0.6 } });
    expect(config.budget).toEqual({ tokens: 50000 });
    expect(config.gate).toEqual({
      baseline: join(dir, 'baselines/b.json'),
      metric: 'passFinal',
      noiseBand: 0.02,
      alpha: 0.05,
      floor: 0.5,
      by: 'strategy',
      strategies: ['diagnostic'],
    });
    const env = loadConfig(dir, {
      WITNESS_TRIALS: '5',
      WITNESS_BUDGET: '$1.25',
      WITNESS_GATE_BASELINE: 'other.json',
      WITNESS_GATE_FLOOR: '0.3',
      WITNESS_RESUME: 'run-7',
      WITNESS_RERUN: 'failed',
    }).config;
    expect([env.trials, env.budget, env.gate.baseline, env.gate.floor, env.run]).toEqual([
      5,
      { usd: 1.25 },
      join(dir, 'other.json'),
      0.3,
      { resume: 'run-7', rerun: 'failed' },
    ]);
  });

  it('names the source of every invalid run setting', () => {
    const dir = root();
    expect(() => loadConfig(dir, { WITNESS_TRIALS: '0' })).toThrow(/WITNESS_TRIALS: expected an integer ≥ 1, got 0/);
    expect(() => loadConfig(dir, { WITNESS_BUDGET: 'lots' })).toThrow(
      /WITNESS_BUDGET: expected a budget such as 120000/,
    );
    expect(() => loadConfig(dir, { WITNESS_RERUN: 'failed' })).toThrow(/WITNESS_RERUN: needs WITNESS_RESUME/);
    expect(() => loadConfig(dir, { WITNESS_RESUME: '../x' })).toThrow(/WITNESS_RESUME: a run id may only contain/);
    expect(() => loadConfig(dir, { WITNESS_RESUME: 'r', WITNESS_RERUN: 'some' })).toThrow(
      /WITNESS_RERUN: expected one of errored, failed/,
    );
    const bad = (value: object, message: RegExp) => {
      writeFileSync(join(dir, 'witness.config.json'), JSON.stringify(value));
      expect(() => loadConfig(dir, {})).toThrow(message);
    };
    bad({ prices: { 'gpt-x': { input: 1 } } }, /prices\.gpt-x: expected both "input" and "output"/);
    bad({ prices: { 'gpt-x': { input: -1, output: 1 } } }, /prices\.gpt-x\.input: expected a number from 0/);
    bad({ prices: { 'gpt-x': { input: 1, output: 1, cached: 0.5 } } }, /prices\.gpt-x\.cached: unknown setting/);
    bad({ budget: { dollars: 3 } }, /budget\.dollars: unknown setting \(known: tokens, usd\)/);
    bad({ budget: { usd: 0 } }, /budget\.usd: expected a positive number, got 0/);
    bad({ gate: { metric: 'accuracy' } }, /gate\.metric: expected one of pass1, passFinal, robust/);
    bad({ gate: { noiseBand: 5 } }, /gate\.noiseBand: expected a number from 0 to 1/);
    bad({ gate: { strategies: [] } }, /gate\.strategies: expected a non-empty list/);
    bad({ gate: { treshold: 1 } }, /gate\.treshold: unknown setting/);
  });
  it('names an unknown key of every section, and ignores "$schema"', () => {
    const dir = root();
    const bad = (value: object, message: RegExp) => {
      writeFileSync(join(dir, 'witness.config.json'), JSON.stringify(value));
      expect(() => loadConfig(dir, {})).toThrow(message);
    };
    bad({ model: { apiKey: 'k' } }, /model\.apiKey: unknown setting \(known: name, baseURL, apiKeyEnv,/);
    bad({ sim: { skil: 0.5 } }, /sim\.skil: unknown setting/);
    bad({ hardening: { cycles: 1 } }, /hardening\.cycles: unknown setting/);
    bad({ cache: { dir: 'c' } }, /cache\.dir: unknown setting \(known: mode, path\)/);
    writeFileSync(join(dir, 'witness.config.json'), JSON.stringify({ $schema: 'schema.json', turns: 2 }));
    expect(loadConfig(dir, {}).config.turns).toBe(2);
  });

  it('reads the run selection from the file (lists, @file relative to it) and lets the environment win', () => {
    const dir = root();
    writeFileSync(join(dir, 'ids.txt'), '# chosen\n3\n5\n');
    writeFileSync(
      join(dir, 'witness.config.json'),
      JSON.stringify({ run: { strategies: ['zero-shot', 'diagnostic'], tasks: '@ids.txt', limit: 2 } }),
    );
    expect(loadConfig(dir, {}).config.run).toEqual({
      strategies: ['zero-shot', 'diagnostic'],
      tasks: ['3', '5'],
      limit: 2,
    });
    writeFileSync(join(dir, 'env-ids.txt'), '7\n');
    const env = loadConfig(dir, { WITNESS_STRATEGIES: 'generic', WITNESS_TASKS: '@env-ids.txt', WITNESS_LIMIT: '9' });
    expect(env.config.run).toEqual({ strategies: ['generic'], tasks: ['7'], limit: 9 });
    expect(loadConfig(dir, { WITNESS_TASKS: '1, 2,1' }).config.run.tasks).toEqual(['1', '2']);
  });

  it('reads the tasks to exclude (an empty file excludes nothing) and strict data from the file and the environment', () => {
    const dir = root();
    writeFileSync(join(dir, 'invalid.txt'), '# 2 invalid items\n4 \n9\n');
    writeFileSync(join(dir, 'none.txt'), '# no invalid items\n');
    writeFileSync(
      join(dir, 'witness.config.json'),
      JSON.stringify({ run: { excludeTasks: '@invalid.txt', strictData: true } }),
    );
    expect(loadConfig(dir, {}).config.run).toEqual({ excludeTasks: ['4', '9'], strictData: true });
    const env = loadConfig(dir, { WITNESS_EXCLUDE_TASKS: '@none.txt', WITNESS_STRICT_DATA: '0' }).config.run;
    expect(env).toEqual({ excludeTasks: [], strictData: false });
    expect(loadConfig(dir, { WITNESS_EXCLUDE_TASKS: '1,3' }).config.run.excludeTasks).toEqual(['1', '3']);
    expect(() => loadConfig(dir, { WITNESS_STRICT_DATA: 'yes' })).toThrow(
      /WITNESS_STRICT_DATA: expected true or false/,
    );
    writeFileSync(join(dir, 'witness.config.json'), JSON.stringify({ run: { strictData: 'yes' } }));
    expect(() => loadConfig(dir, {})).toThrow(/run\.strictData: expected true or false, got "yes"/);
  });

  it('names the source of every invalid selection', () => {
    const dir = root();
    expect(() => loadConfig(dir, { WITNESS_LIMIT: '0' })).toThrow(/WITNESS_LIMIT: expected an integer ≥ 1, got 0/);
    expect(() => loadConfig(dir, { WITNESS_STRATEGIES: ',' })).toThrow(
      /WITNESS_STRATEGIES: expected a comma-separated list/,
    );
    expect(() => loadConfig(dir, { WITNESS_TASKS: '@nope.txt' })).toThrow(
      /WITNESS_TASKS: cannot read the task list .*nope\.txt/,
    );
    const bad = (value: object, message: RegExp) => {
      writeFileSync(join(dir, 'witness.config.json'), JSON.stringify(value));
      expect(() => loadConfig(dir, {})).toThrow(message);
    };
    bad({ run: { limit: 1.5 } }, /witness\.config\.json: run\.limit: expected an integer ≥ 1, got 1\.5/);
    bad({ run: { strategies: [] } }, /run\.strategies: expected a non-empty list/);
    bad({ run: { tasks: [3] } }, /run\.tasks\[0\]: expected a non-empty string/);
    bad(
      { run: { resume: 'x' } },
      /run\.resume: unknown setting \(known: strategies, tasks, excludeTasks, limit, strictData\)/,
    );
  });
});
