import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestCase, TestModule, Vitest } from 'vitest/node';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CASES, makeTrajectory } from './__fixtures__/trajectories.ts';
import { buildBaseline, writeBaselineFile } from './outcomes.ts';
import WitnessReporter from './reporter.ts';
import { readResultsFile } from './results-file.ts';

const dir = await mkdtemp(join(tmpdir(), 'witness-reporter-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

function fakeCase(name: string, meta: Record<string, unknown>): TestCase {
  return { fullName: name, module: { moduleId: '/suite.eval.ts' }, meta: () => meta } as unknown as TestCase;
}
function fakeModule(cases: TestCase[]): TestModule {
  return { children: { allTests: () => cases.values() } } as unknown as TestModule;
}

let logs: string[];
let errors: string[];
let savedExitCode: typeof process.exitCode;
beforeEach(() => {
  logs = [];
  errors = [];
  savedExitCode = process.exitCode;
});
afterEach(() => {
  process.exitCode = savedExitCode;
});

function startReporter(outDir: string | undefined): WitnessReporter {
  const reporter = new WitnessReporter(outDir === undefined ? {} : { outDir });
  const vitest = {
    config: { root: dir },
    logger: { log: (t: string) => logs.push(t), error: (t: string) => errors.push(t) },
  } as unknown as Vitest;
  reporter.onInit(vitest);
  reporter.onTestRunStart();
  return reporter;
}

const a = makeTrajectory({ taskId: 'a', turns: [{ source: 'a', pass: CASES }] });
const b = makeTrajectory({
  taskId: 'b',
  status: 'harness-error',
  error: 'task b: database file missing',
  turns: [],
});

describe('WitnessReporter (hooks)', () => {
  it('prints and writes nothing when no test carries a trajectory', async () => {
    const reporter = startReporter('quiet');
    const plain = fakeCase('plain unit test', {});
    reporter.onTestCaseResult(plain);
    await reporter.onTestRunEnd([fakeModule([plain])]);
    expect(logs).toEqual([]);
    expect(errors).toEqual([]);
    expect(await readdir(dir)).not.toContain('quiet');
  });

  it('counts a trajectory seen live and again at run end once, and lists harness errors', async () => {
    const reporter = startReporter('out');
    const ca = fakeCase('a', { witness: a });
    const cb = fakeCase('b', { witness: b });
    reporter.onTestCaseResult(ca);
    await reporter.onTestRunEnd([fakeModule([ca, cb])]);
    const results = await readResultsFile(join(dir, 'out', 'results.json'));
    expect(results.trajectories.map((t) => t.taskId)).toEqual(['a', 'b']);
    expect(results.summary[0]).toMatchObject({ n: 1, harnessErrors: 1 });
    const printed = logs.join('\n');
    expect(printed).toContain('Harness errors (1, excluded from rates):');
    expect(printed).toContain('nlrx-turk/sim/diagnostic task b trial 0: task b: database file missing');
    expect(printed).toContain(join(dir, 'out', 'results.json'));
    expect(printed).toContain(join(dir, 'out', 'summary.md'));
    expect(await readFile(join(dir, 'out', 'summary.md'), 'utf8')).toContain('## Harness errors');
    expect(process.exitCode).toBe(savedExitCode);
  });

  it('reports an unreadable trajectory by test name and sets a failing exit code', async () => {
    const reporter = startReporter('bad');
    const broken = fakeCase('broken test', { witness: { schema: 'witness.trajectory', version: 9 } });
    reporter.onTestCaseResult(broken);
    await reporter.onTestRunEnd([fakeModule([broken])]);
    expect(errors).toEqual([
      'Witness: /suite.eval.ts > broken test: meta.witness is not a usable trajectory: version is 9, expected 1',
    ]);
    expect(process.exitCode).toBe(1);
  });

  it('never throws out of a hook: a failed write becomes a clear error and exit code 1', async () => {
    await writeFile(join(dir, 'a-file'), 'not a directory');
    const reporter = startReporter('a-file');
    await expect(reporter.onTestRunEnd([fakeModule([fakeCase('a', { witness: a })])])).resolves.toBeUndefined();
    expect(errors[0]).toMatch(/^Witness reporter: failed to write the report: /);
    expect(process.exitCode).toBe(1);
    const throwing = {
      fullName: 'x',
      meta: () => {
        throw new Error('meta exploded');
      },
    } as unknown as TestCase;
    expect(() => reporter.onTestCaseResult(throwing)).not.toThrow();
    expect(errors[1]).toMatch(/failed to collect a trajectory: Error: meta exploded/);
  });

  it('says how much of a resumed run came from the store and how many episodes a spent budget skipped', async () => {
    const reporter = startReporter('resumed');
    const stored = fakeCase('a', { witness: a, witnessResumed: true });
    const fresh = fakeCase('c', { witness: makeTrajectory({ taskId: 'c', turns: [{ source: 'c', pass: [] }] }) });
    const skipped = (id: string) =>
      Object.assign(fakeCase(id, {}), {
        id,
        result: () => ({ state: 'skipped', note: 'witness budget spent: 21,693 tokens of 20,000; episode not run' }),
      });
    await reporter.onTestRunEnd([fakeModule([stored, fresh, skipped('s1'), skipped('s2')])]);
    const printed = logs.join('\n');
    expect(printed).toContain('Resumed run run-1: 1 episodes taken from the run store, 1 run now.');
    expect(printed).toContain('Budget spent: 2 episodes were not run (witness budget spent: 21,693 tokens of 20,000).');
    expect(printed).toContain('witness bench --resume run-1 --budget <amount>');
    expect(printed).toContain(join(dir, 'resumed', 'report.html'));
    expect(process.exitCode).toBe(savedExitCode);
  });

  it('runs the regression gate against a configured baseline and fails the run when the candidate regressed', async () => {
    const tasks = ['t1', 't2', 't3', 't4', 't5', 't6'];
    const solved = tasks.map((taskId) => makeTrajectory({ taskId, turns: [{ source: 'ok', pass: CASES }] }));
    const baselinePath = join(dir, 'baseline.json');
    await writeBaselineFile(baselinePath, buildBaseline(solved));
    const saved = process.env.WITNESS_GATE_BASELINE;
    process.env.WITNESS_GATE_BASELINE = baselinePath;
    try {
      const same = startReporter('gate-pass');
      await same.onTestRunEnd([fakeModule(solved.map((t) => fakeCase(t.taskId, { witness: t })))]);
      expect(logs.join('\n')).toContain('Witness gate: pass — Pass@1 did not regress beyond the noise band (1 check)');
      expect(process.exitCode).toBe(savedExitCode);

      logs = [];
      const worse = tasks.map((taskId) =>
        makeTrajectory({
          taskId,
          turns: [
            { source: 'no', pass: [] },
            { source: 'ok', pass: CASES },
          ],
        }),
      );
      const regressed = startReporter('gate-fail');
      await regressed.onTestRunEnd([fakeModule(worse.map((t) => fakeCase(t.taskId, { witness: t })))]);
      const printed = logs.join('\n');
      expect(printed).toContain('Witness gate: FAIL — Pass@1 regressed or fell below the floor in nlrx-turk');
      expect(printed).toContain('broke: nlrx-turk · diagnostic · task t1 · trial 0;');
      expect(process.exitCode).toBe(1);
      expect(await readFile(join(dir, 'gate-fail', 'summary.md'), 'utf8')).toMatch(/^## Witness gate: FAIL/);
    } finally {
      if (saved === undefined) delete process.env.WITNESS_GATE_BASELINE;
      else process.env.WITNESS_GATE_BASELINE = saved;
    }
  });

  it('fails closed, still writing the reports, when the configured baseline cannot be read', async () => {
    const saved = process.env.WITNESS_GATE_BASELINE;
    process.env.WITNESS_GATE_BASELINE = join(dir, 'no-such-baseline.json');
    try {
      const reporter = startReporter('gate-missing');
      await reporter.onTestRunEnd([fakeModule([fakeCase('a', { witness: a })])]);
      expect(errors[0]).toMatch(
        /^Witness reporter: failed to run the regression gate: Error: .*no-such-baseline\.json: cannot read/,
      );
      expect(process.exitCode).toBe(1);
      expect((await readResultsFile(join(dir, 'gate-missing', 'results.json'))).trajectories).toHaveLength(1);
    } finally {
      if (saved === undefined) delete process.env.WITNESS_GATE_BASELINE;
      else process.env.WITNESS_GATE_BASELINE = saved;
    }
  });
});
