/** The public suite helper as a user uses it: their own tasks in a few lines, in their own project. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readResultsFile } from '../reports/results-file.ts';
import { withoutSuiteData } from '../testing/child-env.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('a user-declared benchmark', () => {
  it('runs from a few lines of *.eval.ts; a broken task is invalid data and a task Witness cannot pose a harness error, neither dropped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'witness-user-'));
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `export default { test: { include: ['*.eval.ts'], reporters: ['default', ${JSON.stringify(join(root, 'reports/reporter.ts'))}] } };\n`,
    );
    writeFileSync(
      join(dir, 'prompt.md'),
      'Write an ECMAScript regex that fully matches: {{description}}\nAnswer in a ```regex block.\n',
    );
    writeFileSync(
      join(dir, 'my-regexes.eval.ts'),
      `import { defineBenchmark, pickStrategies, regexOracle } from ${JSON.stringify(join(root, 'index.ts'))};

defineBenchmark({
  name: 'my-regexes',
  tasks: [
    { id: 'zip', description: 'a five-digit US ZIP code', gold: '[0-9]{5}' },
    { id: 'hex', description: 'a CSS hex colour such as #a0f or #A00FF0', gold: '#([0-9a-fA-F]{3}){1,2}' },
    { id: 'broken', description: 'an unbalanced gold', gold: '(abc' },
    { id: 'backref', description: 'as, a b, the as again', gold: '(a*)b\\\\1' },
  ],
  oracle: regexOracle(),
  strategies: pickStrategies('zero-shot', 'diagnostic'),
  prompt: 'prompt.md',
});
`,
    );
    const run = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir], {
      cwd: dir,
      env: {
        ...withoutSuiteData(),
        WITNESS_OUT: join(dir, 'out'),
        WITNESS_STORE: join(dir, 'store'),
        NO_COLOR: '1',
        FORCE_COLOR: '0',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    // The gold Witness has no automaton for is its own limit: two failing tests (harness errors).
    // The unbalanced gold is the data's fault: recorded and listed as invalid data, its tests pass.
    // The others pass whatever the model does.
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/Tests +2 failed \| 6 passed/);
    expect(run.stdout).toMatch(/task backref: the gold regex .* has no automaton/);
    expect(run.stdout).toContain('Invalid data: 1 item the dataset makes unposable (2 episodes');
    expect(run.stdout).toMatch(
      / {2}my-regexes · broken: the gold regex "\(abc" is not valid ECMAScript.* \(2 episodes\)/,
    );
    const results = await readResultsFile(join(dir, 'out', 'results.json'));
    expect(results.trajectories.map((t) => `${t.taskId}/${t.strategy}/${t.outcome.status}`).sort()).toEqual([
      'backref/diagnostic/harness-error',
      'backref/zero-shot/harness-error',
      'broken/diagnostic/invalid-data',
      'broken/zero-shot/invalid-data',
      expect.stringMatching(/^hex\/diagnostic\/(solved|unsolved)$/),
      expect.stringMatching(/^hex\/zero-shot\/(solved|unsolved)$/),
      expect.stringMatching(/^zip\/diagnostic\/(solved|unsolved)$/),
      expect.stringMatching(/^zip\/zero-shot\/(solved|unsolved)$/),
    ]);
    expect(results.summary.map((r) => [r.strategy, r.n, r.harnessErrors, r.invalidData])).toEqual([
      ['zero-shot', 2, 1, 1],
      ['diagnostic', 2, 1, 1],
    ]);
  }, 60_000);
});
