/**
 * Runs that survive, end to end on the nl-rx suite with the sim model: a real `vitest` run killed
 * with SIGKILL mid-run resumes with `witness bench --resume` without redoing or losing finished
 * work, and ends with the same results as an uninterrupted run; a rerun of errored episodes redoes
 * just those; `--budget` stops a run cleanly, says so, and a resume finishes it. Some sessions go
 * through `witness bench` flags, others through the environment variables a plain `npx vitest`
 * reads (WITNESS_RESUME, WITNESS_RERUN), so both paths are covered.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readResultsFile, type ResultsFile } from '../reports/results-file.ts';
import { RunStore } from './store.ts';
import type { Trajectory } from './types.ts';
import { withoutSuiteData } from '../testing/child-env.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitestCli = join(root, 'node_modules/vitest/vitest.mjs');
const bin = join(root, 'bin/witness.js');
const SUITE = 'suites/nl-rx.eval.ts';
// Three of the suite's strategies keep the test quick: two concurrent ones and the sequential one
// (Dynamic Cheatsheet, a memory carried from task to task).
const ONLY = ['-t', '· (zero-shot|diagnostic|cheatsheet)$'];
/** Episodes of the suite (tasks × strategies), taken from the uninterrupted run. */
let EPISODES = 0;
const dir = mkdtempSync(join(tmpdir(), 'witness-resume-e2e-'));
const store = join(dir, 'store');
const trajectoriesDir = join(store, 'killed', 'trajectories');

function env(out: string, extra: Record<string, string> = {}, storeDir = store): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {
    ...withoutSuiteData(),
    WITNESS_OUT: out,
    WITNESS_STORE: storeDir,
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    ...extra,
  };
  for (const key of Object.keys(e))
    if (
      key.startsWith('VITEST') ||
      key === 'TEST' ||
      (key.startsWith('WITNESS_') && !(key in extra) && key !== 'WITNESS_OUT' && key !== 'WITNESS_STORE')
    )
      delete e[key];
  return e;
}

