/** The config's `proposer` section (the Meta-Harness proposer): defaults, file, environment, invalid values. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const root = () => mkdtempSync(join(tmpdir(), 'witness-config-proposer-'));
const withFile = (value: object) => {
  const dir = root();
  writeFileSync(join(dir, 'witness.config.json'), JSON.stringify(value));
  return dir;
};

describe('config proposer section', () => {
  it('defaults to the configured model, 40 steps and a 30-minute command timeout', () => {
    expect(loadConfig(root(), {}).config.proposer).toEqual({ maxSteps: 40, commandTimeoutS: 1800 });
  });

  it('takes the environment over the file', () => {
    const dir = withFile({ proposer: { model: 'file-model', maxSteps: 12, commandTimeoutS: 60 } });
    expect(loadConfig(dir, {}).config.proposer).toEqual({ model: 'file-model', maxSteps: 12, commandTimeoutS: 60 });
    const env = {
      WITNESS_PROPOSER_MODEL: 'env-model',
      WITNESS_PROPOSER_MAX_STEPS: '7',
      WITNESS_PROPOSER_TIMEOUT_S: '2.5',
    };
    expect(loadConfig(dir, env).config.proposer).toEqual({ model: 'env-model', maxSteps: 7, commandTimeoutS: 2.5 });
  });

  it.each([
    [{ proposer: { maxSteps: 0 } }, {}, /witness\.config\.json: proposer\.maxSteps: expected an integer ≥ 1, got 0/],
    [{ proposer: { commandTimeoutS: -1 } }, {}, /proposer\.commandTimeoutS: expected a positive number/],
    [{ proposer: { model: '' } }, {}, /proposer\.model: expected a non-empty string/],
    [{ proposer: { steps: 3 } }, {}, /proposer\.steps/],
    [{}, { WITNESS_PROPOSER_MAX_STEPS: 'many' }, /WITNESS_PROPOSER_MAX_STEPS: expected an integer ≥ 1/],
    [{}, { WITNESS_PROPOSER_TIMEOUT_S: '0' }, /WITNESS_PROPOSER_TIMEOUT_S: expected a positive number/],
  ])('names the source of an invalid value (%j, %j)', (file, env, error) => {
    expect(() => loadConfig(withFile(file), env)).toThrow(error);
  });
});
