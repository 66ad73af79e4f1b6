/**
 * The dscodebench and bigcodebench suites end to end: `vitest run --project bench` with the sim
 * model, the reporter's table, results.json and the run store. DSCodeBench runs on a
 * subset of its fixtures (four tasks, through WITNESS_DSCODEBENCH_DATA) to keep this test short; `npm run bench` runs
 * them all.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readResultsFile } from '../reports/results-file.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const STRATEGIES = ['zero-shot', 'generic', 'error-only', 'one-example', 'three-example', 'diagnostic', 'cheatsheet', 'hero-t', 'react'];

function bench(suite: string, extraEnv: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), `witness-${suite}-`));
  const env: NodeJS.ProcessEnv = { ...process.env, WITNESS_OUT: join(dir, 'out'), WITNESS_STORE: join(dir, 'store'), WITNESS_RUN_ID: `${suite}-e2e`, NO_COLOR: '1', FORCE_COLOR: '0', ...extraEnv };
  delete env.WITNESS_MODEL;
  const run = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'bench', `suites/${suite}.eval.ts`], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 240_000,
  });
  return { run, dir };
}

describe('the Python benchmark suites on the sim model', () => {
  it('bigcodebench: every fixture task × every strategy (A-CEGIS grid, HERO-T and baselines), per-test cases, no harness errors', async () => {
    const { run, dir } = bench('bigcodebench');
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    expect(run.stdout).toMatch(/bigcodebench · sim \(privileged\)/);
    for (const strategy of STRATEGIES) expect(run.stdout).toMatch(new RegExp(`│ ${strategy} +│ +27 │`));
    const results = await readResultsFile(join(dir, 'out', 'results.json'));
    expect(results.trajectories).toHaveLength(27 * STRATEGIES.length);
    expect(results.trajectories.every((t) => t.model.privileged && t.outcome.status !== 'harness-error')).toBe(true);
    const first = results.trajectories.find((t) => t.taskId === 'WitnessBCB/9' && t.strategy === 'diagnostic');
    expect(first?.caseIds).toEqual(['test_empty', 'test_even_median', 'test_multimode_smallest', 'test_simple']);
    const byStrategy = (name: string) => results.summary.find((row) => row.strategy === name);
    expect(byStrategy('diagnostic')!.passFinal.value!).toBeGreaterThanOrEqual(byStrategy('zero-shot')!.passFinal.value!);
    expect(byStrategy('diagnostic')!.pass1.value).toBe(byStrategy('zero-shot')!.pass1.value);
  }, 240_000);

  it('dscodebench: 200 seeded cases per task, hardening after success, no harness errors', async () => {
    const all = readFileSync(join(root, 'fixtures/dscodebench/dscodebench.jsonl'), 'utf8').trim().split('\n');
    const subset = all.filter((line) => /"problem_id": "witness_(std_00[23]|np_001|pd_007)"/.test(line));
    expect(subset).toHaveLength(4);
    const data = join(mkdtempSync(join(tmpdir(), 'witness-ds-subset-')), 'subset.jsonl');
    writeFileSync(data, `${subset.join('\n')}\n`);
    const { run, dir } = bench('dscodebench', { WITNESS_DSCODEBENCH_DATA: data });
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    expect(run.stdout).toMatch(/dscodebench · sim \(privileged\)/);
    for (const strategy of STRATEGIES) expect(run.stdout).toMatch(new RegExp(`│ ${strategy} +│ +4 │`));
    const results = await readResultsFile(join(dir, 'out', 'results.json'));
    expect(results.trajectories).toHaveLength(4 * STRATEGIES.length);
    expect(results.trajectories.every((t) => t.outcome.status !== 'harness-error' && t.caseIds.length >= 200)).toBe(true);
    const solved = results.trajectories.filter((t) => t.outcome.status === 'solved');
    expect(solved.length).toBeGreaterThan(0);
    expect(solved.every((t) => t.outcome.hardening && t.outcome.hardening.probesRun > 0)).toBe(true);
    const failedTurn = results.trajectories.flatMap((t) => t.turns).find((turn) => !turn.verdict.pass && turn.verdict.witnesses.length > 0);
    expect(failedTurn?.verdict.witnesses.length).toBeLessThanOrEqual(2);
    expect(failedTurn?.verdict.witnesses[0]).toMatchObject({ kind: 'failing-input', expected: expect.any(String), actual: expect.any(String) });
  }, 240_000);
});
