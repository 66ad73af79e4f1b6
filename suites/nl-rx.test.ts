/** `npm run bench` end to end: the nl-rx suite with the sim model, the reporter and the run store. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RunStore } from '../core/store.ts';
import { readResultsFile } from '../reports/results-file.ts';
import { withoutSuiteData } from '../testing/child-env.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the nl-rx benchmark suite', () => {
  it('runs every fixture task × the six A-CEGIS strategies and HERO-T with its baselines, with the sim, and writes the reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'witness-bench-'));
    const env: NodeJS.ProcessEnv = {
      ...withoutSuiteData(),
      WITNESS_OUT: join(dir, 'out'),
      WITNESS_STORE: join(dir, 'store'),
      WITNESS_RUN_ID: 'e2e-run',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    };
    delete env.WITNESS_MODEL;
    const run = spawnSync(
      process.execPath,
      [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'bench', 'suites/nl-rx.eval.ts'],
      {
        cwd: root,
        env,
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/no model configured, using the privileged `sim` model/);
    expect(run.stdout).toMatch(/nl-rx · sim \(privileged\)/);
    const strategies = [
      'zero-shot',
      'generic',
      'error-only',
      'one-example',
      'three-example',
      'diagnostic',
      'cheatsheet',
      'hero-t',
      'react',
    ];
    for (const strategy of strategies) {
      expect(run.stdout).toMatch(new RegExp(`│ ${strategy} +│ +37 │`));
    }

    const results = await readResultsFile(join(dir, 'out', 'results.json'));
    expect(results.trajectories).toHaveLength(37 * strategies.length);
    expect(new Set(results.trajectories.map((t) => t.runId))).toEqual(new Set(['e2e-run']));
    expect(results.trajectories.every((t) => t.model.privileged && t.outcome.status !== 'harness-error')).toBe(true);
    const byStrategy = (name: string) => results.summary.find((row) => row.strategy === name);
    // Feedback with witnesses must beat feedback without them, and every strategy shares turn 1.
    expect(byStrategy('diagnostic')!.passFinal.value!).toBeGreaterThan(byStrategy('generic')!.passFinal.value!);
    expect(byStrategy('diagnostic')!.pass1.value).toBe(byStrategy('zero-shot')!.pass1.value);
    expect(readFileSync(join(dir, 'out', 'summary.md'), 'utf8')).toMatch(/privileged/i);
    const stored = new RunStore(join(dir, 'store'), 'e2e-run').load();
    expect(stored.problems).toEqual([]);
    expect(stored.trajectories).toHaveLength(37 * strategies.length);
    // Refiners record what they did and account their auxiliary calls apart.
    const hero = results.trajectories.filter((t) => t.strategy === 'hero-t');
    expect(hero.every((t) => (t.refinement?.log.length ?? 0) > 0)).toBe(true);
    expect(hero.some((t) => t.turns[0]?.calls?.some((c) => c.purpose === 'judge'))).toBe(true);
  }, 120_000);
});
