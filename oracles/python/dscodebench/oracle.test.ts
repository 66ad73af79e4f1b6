/**
 * The DSCodeBench-style oracle in the real sandbox: 200 seeded cases, witnesses, the original's
 * exception rule and its option, the comparator's no-op option end to end, environment and task
 * errors, fast-check hardening, the observer and the sim hooks.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TaskInputError } from '../../../core/oracle.ts';
import { Rng } from '../../../core/random.ts';
import type { Candidate, Task } from '../../../core/types.ts';
import { EnvironmentMissingError } from '../environment.ts';
import { WorkerPool } from '../pool/pool.ts';
import { loadDsCodeBench } from './loader.ts';
import { dsCodeBenchOracle } from './oracle.ts';

const pool = new WorkerPool({ size: 2 });
afterAll(() => pool.close());
const oracle = dsCodeBenchOracle({ pool, candidateDeadlineMs: 10_000 });
const fixtures = loadDsCodeBench(
  fileURLToPath(new URL('../../../fixtures/dscodebench/dscodebench.jsonl', import.meta.url)),
).tasks;
const fixture = (id: string) => fixtures.find((t) => t.id === id) as Task;
const code = (source: string): Candidate => ({ source, extraction: 'code-block' });

function inline(id: string, gold: string, testScript: string, library = 'Python'): Task {
  return { id, benchmark: 'dscodebench', description: id, gold, context: { library, testScript } };
}

describe('checking a candidate on the 200 seeded inputs', () => {
  it('passes the reference on all 200 cases and fails a wrong program with at most 2 truncated witnesses', async () => {
    const prepared = await oracle.prepare(fixture('witness_np_004'));
    expect(prepared.caseIds).toHaveLength(200);
    expect(prepared.caseIds[0]).toBe('input-001');
    expect(prepared.entry).toBe('pairwise_distances');
    const gold = await oracle.check(prepared, code(prepared.task.gold));
    expect(gold).toMatchObject({ pass: true, detail: { passed: 200, total: 200 } });
    const wrong = await oracle.check(
      prepared,
      code(
        'import numpy as np\ndef pairwise_distances(points):\n    d = points[:, None, :] - points[None, :, :]\n    return np.abs(d).sum(axis=-1)\n',
      ),
    );
    expect(wrong.pass).toBe(false);
    expect(wrong.error).toBeUndefined();
    const failed = wrong.cases.filter((c) => !c.pass).length;
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(200); // one-dimensional points agree
    expect(wrong.witnesses.length).toBeGreaterThan(0);
    expect(wrong.witnesses.length).toBeLessThanOrEqual(2);
    const first = wrong.witnesses[0];
    expect(first).toMatchObject({ kind: 'failing-input', label: 'wrong output' });
    expect(String(first?.input)).toMatch(/^array\(\[\[/);
    expect(String(first?.expected).length).toBeLessThanOrEqual(300);
    expect(wrong.cases.find((c) => c.id === first?.caseId)?.pass).toBe(false);
    expect(oracle.render.witness(first!)).toMatch(
      /^for the input array\(.*the expected output is array\(.*your function gives array\(/s,
    );
    expect(oracle.render.failureSummary(wrong)).toBe(
      `Your function's output differs from the reference on ${failed} of 200 generated inputs.`,
    );
  });

  it('fails every case once any case raises (the original), or only those cases with isolateCaseExceptions', async () => {
    const task = fixture('witness_std_002');
    const raising = code(
      'def running_max(values):\n    if len(values) == 0:\n        raise ValueError("empty")\n    out, best = [], values[0]\n    for v in values:\n        best = max(best, v)\n        out.append(best)\n    return out\n',
    );
    const prepared = await oracle.prepare(task);
    const verdict = await oracle.check(prepared, raising);
    expect(verdict.pass).toBe(false);
    expect(verdict.cases.every((c) => !c.pass)).toBe(true);
    expect(verdict.error?.kind).toBe('runtime');
    expect(verdict.error?.message).toMatch(/^running_max raised ValueError: empty on generated input #\d+ \(\[\]\)/);
    expect(verdict.detail?.matchingOutputs).toBeGreaterThan(150);
    const isolating = dsCodeBenchOracle({ pool, candidateDeadlineMs: 10_000, isolateCaseExceptions: true });
    const isolated = await isolating.check(await isolating.prepare(task), raising);
    const failing = isolated.cases.filter((c) => !c.pass).length;
    expect(failing).toBe(200 - (verdict.detail?.matchingOutputs as number));
    expect(failing).toBeGreaterThan(0);
  });

  it('reports syntax errors, errors at import and programs without a function', async () => {
    const prepared = await oracle.prepare(fixture('witness_std_004'));
    expect((await oracle.check(prepared, code('def rle_encode(s)\n    return []\n'))).error).toMatchObject({
      kind: 'syntax',
      message: expect.stringMatching(/^SyntaxError: expected ':'/),
    });
    const importError = await oracle.check(
      prepared,
      code('import not_a_real_module\ndef rle_encode(s):\n    return []\n'),
    );
    expect(importError.error?.message).toMatch(/ModuleNotFoundError: No module named 'not_a_real_module'/);
    expect((await oracle.check(prepared, code('x = 1\n'))).error?.message).toMatch(/defines no top-level function/);
    const looping = await dsCodeBenchOracle({ pool, candidateDeadlineMs: 1500 }).check(
      prepared,
      code('def rle_encode(s):\n    while True:\n        pass\n'),
    );
    expect(looping.error).toMatchObject({ kind: 'timeout', message: 'killed at the wall-clock deadline of 1.5 s' });
  });

  it('compares floats for real by default, and replicates the original no-op branch when asked', async () => {
    const task = fixture('witness_np_010');
    const off = code(
      'import numpy as np\ndef mean_absolute_deviation(values):\n    return float(np.mean(np.abs(values - values.mean())) * 1.01)\n',
    );
    expect((await oracle.check(await oracle.prepare(task), off)).pass).toBe(false);
    const replica = dsCodeBenchOracle({ pool, candidateDeadlineMs: 10_000, comparator: { noOpFloatBranches: true } });
    expect((await replica.check(await replica.prepare(task), off)).pass).toBe(true);
    expect(replica.settings()).toMatchObject({ noOpFloatBranches: true });
    expect(oracle.settings()).toMatchObject({ noOpFloatBranches: false, seed: 42, cases: 200 });
  });

  it('seeds numpy before the calls, so a function that draws differently fails', async () => {
    const prepared = await oracle.prepare(fixture('witness_np_008'));
    expect((await oracle.check(prepared, code(prepared.task.gold))).pass).toBe(true);
    const other = code(
      'import numpy as np\ndef random_projection(x, dim):\n    return x @ np.random.normal(size=(dim, x.shape[1])).T\n',
    );
    expect((await oracle.check(prepared, other)).pass).toBe(false);
  });
});

describe('a broken task is invalid data, a missing library a harness error; neither is a model failure', () => {
  it('names a missing library', async () => {
    const task = inline(
      'needs-lib',
      'import witness_missing_library_probe\ndef f(x):\n    return x\n',
      'def test_case_input_generator(n=200):\n    return list(range(n))\n',
      'witness_missing_library_probe',
    );
    const error = await oracle.prepare(task).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvironmentMissingError);
    expect(error).not.toBeInstanceOf(TaskInputError);
    expect((error as Error).message).toMatch(
      /^environment missing witness_missing_library_probe \(task needs-lib needs it; install with: pip install witness_missing_library_probe/,
    );
  });

  it('rejects a nondeterministic reference and a reference that raises', async () => {
    const script = 'def test_case_input_generator(n=200):\n    return list(range(n))\n';
    await expect(
      oracle.prepare(inline('clock', 'import time\ndef f(x):\n    return time.perf_counter_ns()\n', script)),
    ).rejects.toThrow(/disagrees with itself on \d+ of 200 inputs/);
    const raising = await oracle
      .prepare(inline('div', 'def f(x):\n    return 10 // (x - 7)\n', script))
      .catch((e) => e);
    expect(raising).toBeInstanceOf(TaskInputError);
    expect((raising as Error).message).toMatch(
      /the reference raises on 1 generated input\(s\), first on #8: ZeroDivisionError/,
    );
    await expect(
      oracle.prepare(
        inline('short', 'def f(x):\n    return x\n', 'def test_case_input_generator(n=200):\n    return [1, 2]\n'),
      ),
    ).rejects.toThrow(/produced 2 inputs, not 200/);
  });
});

describe("hardening with fast-check in the generator's domain", () => {
  // The generator yields only even numbers under seed 42; the schema says "int in [0, 40]", so
  // fast-check also tries odd numbers, where the candidate is wrong.
  const task = inline(
    'evens',
    'def double(x):\n    return 2 * x\n',
    'import random\ndef test_case_input_generator(n=200):\n    return [2 * random.randint(0, 20) for _ in range(n)]\n',
  );
  const sly = code('def double(x):\n    return (x // 2) * 4\n');

  it('finds inputs where a candidate that passes all 200 seeded cases disagrees with the reference', async () => {
    const prepared = await oracle.prepare(task);
    expect(prepared.schema).toMatchObject({
      kind: 'arguments',
      single: true,
      usable: true,
      arguments: [{ kind: 'int', min: 0, max: 40 }],
    });
    expect((await oracle.check(prepared, sly)).pass).toBe(true);
    const hardener = oracle.hardener!;
    const report = await hardener.probe(prepared, sly, { rng: new Rng(3), maxProbes: 40, round: 1 });
    expect(report.probed).toBeGreaterThanOrEqual(40);
    expect(report.disagreements.length).toBeGreaterThan(0);
    const witness = report.disagreements[0]!;
    expect(Number(witness.input) % 2).toBe(1);
    expect(witness.expected).toBe(String(2 * Number(witness.input)));
    const extended = hardener.extend(prepared, report.disagreements.slice(0, 2));
    expect(extended.caseIds.slice(200)).toEqual(['h01', 'h02']);
    const verdict = await oracle.check(extended, sly);
    expect(verdict.pass).toBe(false);
    expect(verdict.cases.slice(0, 200).every((c) => c.pass)).toBe(true);
    expect(verdict.cases.slice(200).map((c) => c.pass)).toEqual([false, false]);
    expect((await oracle.check(extended, code(task.gold))).pass).toBe(true);
    expect(
      (await hardener.probe(prepared, code(task.gold), { rng: new Rng(3), maxProbes: 40, round: 0 })).disagreements,
    ).toEqual([]);
    // The sim's consistency check understands probe witnesses too.
    expect(await oracle.simulator.agrees(prepared, code(task.gold), witness)).toBe(true);
    expect(await oracle.simulator.agrees(prepared, sly, witness)).toBe(false);
  });
});

describe('execution without judgement and the sim hooks', () => {
  it("observes the first generated inputs without the reference's outputs, and describes the environment", async () => {
    const prepared = await oracle.prepare(fixture('witness_std_002'));
    const observation = await oracle.observer!.observe(
      prepared,
      code('def running_max(values):\n    return sorted(values)\n'),
    );
    expect(observation.ok).toBe(true);
    expect(observation.shape).toEqual({ rows: 3 });
    expect(observation.output.split('\n')).toHaveLength(3);
    expect(observation.output).toMatch(/^\[.*\] -> \[/);
    const crash = await oracle.observer!.observe(prepared, code('def running_max(values):\n    return values[99]\n'));
    expect(crash).toMatchObject({
      ok: false,
      error: { kind: 'runtime', message: expect.stringMatching(/^IndexError/) },
    });
    const description = await oracle.observer!.describe(prepared);
    expect(description).toMatch(/^Python 3\.\d+\.\d+; numpy \d+\.\d+\.\d+, pandas \d+\.\d+\.\d+/);
    expect(description).toMatch(/seeded with 42/);
  });

  it('mutates references into different, checkable programs and judges witnesses per case', async () => {
    const prepared = await oracle.prepare(fixture('witness_std_003'));
    const mutant = oracle.simulator.mutate(prepared, prepared.task.gold, new Rng(2));
    expect(mutant).not.toBeNull();
    expect(mutant).not.toBe(prepared.task.gold);
    const answer = oracle.simulator.answer(prepared, mutant as string);
    expect(oracle.extract(answer)?.source).toBe((mutant as string).trimEnd());
    const wrong = code('def merge_intervals(intervals):\n    return sorted(intervals)\n');
    const verdict = await oracle.check(prepared, wrong);
    const witness = verdict.witnesses[0]!;
    expect(await oracle.simulator.agrees(prepared, code(prepared.task.gold), witness)).toBe(true);
    expect(await oracle.simulator.agrees(prepared, wrong, witness)).toBe(false);
  });
});
