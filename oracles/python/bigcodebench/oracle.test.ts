/**
 * The BigCodeBench-style oracle in the real sandbox: per-test cases, calibrated programs, the
 * feedback split (error-only sees exception types only; diagnostic sees test names, assertion
 * messages and traceback tails), timeouts with partial results, the tamper guard, TZ=UTC and
 * OMP_NUM_THREADS=1, environment and task errors, the observer and the sim hooks.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TaskInputError } from '../../../core/oracle.ts';
import { Rng } from '../../../core/random.ts';
import type { Candidate, Task } from '../../../core/types.ts';
import { STRATEGIES } from '../../../strategies/index.ts';
import { EnvironmentMissingError } from '../environment.ts';
import { WorkerPool } from '../pool/pool.ts';
import { loadBigCodeBench } from './loader.ts';
import { bigCodeBenchOracle, timeLimitMs } from './oracle.ts';

const pool = new WorkerPool({ size: 2 });
afterAll(() => pool.close());
const oracle = bigCodeBenchOracle({ pool, timeLimitS: 10 });
const fixtures = loadBigCodeBench(
  fileURLToPath(new URL('../../../fixtures/bigcodebench/bigcodebench.jsonl', import.meta.url)),
).tasks;
const fixture = (id: string) => fixtures.find((t) => t.id === id) as Task;
const code = (source: string): Candidate => ({ source, extraction: 'code-block' });

function inline(id: string, codePrompt: string, body: string, test: string, libs: string[] = []): Task {
  return {
    id,
    benchmark: 'bigcodebench',
    description: id,
    gold: codePrompt + body,
    context: { codePrompt, completePrompt: codePrompt, entryPoint: 'task_func', libs, test },
  };
}

describe('running a program against its TestCases', () => {
  it('makes each test method a case, and passes the reference given as a full def or as a body', async () => {
    const task = fixture('WitnessBCB/9');
    const prepared = await oracle.prepare(task);
    expect(prepared.caseIds).toEqual(['test_empty', 'test_even_median', 'test_multimode_smallest', 'test_simple']);
    expect(prepared.deadlineMs).toBe(11_000);
    expect((await oracle.check(prepared, code(task.gold))).pass).toBe(true);
    const body = task.gold.slice(String(task.context?.codePrompt).length);
    expect((await oracle.check(prepared, code(body))).pass).toBe(true);
    const uncalibrated = bigCodeBenchOracle({ pool, timeLimitS: 10, calibrated: false });
    const raw = await uncalibrated.check(await uncalibrated.prepare(task), code(body));
    expect(raw.error?.kind).toBe('syntax');
  });

  it('tells error-only feedback the exception types only, and diagnostic feedback the tests, messages and tracebacks', async () => {
    const prepared = await oracle.prepare(fixture('WitnessBCB/9'));
    const wrong = code(
      "import statistics\ndef task_func(numbers):\n    return {'mean': float(sum(numbers)), 'median': 0.0, 'mode': max(numbers)}\n",
    );
    const verdict = await oracle.check(prepared, wrong);
    expect(verdict.pass).toBe(false);
    expect(verdict.error).toBeUndefined();
    expect(verdict.cases).toEqual([
      { id: 'test_empty', pass: true },
      { id: 'test_even_median', pass: false },
      { id: 'test_multimode_smallest', pass: false },
      { id: 'test_simple', pass: false },
    ]);
    expect(verdict.detail?.exceptionTypes).toEqual({ AssertionError: 3 });
    const context = { task: prepared.task, render: oracle.render, turn: 1, phase: 'solve' as const };
    const errorOnly = STRATEGIES['error-only'].feedback(verdict, context)!.text;
    expect(errorOnly).toMatch(/^3 of 4 tests fail \(AssertionError ×3\)\./);
    expect(errorOnly).not.toMatch(/test_|!=|2\.0|1\.0/);
    const diagnostic = STRATEGIES.diagnostic.feedback(verdict, context)!.text;
    expect(diagnostic).toMatch(/test_\w+ failed: AssertionError: /);
    expect(diagnostic).toMatch(/!=/);
    expect(diagnostic).toMatch(/File "__test__\.py", line \d+, in test_/);
  });

  it('reports a program that fails before the tests, and a program that loops, with the tests that did finish', async () => {
    const prepared = await oracle.prepare(fixture('WitnessBCB/7'));
    const broken = await oracle.check(prepared, code('import base64\nraise RuntimeError("at import")\n'));
    expect(broken.error).toMatchObject({ kind: 'runtime', message: expect.stringMatching(/^RuntimeError: at import/) });
    expect(broken.cases.every((c) => !c.pass)).toBe(true);
    const quick = bigCodeBenchOracle({ pool, timeLimitS: 1, minTimeLimitS: 0 });
    const looping = await quick.check(
      await quick.prepare(fixture('WitnessBCB/7')),
      code(
        "import base64, hashlib\ndef task_func(text):\n    while text == 'anything':\n        pass\n    return base64.b64encode(hashlib.sha256(text[::-1].encode()).digest()).decode()\n",
      ),
    );
    expect(looping.error).toMatchObject({
      kind: 'timeout',
      message: expect.stringMatching(/wall-clock deadline of 2 s while running test_length/),
    });
    expect(looping.cases).toEqual([
      { id: 'test_known', pass: true },
      { id: 'test_length', pass: false },
      { id: 'test_unicode', pass: false },
    ]);
  });

  it('refuses a program that patches the test framework', async () => {
    const prepared = await oracle.prepare(fixture('WitnessBCB/0'));
    const cheat = code(
      'import unittest\nunittest.TestCase.assertEqual = lambda *a, **k: None\ndef task_func(text):\n    return {}\n',
    );
    expect((await oracle.check(prepared, cheat)).error).toMatchObject({
      kind: 'unsafe',
      message: expect.stringMatching(/replaced unittest\.TestCase\.assertEqual/),
    });
  });

  it('runs with TZ=UTC and OMP_NUM_THREADS=1, as the original', async () => {
    const task = inline(
      'env',
      'import os, time\ndef task_func():\n',
      "    return time.tzname[0], os.environ.get('OMP_NUM_THREADS')\n",
      "import unittest\nclass TestCases(unittest.TestCase):\n    def test_env(self):\n        self.assertEqual(task_func(), ('UTC', '1'))\n",
    );
    const prepared = await oracle.prepare(task);
    expect((await oracle.check(prepared, code(task.gold))).pass).toBe(true);
  });
});

describe('what the official image gives a program', () => {
  // A local HTTP server reached by localhost and the host name, `python` in a subprocess, scripts
  // run through their shebangs, paths under /tmp: each canonical solution passes its own tests.
  for (const id of ['WitnessBCB/23', 'WitnessBCB/24', 'WitnessBCB/25', 'WitnessBCB/26']) {
    it(`passes the canonical solution of ${id}`, async () => {
      const prepared = await oracle.prepare(fixture(id));
      const verdict = await oracle.check(prepared, code(prepared.task.gold));
      expect(verdict.error).toBeUndefined();
      expect(verdict.cases.length).toBeGreaterThanOrEqual(3);
      expect(verdict.pass).toBe(true);
    });
  }
});

describe('a broken task is invalid data, a missing library a harness error', () => {
  it('names a missing library, a broken reference and a test module without TestCases', async () => {
    const test =
      'import unittest\nclass TestCases(unittest.TestCase):\n    def test_one(self):\n        self.assertEqual(task_func(), 1)\n';
    const missing = await oracle
      .prepare(
        inline('lib', 'import witness_missing_library_probe\ndef task_func():\n', '    return 1\n', test, [
          'witness_missing_library_probe',
        ]),
      )
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(EnvironmentMissingError);
    expect(missing).not.toBeInstanceOf(TaskInputError);
    expect((missing as Error).message).toMatch(/^environment missing witness_missing_library_probe/);
    const failing = await oracle.prepare(inline('bad', 'def task_func():\n', '    return 2\n', test)).catch((e) => e);
    expect(failing).toBeInstanceOf(TaskInputError);
    expect((failing as Error).message).toMatch(
      /the canonical solution fails its own tests test_one \(AssertionError: 2 != 1\)/,
    );
    await expect(
      oracle.prepare(inline('none', 'def task_func():\n', '    return 2\n', 'import unittest\n')),
    ).rejects.toThrow(/defines no TestCases class/);
  });

  it('uses the original time limit: max(limit, max(min, reference time)) + 1 s', () => {
    expect(timeLimitMs(240, 1, 0.2)).toBe(241_000);
    expect(timeLimitMs(240, 1, 300)).toBe(301_000);
    expect(bigCodeBenchOracle({ pool }).settings()).toMatchObject({ timeLimitS: 240, calibrated: true, tz: 'UTC' });
  });
});

describe('execution without judgement and the sim hooks', () => {
  it('imports the candidate and runs the docstring examples, reporting outputs, not verdicts', async () => {
    const prepared = await oracle.prepare(fixture('WitnessBCB/8'));
    const observation = await oracle.observer!.observe(
      prepared,
      code("import re\ndef task_func(text):\n    return re.findall(r'\\S+@\\S+', text)\n"),
    );
    expect(observation.ok).toBe(true);
    expect(observation.output).toMatch(
      /^imported; task_func\(text\) is defined\n>>> task_func\('Mail A@x\.org or b@y\.com, a@X\.org'\)\n\['A@x\.org', 'b@y\.com,', 'a@X\.org'\]$/,
    );
    const broken = await oracle.observer!.observe(prepared, code('def task_func(text):\n    return undefined_name\n'));
    expect(broken.error?.message).toMatch(/^NameError/);
    expect(await oracle.observer!.describe(prepared)).toMatch(
      /^Python 3\.\d+\.\d+; task libraries: re \(version unknown\)|^Python 3\.\d+\.\d+; task libraries: re \d/,
    );
  });

  it('mutates references and judges a witness by its test', async () => {
    const prepared = await oracle.prepare(fixture('WitnessBCB/14'));
    const mutant = oracle.simulator.mutate(prepared, prepared.task.gold, new Rng(4));
    expect(mutant).not.toBeNull();
    const verdict = await oracle.check(prepared, code('import numpy as np\ndef task_func(a, b):\n    return 0.0\n'));
    const witness = verdict.witnesses.find((w) => w.caseId === 'test_parallel')!;
    expect(witness).toMatchObject({ kind: 'test-failure', input: 'test_parallel', expected: 'pass' });
    expect(await oracle.simulator.agrees(prepared, code(prepared.task.gold), witness)).toBe(true);
    expect(await oracle.simulator.agrees(prepared, code('def task_func(a, b):\n    return 0.0\n'), witness)).toBe(
      false,
    );
    expect(oracle.extract(oracle.simulator.answer(prepared, prepared.task.gold))?.source).toBe(
      prepared.task.gold.trimEnd(),
    );
  });
});