/** `npx vitest run --project bench` to completion, settings from the environment only. */
function vitest(out: string, extra: Record<string, string> = {}, storeDir = store) {
  const run = spawnSync(process.execPath, [vitestCli, 'run', '--project', 'bench', SUITE, ...ONLY], {
    cwd: root,
    env: env(out, extra, storeDir),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { ...run, output: run.stdout + run.stderr };
}

/** `witness bench …` to completion. */
function bench(args: string[], out: string, extra: Record<string, string> = {}, storeDir = store) {
  const run = spawnSync(process.execPath, [bin, 'bench', ...args, SUITE, ...ONLY], {
    cwd: root,
    env: env(out, extra, storeDir),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { ...run, output: run.stdout + run.stderr };
}

/** Trajectories and summary without the fields that measure time, so two runs can be compared exactly. */
function timeless(results: ResultsFile): unknown {
  return JSON.parse(
    JSON.stringify({ summary: results.summary, trajectories: results.trajectories }, (key, value) =>
      /Ms$|^startedAt$|^createdAt$/.test(key) ? undefined : value,
    ),
  );
}

/** Every record of the run's store, by key, in the order written: where it is and its text. */
function storedRecords(): Map<string, { at: string; text: string }[]> {
  const records = new Map<string, { at: string; text: string }[]>();
  new RunStore(store, 'killed').scan((t, at) =>
    records.set(RunStore.key(t), [
      ...(records.get(RunStore.key(t)) ?? []),
      { at: JSON.stringify(at), text: JSON.stringify(t) },
    ]),
  );
  return records;
}
/** The stored episodes' keys (benchmark__model__task__strategy__tN), sorted. */
const storedFiles = () => [...storedRecords().keys()].sort();
/** A stored episode's strategy. */
const strategyOf = (key: string) => key.split('__')[3] as string;
/** Sequential strategies (a memory across instances) that a resume restarted, as it says it does. */
const restartedIn = (output: string) =>
  new Set([...output.matchAll(/witness: resume: nl-rx · (\S+) runs in task order/g)].map((m) => m[1] as string));
/** The records of these keys: a key redone or rewritten would show a different list. */
const snapshot = (keys: string[]) => {
  const records = storedRecords();
  return new Map(keys.map((k) => [k, records.get(k)]));
};

let clean: ResultsFile;
beforeAll(() => {
  // The uninterrupted reference: same run id and seed, its own store.
  const run = vitest(join(dir, 'out-clean'), { WITNESS_RUN_ID: 'killed' }, join(dir, 'store-clean'));
  expect(run.status, run.output).toBe(0);
}, 120_000);

describe('a run killed with SIGKILL', () => {
  it('resumes without redoing or losing finished work, and ends like an uninterrupted run', async () => {
    clean = await readResultsFile(join(dir, 'out-clean', 'results.json'));
    EPISODES = clean.trajectories.length;
    expect(new Set(clean.trajectories.map((t) => t.strategy))).toEqual(
      new Set(['zero-shot', 'diagnostic', 'cheatsheet']),
    );
    expect(EPISODES).toBe(37 * 3);

    // A real vitest run in its own process group, killed -9 (all its workers with it) mid-run.
    const child = spawn(process.execPath, [vitestCli, 'run', '--project', 'bench', SUITE, ...ONLY], {
      cwd: root,
      env: env(join(dir, 'out-killed'), { WITNESS_RUN_ID: 'killed' }),
      detached: true,
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    const deadline = Date.now() + 60_000;
    while (!(existsSync(trajectoriesDir) && storedFiles().length >= 30)) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error('the run ended before it could be killed mid-run');
      await new Promise((r) => setTimeout(r, 20));
    }
    process.kill(-(child.pid as number), 'SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const finished = storedFiles();
    expect(finished.length).toBeGreaterThanOrEqual(30);
    expect(finished.length).toBeLessThan(EPISODES);
    expect(existsSync(join(dir, 'out-killed', 'results.json'))).toBe(false);
    const before = snapshot(finished);

    const resumed = bench(['--resume', 'killed'], join(dir, 'out-resumed'));
    expect(resumed.status, resumed.output).toBe(0);
    // Finished work was neither redone nor rewritten — except the episodes of a sequential strategy
    // (its memory runs from task to task), which a resume redoes in order, and says so.
    const restarted = restartedIn(resumed.output);
    const kept = finished.filter((n) => !restarted.has(strategyOf(n)));
    expect(kept.length).toBeGreaterThan(finished.length / 2);
    expect(resumed.output).toContain(
      `Resumed run killed: ${kept.length} episodes taken from the run store, ${EPISODES - kept.length} run now.`,
    );
    expect(snapshot(kept)).toEqual(new Map(kept.map((n) => [n, before.get(n)])));
    expect(storedFiles()).toHaveLength(EPISODES);
    expect(timeless(await readResultsFile(join(dir, 'out-resumed', 'results.json')))).toEqual(timeless(clean));
  }, 180_000);

  it('WITNESS_RERUN=errored redoes just the errored episodes', async () => {
    // An episode that had failed with a harness error (injected into its stored trajectory).
    const victim = storedFiles().find((n) => strategyOf(n) === 'diagnostic') as string;
    const original = JSON.parse((storedRecords().get(victim)?.at(-1) as { text: string }).text) as Trajectory;
    // A later record of the same key wins, as a rerun's does.
    new RunStore(store, 'killed').save({
      ...original,
      turns: [],
      outcome: { status: 'harness-error', solvedAtTurn: null, error: 'injected: oracle crashed' },
      startedAt: new Date(Date.parse(original.startedAt) + 1).toISOString(),
    });
    const others = snapshot(storedFiles().filter((n) => n !== victim));

    const errored = vitest(join(dir, 'out-errored'), { WITNESS_RESUME: 'killed', WITNESS_RERUN: 'errored' });
    expect(errored.status, errored.output).toBe(0);
    expect(errored.output).toContain(
      `Resumed run killed: ${EPISODES - 1} episodes taken from the run store, 1 run now.`,
    );
    const redone = new RunStore(store, 'killed').load().trajectories.find((t) => RunStore.key(t) === victim);
    expect(redone?.outcome).toEqual(original.outcome);
    expect(storedRecords().get(victim)).toHaveLength(3);
    expect(snapshot(storedFiles().filter((n) => n !== victim))).toEqual(others);
    expect(timeless(await readResultsFile(join(dir, 'out-errored', 'results.json')))).toEqual(timeless(clean));
  }, 120_000);
});

describe('a run with a budget', () => {
  it('stops cleanly when the budget is spent, says so, and a resume with a larger budget finishes it like an uninterrupted run', async () => {
    const capped = bench(['--budget', '12k'], join(dir, 'out-budget'), { WITNESS_RUN_ID: 'capped' });
    expect(capped.status, capped.output).toBe(0);
    const skipped = Number(
      /Budget spent: (\d+) episodes were not run \(witness budget spent: [\d,]+ tokens of 12,000\)/.exec(
        capped.output,
      )?.[1],
    );
    expect(skipped).toBeGreaterThan(0);
    expect(capped.output).toMatch(/Tests +\d+ passed \| \d+ skipped/);
    expect(capped.output).toContain('witness bench --resume capped --budget <amount>');
    const partial = await readResultsFile(join(dir, 'out-budget', 'results.json'));
    expect(partial.trajectories).toHaveLength(EPISODES - skipped);
    // A budget skip is a planned episode not run: listed in the ledger, no trajectory, not a failure.
    expect(partial.ledger).toMatchObject({ planned: EPISODES, recorded: EPISODES - skipped, lost: 0 });
    expect(partial.ledger?.notRun).toHaveLength(skipped);
    expect(partial.ledger?.notRun[0]?.reason).toMatch(/^witness budget spent: /);

    const finished = vitest(join(dir, 'out-budget-2'), { WITNESS_RESUME: 'capped', WITNESS_BUDGET: '10M' });
    expect(finished.status, finished.output).toBe(0);
    const results = await readResultsFile(join(dir, 'out-budget-2', 'results.json'));
    expect(results.ledger).toEqual({ planned: EPISODES, recorded: EPISODES, lost: 0, notRun: [] });
    const rename = (r: ResultsFile) => JSON.parse(JSON.stringify(timeless(r)).replaceAll('"capped"', '"killed"'));
    expect(rename(results)).toEqual(timeless(clean));
  }, 180_000);
});
