/**
 * `witness bench` selections through the binary: usage errors (exit 2, clear messages), the dry
 * run's counts, and real sim runs of the nl-rx and bird suites whose results hold exactly the
 * selection — the same sample on every run and on every shard.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { withoutSuiteData } from '../testing/child-env.ts';
import { loadNlRx } from '../oracles/regex/loader.ts';
import { readResultsFile } from '../reports/results-file.ts';
import type { Trajectory } from '../core/types.ts';
import type { BenchPlan } from './bench-plan.ts';
import { main } from './main.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/witness.js');
const dir = mkdtempSync(join(tmpdir(), 'witness-bench-'));
const NLRX_TASKS = loadNlRx(join(root, 'fixtures/nl-rx')).tasks.length;

/** This environment without any setting of its own: no data variables, no WITNESS_*, no vitest state. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = withoutSuiteData(process.env, { NO_COLOR: '1', FORCE_COLOR: '0' });
  for (const key of Object.keys(env))
    if (key.startsWith('WITNESS_') || key.startsWith('VITEST') || key === 'TEST') delete env[key];
  return { ...env, WITNESS_STORE: join(dir, 'store'), ...extra };
}

function witness(args: string[], extra: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [bin, 'bench', ...args], {
    cwd: root,
    env: cleanEnv(extra),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { ...run, output: run.stdout + run.stderr };
}

const dryRun = (args: string[], extra: Record<string, string> = {}) => {
  const run = witness([...args, '--dry-run', '--json'], extra);
  expect(run.status, run.output).toBe(0);
  return JSON.parse(run.stdout) as BenchPlan;
};

describe('witness bench usage errors', () => {
  const cases: [string[], RegExp][] = [
    [['--suite', 'nl-rx,nlrx'], /unknown suite "nlrx" \(known: bigcodebench, bird, cypherbench, dscodebench, nl-rx\)/],
    [
      ['--suite', 'nl-rx', '--strategies', 'zero-shot,hero'],
      /unknown strategy "hero" \(the suites' strategies: zero-shot, .*cheatsheet, or harness:<path>\)/,
    ],
    [['--strategies', ' , '], /--strategies: expected a comma-separated list/],
    [['--tasks', '1,2'], /--tasks needs exactly one --suite/],
    [['--suite', 'nl-rx,bird', '--tasks', '1'], /--tasks needs exactly one --suite/],
    [['--suite', 'nl-rx', '--tasks', '2,998,999'], /benchmark nl-rx: unknown task ids "998", "999" \(it has \d+ tasks/],
    [['--suite', 'nl-rx', '--tasks', '@no-such-ids.txt'], /--tasks: there is no file .*no-such-ids\.txt/],
    [['--data', 'fixtures/nl-rx'], /--data needs exactly one --suite/],
    [['--suite', 'nl-rx,bird', '--data', 'fixtures/nl-rx'], /--data needs exactly one --suite/],
    [['--suite', 'nl-rx', '--data', 'no/such/folder'], /--data: there is no file or folder .*no\/such\/folder/],
    [['--limit', '0'], /--limit.*expected a positive integer/],
    [['--json'], /--json goes with --dry-run/],
    [['--rerun', 'failed'], /--rerun needs --resume/],
    [['--suite', 'nl-rx', '--suite', 'bird'], /--suite is given more than once/],
    [['--suite', 'nl-rx', '--limit', '2', '--limit', '3'], /--limit is given more than once/],
    [['--resume', 'no-such-run'], /--resume: there is no run no-such-run/],
    [
      ['--suite', 'nl-rx', '--shard', '1/2', '--dry-run'],
      /--shard 1\/2: vitest shards by file, and the run has 1 suite file/,
    ],
    [['--suite', 'nl-rx,bird', '--shard', '3/2', '--dry-run'], /--shard: expected <index>\/<count>/],
  ];
  // In this process (the command line's own entry point, no child): usage errors stop before any run.
  it.each(cases)('refuses %j', async (args, message) => {
    const env = { ...process.env };
    let stderr = '';
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
    try {
      process.exitCode = undefined;
      await main(['node', 'witness', 'bench', ...args]);
      expect(process.exitCode, stderr).toBe(2);
      expect(stderr).toMatch(message);
    } finally {
      write.mockRestore();
      process.exitCode = undefined;
      for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
    }
  });
});

describe('witness bench checks task ids before any suite starts', () => {
  // CypherBench's suite starts Neo4j (tens of seconds) before it can select tasks: ids from the
  // environment or the config file are checked by the command first, and by the suite file before
  // it asks for a server when vitest runs it directly.
  const unknownId = /benchmark cypherbench: unknown task id "no-such-question" \(it has \d+ tasks/;

  it('WITNESS_TASKS with an unknown id: exit 2 from the command, no vitest, no Neo4j', () => {
    const run = witness(['--suite', 'cypherbench'], {
      WITNESS_TASKS: 'no-such-question',
      WITNESS_OUT: join(dir, 'out-ids'),
    });
    expect(run.status, run.output).toBe(2);
    expect(run.stderr).toMatch(unknownId);
    expect(run.output).not.toMatch(/Neo4j|RUN +v\d/);
  }, 90_000);

  it('a plain vitest run of the suite file fails it before asking for Neo4j', () => {
    const vitest = join(root, 'node_modules/vitest/vitest.mjs');
    const run = spawnSync(process.execPath, [vitest, 'run', '--project', 'bench', 'suites/cypherbench.eval.ts'], {
      cwd: root,
      env: cleanEnv({ WITNESS_TASKS: 'no-such-question', WITNESS_OUT: join(dir, 'out-vitest-ids') }),
      encoding: 'utf8',
      timeout: 120_000,
    });
    const output = run.stdout + run.stderr;
    expect(run.status, output).toBe(1);
    expect(output).toMatch(unknownId);
    expect(output).not.toMatch(/starting Neo4j/);
  }, 150_000);
});

describe('witness bench --dry-run', () => {
  it('counts tasks, strategies, trials, episodes and the most model calls, per suite and in total', () => {
    const plan = dryRun([
      '--suite',
      'nl-rx',
      '--strategies',
      'diagnostic,zero-shot,hero-t',
      '--limit',
      '5',
      '--trials',
      '2',
    ]);
    expect(plan.suites).toHaveLength(1);
    const [suite] = plan.suites;
    expect(suite).toMatchObject({
      suite: 'nl-rx',
      data: null,
      split: null,
      totalTasks: NLRX_TASKS,
      selectedTasks: 5,
      trials: 2,
      episodes: 5 * 3 * 2,
    });
    expect(suite!.taskIds).toHaveLength(5);
    // Strategies in the suite's order; per episode: zero-shot 1, diagnostic 4 turns + 2 repairs, hero-t 1 + 7 + 1.
    expect(suite!.strategies.map((s) => [s.name, s.maxCallsPerEpisode, s.maxCalls])).toEqual([
      ['zero-shot', 1, 10],
      ['diagnostic', 6, 60],
      ['hero-t', 9, 90],
    ]);
    expect([plan.episodes, plan.maxCalls]).toEqual([30, 160]);
  }, 90_000);

  it('covers every built-in suite by default and prints a readable summary', () => {
    // Neo4j and the Python sandbox may only start through Docker, which this machine does not run:
    // the dry run succeeds because it starts neither.
    const all = dryRun(['--strategies', 'zero-shot'], { WITNESS_NEO4J: 'docker', WITNESS_PYTHON_SANDBOX: 'docker' });
    expect(all.suites.map((s) => s.suite)).toEqual(['bigcodebench', 'bird', 'cypherbench', 'dscodebench', 'nl-rx']);
    expect(all.episodes).toBe(all.suites.reduce((n, s) => n + s.selectedTasks, 0));
    expect(all.maxCalls).toBe(all.episodes);
    const text = witness(['--suite', 'bird', '--limit', '4', '--budget', '50k', '--dry-run']);
    expect(text.status, text.output).toBe(0);
    expect(text.stdout).toMatch(/bird · data: the fixtures \(set WITNESS_BIRD_DATA or --data\) · split: default/);
    expect(text.stdout).toMatch(/tasks: 4 of \d+ \(seeded sample of 4, seed 1\)/);
    expect(text.stdout).toMatch(
      /total: 36 episodes, model calls at most 200 \(retries of failed requests not counted\)/,
    );
    expect(text.stdout).toMatch(/budget: 50,000 tokens; the run stops cleanly once it is spent/);
  }, 90_000);

  it('takes ids from a file, and shows the data and split it was given', () => {
    const ids = join(dir, 'ids.txt');
    writeFileSync(ids, '# three tasks\n7\n3\n12\n');
    const plan = dryRun(['--suite', 'nl-rx', '--tasks', `@${ids}`, '--split', 'all', '--data', 'fixtures/nl-rx']);
    expect(plan.suites[0]).toMatchObject({
      taskIds: ['3', '7', '12'],
      split: 'all',
      data: join(root, 'fixtures/nl-rx'),
    });
  }, 90_000);
});

describe('witness bench runs the selection', () => {
  it('runs exactly 3 sampled tasks × 1 strategy, the same sample on every run and on every shard', async () => {
    const sample = dryRun(['--suite', 'nl-rx,bird', '--limit', '3']).suites;
    const expected = new Map(sample.map((s) => [s.suite, s.taskIds]));
    const select = ['--strategies', 'zero-shot', '--limit', '3'];

    const out = join(dir, 'out-whole');
    const whole = witness(['--suite', 'nl-rx', ...select], { WITNESS_OUT: out });
    expect(whole.status, whole.output).toBe(0);
    const results = await readResultsFile(join(out, 'results.json'));
    expect(results.trajectories).toHaveLength(3);
    expect(new Set(results.trajectories.map((t) => t.strategy))).toEqual(new Set(['zero-shot']));
    expect(results.trajectories.map((t) => t.taskId).sort()).toEqual([...expected.get('nl-rx')!].sort());

    // Two shards of two suites (vitest shards by file): together the same samples, each once.
    const shards = [];
    const ranByShard = new Map<string, Trajectory[]>();
    for (const shard of ['1/2', '2/2']) {
      const shardOut = join(dir, `out-${shard.replace('/', '-')}`);
      const run = witness(['--suite', 'nl-rx,bird', ...select, '--shard', shard], { WITNESS_OUT: shardOut });
      expect(run.status, run.output).toBe(0);
      const { trajectories } = await readResultsFile(join(shardOut, 'results.json'));
      // Each shard ran one of the two suite files.
      expect(new Set(trajectories.map((t) => t.benchmark)).size, shard).toBe(1);
      shards.push(...trajectories);
      ranByShard.set(shard, trajectories);
    }
    // The dry run of each shard counts the suite that shard ran.
    for (const shard of ['1/2', '2/2']) {
      const counted = dryRun(['--suite', 'nl-rx,bird', ...select, '--shard', shard]);
      expect(counted.shard).toEqual({ index: Number(shard[0]), count: 2 });
      const ran = ranByShard.get(shard)!;
      expect(
        counted.suites.map((s) => s.suite),
        shard,
      ).toEqual([ran[0]!.benchmark]);
      expect(counted.episodes).toBe(ran.length);
    }
    const byBenchmark = new Map<string, string[]>();
    for (const t of shards) byBenchmark.set(t.benchmark, [...(byBenchmark.get(t.benchmark) ?? []), t.taskId]);
    expect([...byBenchmark.keys()].sort()).toEqual(['bird', 'nl-rx']);
    for (const [benchmark, ids] of byBenchmark)
      expect(ids.sort(), benchmark).toEqual([...expected.get(benchmark)!].sort());
    expect(new Set(shards.map((t) => t.strategy))).toEqual(new Set(['zero-shot']));
  }, 180_000);
});
