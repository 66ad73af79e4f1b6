/**
 * No planned episode vanishes, end to end: real vitest runs of two user benchmarks whose oracle
 * misbehaves on purpose (a check that never returns, one that calls process.exit, one that kills
 * its own worker), and a run whose store cannot write. Every planned episode is in results.json
 * exactly once, the lost ones as harness errors that say why; summary.md and the terminal show
 * planned against recorded; the same holds after --shard + blob + --merge-reports; `witness gate`
 * fails closed on the incomplete run, and passes once a resume has finished it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { withoutSuiteData } from '../testing/child-env.ts';
import type { Trajectory } from '../core/types.ts';
import { readResultsFile } from './results-file.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'witness-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TIMEOUT_MS = 6_000;
writeFileSync(
  join(dir, 'vitest.config.mjs'),
  `export default { test: { include: ['*.eval.ts'], testTimeout: ${TIMEOUT_MS}, reporters: ['default', ${JSON.stringify(join(root, 'reports/reporter.ts'))}] } };\n`,
);
writeFileSync(join(dir, 'prompt.md'), 'Write an ECMAScript regex that fully matches: {{description}}\n');
// The regex oracle, with a check that misbehaves on the tasks named after a fault while LEDGER_FAULTS=1.
writeFileSync(
  join(dir, 'faults.ts'),
  `import { regexOracle, TaskInputError } from ${JSON.stringify(join(root, 'index.ts'))};
export function faultyOracle() {
  const oracle = regexOracle();
  const check: typeof oracle.check = async (prepared, candidate) => {
    if (process.env.LEDGER_FAULTS === '1') {
      if (prepared.task.id === 'hang') await new Promise(() => {});
      if (prepared.task.id === 'exit') process.exit(3);
      if (prepared.task.id === 'crash') process.kill(process.pid, 'SIGKILL');
      if (prepared.task.id === 'misfiled') throw new TaskInputError('task misfiled', 'thrown by a check');
    }
    return oracle.check(prepared, candidate);
  };
  return { ...oracle, check };
}
`,
);
const benchmark = (name: string, tasks: [string, string, string][]) =>
  writeFileSync(
    join(dir, `${name}.eval.ts`),
    `import { defineBenchmark, pickStrategies } from ${JSON.stringify(join(root, 'index.ts'))};
import { faultyOracle } from './faults.ts';
defineBenchmark({
  name: ${JSON.stringify(name)},
  tasks: ${JSON.stringify(tasks.map(([id, description, gold]) => ({ id, description, gold })))},
  oracle: faultyOracle(),
  strategies: pickStrategies('zero-shot', 'diagnostic'),
  prompt: 'prompt.md',
});
`,
  );
benchmark('timing', [
  ['zip', 'a five-digit US ZIP code', '[0-9]{5}'],
  ['hang', 'three digits', '[0-9]{3}'],
  ['exit', 'two digits', '[0-9]{2}'],
  ['misfiled', 'four digits', '[0-9]{4}'],
]);
benchmark('crash', [['crash', 'one digit', '[0-9]']]);
mkdirSync(join(dir, 'blobs'));

/** A vitest run in the temp project; settings from the environment only (`extra` on top of a clean one). */
function vitest(name: string, args: string[], extra: Record<string, string>) {
  const env: NodeJS.ProcessEnv = withoutSuiteData();
  for (const key of Object.keys(env))
    if (key.startsWith('VITEST') || key === 'TEST' || key.startsWith('WITNESS_') || key === 'LEDGER_FAULTS')
      delete env[key];
  Object.assign(env, { WITNESS_OUT: join(dir, name), WITNESS_STORE: join(dir, 'store'), NO_COLOR: '1' }, extra);
  const vitestCli = join(root, 'node_modules/vitest/vitest.mjs');
  const run = spawnSync(process.execPath, [vitestCli, 'run', '--root', dir, ...args], {
    cwd: dir,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

function gate(candidate: string) {
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'bin/witness.js'),
      'gate',
      '--baseline',
      join(dir, 'resumed', 'results.json'),
      '--candidate',
      candidate,
    ],
    { cwd: dir, env: withoutSuiteData(process.env, { NO_COLOR: '1' }), encoding: 'utf8', timeout: 60_000 },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const episode = (t: Trajectory) => `${t.benchmark} ${t.taskId} ${t.strategy} ${t.outcome.status}`;
const ALL = ['crash crash', 'timing exit', 'timing hang', 'timing misfiled', 'timing zip'].flatMap((e) =>
  ['diagnostic', 'zero-shot'].map((s) => `${e} ${s}`),
);

describe('the ledger of planned episodes', () => {
  it('records every planned episode once, the lost ones as harness errors saying why, live and after shard + blob + merge; the gate fails closed until a resume finishes the run', async () => {
    const faults = { LEDGER_FAULTS: '1', WITNESS_RUN_ID: 'ledger' };
    const live = vitest('live', [], faults);
    expect(live.status, live.output).toBe(1);
    expect(live.output).toContain(
      'Episodes: 10 planned, 6 recorded, 4 lost (a harness-error trajectory says why for each)',
    );
    const results = await readResultsFile(join(dir, 'live', 'results.json'));
    expect(results.ledger).toEqual({ planned: 10, recorded: 6, lost: 4, notRun: [] });
    // Each planned (task × strategy) once: the check that called process.exit is a harness error its
    // test recorded; the test that timed out and the tests of the worker that died are lost.
    expect(results.trajectories.map((t) => `${t.benchmark} ${t.taskId} ${t.strategy}`).sort()).toEqual(ALL.sort());
    expect(
      results.trajectories
        .filter((t) => t.taskId !== 'zip')
        .map(episode)
        .sort(),
    ).toEqual(ALL.filter((e) => !e.startsWith('timing zip')).map((e) => `${e} harness-error`));
    const error = (taskId: string) => results.trajectories.find((t) => t.taskId === taskId)?.outcome.error;
    expect(error('hang')).toBe(
      `episode lost: its test failed without recording the episode: Test timed out in ${TIMEOUT_MS}ms.`,
    );
    expect(error('crash')).toMatch(
      /^episode lost: its test never finished: its vitest worker ended before it \(.*Worker exited unexpectedly/,
    );
    expect(error('exit')).toBe('process.exit unexpectedly called with "3"');
    // A TaskInputError thrown by a check, not by the task's preparation, is Witness's: not invalid data.
    expect(error('misfiled')).toBe('task misfiled: thrown by a check');
    expect(readFileSync(join(dir, 'live', 'summary.md'), 'utf8')).toContain(
      '**Episodes: 10 planned, 6 recorded, 4 lost (a harness-error trajectory says why for each)**',
    );

    // The same run as two shards written as blobs, then merged.
    const shards = [1, 2].map((i) =>
      vitest(
        `shard-${i}`,
        [`--shard=${i}/2`, '--reporter=blob', `--outputFile=${join(dir, 'blobs', `${i}.json`)}`],
        faults,
      ),
    );
    for (const shard of shards) expect(shard.output).not.toContain('Witness results');
    const merged = vitest('merged', [`--merge-reports=${join(dir, 'blobs')}`], {});
    expect(merged.status, merged.output).toBe(1);
    const mergedResults = await readResultsFile(join(dir, 'merged', 'results.json'));
    expect(mergedResults.ledger).toEqual(results.ledger);
    expect(mergedResults.trajectories.map(episode).sort()).toEqual(results.trajectories.map(episode).sort());

    // A resume without the faults, redoing the errored episodes: every planned episode recorded.
    const resumed = vitest('resumed', [], {
      WITNESS_RESUME: 'ledger',
      WITNESS_RUN_ID: 'ledger',
      WITNESS_RERUN: 'errored',
    });
    expect(resumed.status, resumed.output).toBe(0);
    expect(resumed.output).toContain('Episodes: 10 planned, 10 recorded');
    expect(resumed.output).toContain('Resumed run ledger: 2 episodes taken from the run store, 8 run now.');
    const complete = await readResultsFile(join(dir, 'resumed', 'results.json'));
    expect(complete.ledger).toEqual({ planned: 10, recorded: 10, lost: 0, notRun: [] });
    expect(complete.trajectories.filter((t) => t.outcome.status === 'harness-error')).toEqual([]);

    // The gate refuses the incomplete run whatever the numbers, and judges the complete one.
    const failed = gate(join(dir, 'live', 'results.json'));
    expect(failed.status, failed.output).toBe(1);
    expect(failed.output).toContain('Witness gate: FAIL — planned episodes are missing from the run');
    expect(failed.output).toContain(
      'note: 4 of 10 planned episodes have no trajectory of their own (4 lost): the run is incomplete; the gate does not judge an incomplete run (fail closed)',
    );
    const passed = gate(join(dir, 'resumed', 'results.json'));
    expect(passed.status, passed.output).toBe(0);
  }, 240_000);

  it('records a harness error for each episode whose trajectory the store cannot write', async () => {
    // The run's trajectories folder is a file: every append fails.
    const store = join(dir, 'store-unwritable');
    mkdirSync(join(store, 'unwritable'), { recursive: true });
    writeFileSync(join(store, 'unwritable', 'trajectories'), '');
    const run = vitest('unwritable', ['crash'], { WITNESS_RUN_ID: 'unwritable', WITNESS_STORE: store });
    expect(run.status, run.output).toBe(1);
    const results = await readResultsFile(join(dir, 'unwritable', 'results.json'));
    expect(results.ledger).toEqual({ planned: 2, recorded: 0, lost: 2, notRun: [] });
    expect(results.trajectories.map((t) => [t.strategy, t.outcome.status, t.outcome.error])).toEqual([
      ['zero-shot', 'harness-error', expect.stringContaining('the run store could not write the trajectory')],
      [
        'diagnostic',
        'harness-error',
        expect.stringMatching(
          /^episode lost: its test failed without recording the episode: the run store could not write the trajectory: E\w+: /,
        ),
      ],
    ]);
  }, 120_000);
});
