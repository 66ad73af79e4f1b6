/**
 * Python output and size caps under hostile answers (prints figures, asserts nothing):
 * `npx tsx perf/python-bombs.ts`
 *
 * Side by side in one run, on one warm sandboxed worker: an ordinary program, then answers that
 * try to flood the harness — 10 GB printed to stdout, an endless stderr flood, a 2 GB DSCodeBench
 * return value, a program of 100,000 nested parentheses, a 5 MB program, a 512 MiB exception
 * message. For each: its verdict kind, the wall time to that verdict, its ratio to the ordinary
 * program, and the harness's own peak RSS so far. Targets: every bomb stopped within seconds
 * (the caps act while the output is produced), the harness's peak RSS under 1 GB.
 */
import type { Candidate, Task } from '../core/types.ts';
import { bigCodeBenchOracle } from '../oracles/python/bigcodebench/oracle.ts';
import { dsCodeBenchOracle } from '../oracles/python/dscodebench/oracle.ts';
import { WorkerPool } from '../oracles/python/pool/pool.ts';
import { runProgram } from '../oracles/python/run-program.ts';

const code = (source: string): Candidate => ({ source, extraction: 'code-block' });
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

const bcbTask: Task = {
  id: 'perf-bcb',
  benchmark: 'bigcodebench',
  description: 'twice',
  gold: 'def task_func(x):\n    return 2 * x\n',
  context: {
    codePrompt: 'def task_func(x):\n',
    completePrompt: 'def task_func(x):\n',
    entryPoint: 'task_func',
    libs: [],
    test: 'import unittest\nclass TestCases(unittest.TestCase):\n    def test_two(self):\n        self.assertEqual(task_func(2), 4)\n',
  },
};
const dsTask: Task = {
  id: 'perf-ds',
  benchmark: 'dscodebench',
  description: 'twice',
  gold: 'def twice(x):\n    return 2 * x\n',
  context: {
    library: 'Python',
    testScript:
      'import random\ndef test_case_input_generator(n=200):\n    return [random.randint(0, 9) for _ in range(n)]\n',
  },
};

async function main(): Promise<void> {
  const pool = new WorkerPool({ size: 1 });
  await pool.warm();
  const bcb = bigCodeBenchOracle({ pool, timeLimitS: 60 });
  const ds = dsCodeBenchOracle({ pool, cases: 20, candidateDeadlineMs: 60_000 });
  const [bcbPrepared, dsPrepared] = await Promise.all([bcb.prepare(bcbTask), ds.prepare(dsTask)]);
  const cases: [string, () => Promise<string>][] = [
    [
      'ordinary program (baseline)',
      async () => (await bcb.check(bcbPrepared, code(bcbTask.gold))).error?.kind ?? 'pass',
    ],
    [
      '10 GB printed to stdout',
      async () =>
        (
          await bcb.check(
            bcbPrepared,
            code(
              "def task_func(x):\n    block = 'y' * (1 << 20)\n    for _ in range(10 * 1024):\n        print(block)\n",
            ),
          )
        ).error?.kind ?? 'none',
    ],
    [
      'endless stderr flood',
      async () =>
        (await runProgram(pool, "import sys\nwhile True:\n    sys.stderr.write('e' * 65536)\n", { deadlineMs: 60_000 }))
          .status,
    ],
    [
      '2 GB DSCodeBench return value',
      async () =>
        (await ds.check(dsPrepared, code("def twice(x):\n    return 'q' * (2 * 1024 ** 3)\n"))).error?.kind ?? 'none',
    ],
    [
      '100,000 nested parentheses',
      async () =>
        (
          await bcb.check(
            bcbPrepared,
            code(`def task_func(x):\n    return ${'('.repeat(100_000)}x${')'.repeat(100_000)}\n`),
          )
        ).error?.kind ?? 'none',
    ],
    [
      '5 MB program (accepted, runs)',
      async () =>
        (await bcb.check(bcbPrepared, code(`${bcbTask.gold}${'y = 1\n'.repeat(850_000)}`))).error?.kind ?? 'pass',
    ],
    [
      '512 MiB exception message',
      async () => (await runProgram(pool, "raise ValueError('m' * (512 * 1024 * 1024))\n")).status,
    ],
  ];
  const rows: string[][] = [];
  let baseline = 0;
  for (const [name, run] of cases) {
    const started = performance.now();
    const kind = await run();
    const ms = performance.now() - started;
    if (!baseline) baseline = ms;
    rows.push([name, kind, `${ms.toFixed(0)} ms`, `${(ms / baseline).toFixed(1)}×`, `${peakRssMb()} MB`]);
  }
  await pool.close();
  const header = ['answer', 'verdict', 'time to verdict', 'vs ordinary', 'harness peak RSS'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log(`\nharness peak RSS ${peakRssMb()} MB (target: under 1024 MB)`);
}

await main();
