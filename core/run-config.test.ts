/** The run's configuration: loaded once by the global setup, provided to the workers intact. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { withoutSuiteData } from '../testing/child-env.ts';
import { loadConfig } from './config.ts';
import { runConfig } from './run-config.ts';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** A vitest run of `files` in a project of its own whose root is not the working directory. */
function childRun(files: Record<string, string>, env: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'witness-run-config-'));
  const setup = JSON.stringify(join(repo, 'core/run-config-setup.ts'));
  writeFileSync(
    join(root, 'vitest.config.mjs'),
    `export default { test: { include: ['*.test.ts'], globals: true, globalSetup: [${setup}] } };\n`,
  );
  writeFileSync(join(root, 'witness.config.json'), JSON.stringify({ turns: 7 }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  const elsewhere = join(root, 'elsewhere');
  mkdirSync(elsewhere);
  const run = spawnSync(process.execPath, [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--root', root], {
    cwd: elsewhere,
    env: withoutSuiteData(process.env, { NO_COLOR: '1', ...env }),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const runConfigModule = JSON.stringify(join(repo, 'core/run-config.ts'));

describe('runConfig', () => {
  it('is the configuration the global setup loaded, unchanged by the trip to the worker', () => {
    expect(inject('witnessRunConfig').ok).toBe(true);
    expect(runConfig()).toStrictEqual(loadConfig(process.cwd(), process.env));
  });

  it('survives a structured clone with every kind of setting set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'witness-run-config-clone-'));
    const env = {
      WITNESS_MODEL: 'm',
      WITNESS_BUDGET: '200k',
      WITNESS_TASKS: '1,2',
      WITNESS_STRATEGIES: 'zero-shot',
      WITNESS_GATE_BASELINE: 'base.json',
      NEO4J_URI: 'bolt://127.0.0.1:1',
    };
    const loaded = loadConfig(dir, env);
    expect(structuredClone(loaded)).toStrictEqual(loaded);
  });

  it('is loaded from the vitest root with the environment of the run', () => {
    const run = childRun(
      {
        'settings.test.ts': `import { runConfig } from ${runConfigModule};
it('sees the file of the root and the variables', () => {
  const { config } = runConfig();
  expect([config.turns, config.trials, config.run.tasks]).toEqual([7, 3, ['a']]);
});
`,
      },
      { WITNESS_TRIALS: '3', WITNESS_TASKS: 'a' },
    );
    expect(run.status, run.output).toBe(0);
    expect(run.output).toMatch(/Tests +1 passed \(1\)/);
  });

  it('fails only where it is asked for when the configuration does not load, with its message', () => {
    const run = childRun(
      {
        'asks.test.ts': `import { runConfig } from ${runConfigModule};
it('gets the error', () => expect(() => runConfig()).toThrow(/WITNESS_TURNS: expected an integer/));
`,
        'other.test.ts': `it('runs', () => expect(1).toBe(1));\n`,
      },
      { WITNESS_TURNS: 'four' },
    );
    expect(run.status, run.output).toBe(0);
    expect(run.output).toMatch(/Tests +2 passed \(2\)/);
  });
});
