/** `witness eval bigcodebench` / `witness eval dscodebench` end to end, through the real binary. */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { killLeftovers, processesWith, waitFor } from '../testing/processes/scan.ts';
import { formatEvaluation } from './eval-python.ts';

const bin = fileURLToPath(new URL('../bin/witness.js', import.meta.url));
const fixtures = fileURLToPath(new URL('../fixtures', import.meta.url));
const witness = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000 });
const dir = mkdtempSync(join(tmpdir(), 'witness-eval-py-'));
interface Row {
  task_id: string;
  code_prompt: string;
  canonical_solution: string;
  problem_id: string;
  ground_truth_code: string;
}
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row);

describe('witness eval bigcodebench', () => {
  it('scores solutions and completions: pass@1, failing test names, issues; reads .jsonl.gz', () => {
    const tasks = lines(join(fixtures, 'bigcodebench/bigcodebench.jsonl'));
    const [t0, t1, t2, t3] = tasks as [Row, Row, Row, Row];
    const data = join(dir, 'tasks.jsonl.gz');
    writeFileSync(
      data,
      gzipSync(
        tasks
          .slice(0, 4)
          .map((t) => JSON.stringify(t))
          .join('\n'),
      ),
    );
    const samples = join(dir, 'bcb-samples.jsonl');
    writeFileSync(
      samples,
      [
        { task_id: t0.task_id, solution: t0.code_prompt + t0.canonical_solution },
        { task_id: t1.task_id, completion: t1.canonical_solution },
        {
          task_id: t2.task_id,
          solution:
            'import csv, io\ndef task_func(csv_text):\n    return list(csv.DictReader(io.StringIO(csv_text)))\n',
        },
        { task_id: t3.task_id, solution: 'def task_func(json_str):\n    while True:\n        pass\n' },
        { task_id: 'Nope/1', solution: 'x' },
        { task_id: t0.task_id },
        { task_id: t1.task_id, solution: 42 },
      ]
        .map((s) => JSON.stringify(s))
        .concat('not json')
        .join('\n'),
    );
    const run = witness('eval', 'bigcodebench', '--data', data, '--samples', samples, '--time-limit', '1', '--json');
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    // The two broken samples count as failed samples of their tasks: pass@1 = (1/2 + 1/2 + 0 + 0) / 4.
    expect(result).toMatchObject({
      benchmark: 'bigcodebench',
      tasks: 4,
      samples: 7,
      evaluatedTasks: 4,
      passAt: { 'pass@1': 0.25 },
    });
    const broken = result.results
      .flatMap((r: { samples: { line: number; status: string; error?: string }[] }) => r.samples)
      .filter((s: { line: number }) => s.line >= 6);
    expect(broken).toEqual([
      expect.objectContaining({
        line: 6,
        status: 'fail',
        passed: 0,
        error: `no-artifact: ${samples}:6 has no "solution" or "completion" string`,
      }),
      expect.objectContaining({
        line: 7,
        status: 'fail',
        passed: 0,
        error: `no-artifact: ${samples}:7 has a "solution" that is a number, not a string`,
      }),
    ]);
    expect(result.issues).toEqual([
      { item: `${samples}:5`, message: 'task Nope/1 is not in the dataset (not scored)' },
      {
        item: `${samples}:6`,
        message: `the sample of task ${t0.task_id} has no "solution" or "completion" string (scored as a failed sample)`,
      },
      {
        item: `${samples}:7`,
        message: `the sample of task ${t1.task_id} has a "solution" that is a number, not a string (scored as a failed sample)`,
      },
      { item: `${samples}:8`, message: expect.stringMatching(/invalid JSON/) },
    ]);
    expect(formatEvaluation(result)).toMatch(
      new RegExp(`issue: ${samples.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:6: the sample of task`),
    );
    const byTask = Object.fromEntries(
      result.results.map((r: { taskId: string; samples: unknown[] }) => [r.taskId, r.samples[0]]),
    );
    expect(byTask[t0.task_id]).toMatchObject({ status: 'pass', passed: 4, total: 4 });
    expect(byTask[t1.task_id]).toMatchObject({ status: 'pass' });
    expect(byTask[t2.task_id]).toMatchObject({ status: 'fail', failing: ['test_basic', 'test_quoted_field'] });
    expect(byTask[t2.task_id].details.test_basic).toMatch(/AssertionError: Lists differ/);
    expect(byTask[t3.task_id]).toMatchObject({ status: 'timeout' });
  }, 120_000);

  it('lists tasks whose libraries are missing apart, and explains its options', () => {
    const task = lines(join(fixtures, 'bigcodebench/bigcodebench.jsonl'))[0] as Row;
    const data = join(dir, 'missing.jsonl');
    writeFileSync(
      data,
      JSON.stringify({ ...task, libs: "['collections', 'string', 'witness_missing_library_probe']" }),
    );
    const samples = join(dir, 'missing-samples.jsonl');
    writeFileSync(
      samples,
      JSON.stringify({ task_id: task.task_id, solution: 'def task_func(text):\n    return {}\n' }),
    );
    const run = witness('eval', 'bigcodebench', '--data', data, '--samples', samples);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/bigcodebench: no task evaluated over 0 of 1 tasks \(1 samples\)/);
    expect(run.stdout).toMatch(
      /WitnessBCB\/0: environment-missing — environment missing witness_missing_library_probe/,
    );
    const help = witness('eval', 'bigcodebench', '--help');
    expect(help.stdout).toMatch(/--no-calibrated/);
    expect(help.stdout).toMatch(/--sandbox <backend>/);
    expect(witness('eval', 'bigcodebench', '--data', data).status).toBe(2);
  });
});

