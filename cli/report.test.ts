/** `witness report`, `witness gate` and `witness baseline` through the real command line. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Trajectory } from '../core/types.ts';
import { CASES, makeTrajectory } from '../reports/__fixtures__/trajectories.ts';
import { buildResults, readResultsFile, writeResultsFile } from '../reports/results-file.ts';
import { summarize } from '../reports/summary.ts';

const bin = fileURLToPath(new URL('../bin/witness.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'witness-cli-report-'));
const witness = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
const tasks = ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8'];
const solved = (taskId: string, runId: string) =>
  makeTrajectory({ taskId, runId, turns: [{ source: 'ok', pass: CASES }] });
const failed = (taskId: string, runId: string) =>
  makeTrajectory({ taskId, runId, turns: [{ source: 'no', pass: ['p1'] }] });

async function results(name: string, trajectories: Trajectory[]): Promise<string> {
  const path = join(dir, name);
  await writeResultsFile(path, buildResults(summarize(trajectories), trajectories));
  return path;
}

let good = '';
let bad = '';
let shardA = '';
let shardB = '';
beforeAll(async () => {
  good = await results(
    'good.json',
    tasks.map((t) => solved(t, 'base')),
  );
  bad = await results(
    'bad.json',
    tasks.map((t, i) => (i < 7 ? failed(t, 'cand') : solved(t, 'cand'))),
  );
  shardA = await results(
    'shard-a.json',
    tasks.slice(0, 4).map((t) => solved(t, 'sharded')),
  );
  shardB = await results(
    'shard-b.json',
    tasks.slice(4).map((t) => failed(t, 'sharded')),
  );
});

describe('witness report', () => {
  it('merges shards into one leaderboard and writes the four reports', async () => {
    const run = witness('report', shardA, shardB, '--out', 'merged');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/│ diagnostic +│ +8 │ +50\.0 \[/);
    for (const name of ['results.json', 'summary.md', 'report.json', 'report.html'])
      expect(run.stdout).toContain(join(dir, 'merged', name));
    expect((await readResultsFile(join(dir, 'merged', 'results.json'))).trajectories).toHaveLength(8);
    expect(readFileSync(join(dir, 'merged', 'summary.md'), 'utf8')).toContain('| diagnostic | 8 | 50.0 [');
  });

  it('shows overlapping runs as separate rows and says so', () => {
    const run = witness('report', good, bad, '--out', 'runs');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('nlrx-turk · sim · base');
    expect(run.stdout).toContain('nlrx-turk · sim · cand');
    expect(run.stdout).toContain(
      'note: runs base, cand overlap on nlrx-turk · sim: shown as separate rows, one per run',
    );
  });
});

describe('witness gate', () => {
  it('passes an identical run and exits 0', () => {
    const run = witness('gate', '--baseline', good, '--candidate', good);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Witness gate: pass/);
  });

  it('fails a significant regression with exit 1, naming the metric, the numbers and the instances that broke', () => {
    const run = witness('gate', '--baseline', good, '--candidate', bad, '--markdown', join(dir, 'summary.md'));
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('Witness gate: FAIL — Pass@1 regressed or fell below the floor in nlrx-turk');
    expect(run.stdout).toContain('✗ nlrx-turk: 100.0% → 12.5%, Δ −87.5');
    expect(run.stdout).toContain(
      '7 broke, 0 fixed; tasks worse/better 7/0, exact sign test one-sided p = 0.0078 < 0.05',
    );
    expect(run.stdout).toContain('broke: nlrx-turk · diagnostic · task t1 · trial 0;');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('## Witness gate: FAIL');
  });

  it('takes the policy from a config file, flags override it, and prints JSON', () => {
    writeFileSync(join(dir, 'lenient.json'), JSON.stringify({ gate: { noiseBand: 0.9 } }));
    const floor = witness(
      'gate',
      '--baseline',
      good,
      '--candidate',
      good,
      '--config',
      'lenient.json',
      '--floor',
      '1',
      '--metric',
      'robust',
      '--json',
    );
    expect(floor.status).toBe(1);
    const verdict = JSON.parse(floor.stdout);
    expect([verdict.metric, verdict.policy.noiseBand, verdict.checks[0].reasons[0]]).toEqual([
      'robust',
      0.9,
      'robust success of the candidate is 0.0%, below the floor of 100.0%',
    ]);
  });

  it('exits 2 on unusable input or usage, distinct from a failing gate', () => {
    const missing = witness('gate', '--baseline', join(dir, 'nope.json'), '--candidate', good);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json: cannot read/);
    writeFileSync(join(dir, 'badconfig.json'), JSON.stringify({ gate: { metric: 'vibes' } }));
    const config = witness('gate', '--baseline', good, '--candidate', good, '--config', 'badconfig.json');
    expect([config.status, config.stderr]).toEqual([
      2,
      expect.stringMatching(/gate\.metric: expected one of pass1, passFinal, robust/),
    ]);
    expect(witness('gate', '--baseline', good, '--candidate', good, '--alpha', '7').status).toBe(2);
  });
});

describe('witness baseline', () => {
  it('writes a compact baseline the gate reads like a results file', () => {
    const run = witness('baseline', good, '--out', 'baseline.json');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('(8 instances of run base)');
    const baseline = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8'));
    expect([baseline.schema, baseline.instances.length]).toEqual(['witness.baseline', 8]);
    expect(witness('gate', '--baseline', 'baseline.json', '--candidate', bad).status).toBe(1);
  });
});
