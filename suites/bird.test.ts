/** `npm run bench` end to end for BIRD: the bird suite with the sim model, the reporter, and untouched databases. */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readResultsFile } from '../reports/results-file.ts';
import { temporaryFolders } from '../testing/sql.ts';
import { withoutSuiteData } from '../testing/child-env.ts';

const folders = temporaryFolders();
afterAll(() => folders.removeAll());

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'fixtures/bird');
const checksums = () =>
  readFileSync(join(fixtures, 'SHA256SUMS'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const file = line.split(/\s+/)[1] as string;
      return `${createHash('sha256')
        .update(readFileSync(join(fixtures, 'dev_databases', file)))
        .digest('hex')}  ${file}`;
    })
    .join('\n');

describe('the bird benchmark suite', () => {
  it('runs every fixture question × every strategy with the sim, states the comparison mode, and leaves the databases as they were', async () => {
    const before = checksums();
    expect(before).toBe(readFileSync(join(fixtures, 'SHA256SUMS'), 'utf8').trim());
    const dir = folders.make('witness-bench-bird-');
    const env: NodeJS.ProcessEnv = {
      ...withoutSuiteData(),
      WITNESS_OUT: join(dir, 'out'),
      WITNESS_STORE: join(dir, 'store'),
      WITNESS_RUN_ID: 'bird-e2e',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      WITNESS_VES_ITERATIONS: '3',
    };
    delete env.WITNESS_MODEL;
    const run = spawnSync(
      process.execPath,
      [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'bench', 'suites/bird.eval.ts'],
      {
        cwd: root,
        env,
        encoding: 'utf8',
        timeout: 240_000,
      },
    );
    expect(run.status, run.stderr.slice(-3000)).toBe(0);
    expect(run.stdout).toMatch(/bird · sim \(privileged\)/);
    const strategies = [
      'zero-shot',
      'generic',
      'error-only',
      'one-example',
      'three-example',
      'diagnostic',
      'hero-t',
      'react',
      'cheatsheet',
    ];
    for (const strategy of strategies) expect(run.stdout).toMatch(new RegExp(`│ ${strategy} +│ +46 │`));
    const results = await readResultsFile(join(dir, 'out', 'results.json'));
    expect(results.trajectories).toHaveLength(46 * strategies.length);
    expect(results.trajectories.every((t) => t.outcome.status !== 'harness-error')).toBe(true);
    expect(new Set(results.trajectories.map((t) => JSON.stringify(t.oracle.settings.mode)))).toEqual(
      new Set(['"set"']),
    );
    expect(results.trajectories[0]?.caseIds).toEqual(['original', 'perturbed-1', 'perturbed-2', 'perturbed-3']);
    const solved = results.trajectories.flatMap((t) => t.turns.filter((turn) => turn.verdict.pass));
    expect(solved.length).toBeGreaterThan(0);
    expect(
      solved.every((turn) => typeof turn.verdict.detail?.ves === 'number' && (turn.verdict.detail.ves as number) > 0),
    ).toBe(true);
    const byStrategy = (name: string) => results.summary.find((row) => row.strategy === name);
    expect(byStrategy('diagnostic')!.passFinal.value!).toBeGreaterThan(byStrategy('generic')!.passFinal.value!);
    expect(byStrategy('diagnostic')!.pass1.value).toBe(byStrategy('zero-shot')!.pass1.value);
    expect(checksums()).toBe(before);
  }, 240_000);
});