describe('witness eval dscodebench', () => {
  it('scores solutions and raw responses on the 200 seeded inputs', () => {
    const tasks = lines(join(fixtures, 'dscodebench/dscodebench.jsonl')).slice(0, 3);
    const data = join(dir, 'ds.jsonl');
    writeFileSync(data, tasks.map((t) => JSON.stringify(t)).join('\n'));
    const samples = join(dir, 'ds-samples.jsonl');
    const [a, b, c] = tasks as [Row, Row, Row];
    writeFileSync(
      samples,
      [
        { problem_id: a.problem_id, solution: a.ground_truth_code },
        {
          problem_id: a.problem_id,
          response:
            'Sure:\n```python\ndef word_frequencies(text):\n    return {}\n```\nand a second block\n```python\nprint(1)\n```',
        },
        { problem_id: b.problem_id, response: 'no code here' },
        { problem_id: c.problem_id, solution: c.ground_truth_code },
        { problem_id: c.problem_id, response: ['not', 'text'] },
      ]
        .map((s) => JSON.stringify(s))
        .join('\n'),
    );
    const run = witness('eval', 'dscodebench', '--data', data, '--samples', samples, '--json');
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.passAt['pass@1']).toBeCloseTo((0.5 + 0 + 0.5) / 3, 10);
    expect(result.issues).toEqual([
      {
        item: `${samples}:5`,
        message: `the sample of task ${c.problem_id} has a "response" that is an array, not a string (scored as a failed sample)`,
      },
    ]);
    const [first, second, third] = result.results;
    expect(first.samples.map((s: { status: string; passed: number }) => [s.status, s.passed])).toEqual([
      ['pass', 200],
      ['fail', expect.any(Number)],
    ]);
    expect(Object.values(first.samples[1].details)[0]).toMatch(/^input '.*': expected \{.*\}, got \{\}$/);
    expect(second.samples[0]).toMatchObject({
      status: 'fail',
      error: `no-artifact: ${samples}:3 has no Python code in its "response"`,
    });
    expect(third.samples[1]).toMatchObject({ status: 'fail', passed: 0, line: 5 });
    expect(third.samples[0]).toMatchObject({ status: 'pass', passed: 200 });
  }, 120_000);
});

describe('witness eval bigcodebench killed with SIGKILL during a runaway sample', () => {
  it('leaves no sandbox or job process behind', async () => {
    const task = lines(join(fixtures, 'bigcodebench/bigcodebench.jsonl'))[0] as Row;
    const data = join(dir, 'runaway.jsonl');
    writeFileSync(data, JSON.stringify(task));
    const marker = `witness-orphan-${randomUUID()}`;
    // The sample starts a sleeping shell and turns itself into a busy loop; both carry the marker in their argv.
    const solution = `import os, subprocess\ndef task_func(text):\n    subprocess.Popen(['sh', '-c', 'sleep 1000', '${marker}'])\n    os.execvp('python3', ['python3', '-c', 'while True: pass', '${marker}'])\n`;
    const samples = join(dir, 'runaway-samples.jsonl');
    writeFileSync(samples, JSON.stringify({ task_id: task.task_id, solution }));
    const cli = spawn(process.execPath, [bin, 'eval', 'bigcodebench', '--data', data, '--samples', samples], {
      stdio: 'ignore',
    });
    const running = await waitFor(
      () => processesWith(marker),
      (pids) => pids.length >= 2,
      30_000,
    );
    expect(running.length).toBeGreaterThanOrEqual(2);
    cli.kill('SIGKILL');
    const left = killLeftovers(
      await waitFor(
        () => processesWith(marker),
        (pids) => pids.length === 0,
        5000,
      ),
    );
    expect(left).toEqual([]);
  }, 60_000);
});
