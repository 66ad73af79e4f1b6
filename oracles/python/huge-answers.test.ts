/**
 * Answers too big or too deep for the interpreter, and answers whose output is too big, are the
 * model's failures with a named kind — `too-complex` when CPython refuses the program for its size
 * or depth (or it is over the oracle's program-size cap), `syntax` when it is simply not Python,
 * `too-large` when what it printed, returned or reported went over a cap — never harness errors,
 * and the cap holds while the output is produced (bounded time, bounded host memory).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Candidate, Task } from '../../core/types.ts';
import { bigCodeBenchOracle } from './bigcodebench/oracle.ts';
import { dsCodeBenchOracle } from './dscodebench/oracle.ts';
import { WorkerPool } from './pool/pool.ts';
import { runProgram } from './run-program.ts';

const pool = new WorkerPool({ size: 1 });
afterAll(() => pool.close());
const code = (source: string): Candidate => ({ source, extraction: 'code-block' });

/** Programs the interpreter refuses for their depth or size. */
export const TOO_COMPLEX = {
  parentheses: `x = ${'('.repeat(100_000)}1${')'.repeat(100_000)}\n`,
  unaryChain: `x = ${'-'.repeat(2_500_000)}1\n`,
  additions: `x = ${Array.from({ length: 100_000 }, () => '1').join(' + ')}\n`,
  indentation: `${Array.from({ length: 120 }, (_, i) => `${' '.repeat(i)}if 1:\n`).join('')}${' '.repeat(120)}pass\n`,
  nestedBlocks: `${Array.from({ length: 25 }, (_, i) => `${'    '.repeat(i)}for a${i} in []:\n`).join('')}${'    '.repeat(25)}pass\n`,
  hugeInteger: `x = ${'7'.repeat(10_000)}\n`,
};

const NOT_PYTHON = {
  nulByte: 'def task_func():\n    return 1\u0000\n',
  loneSurrogate: 'def task_func():\n    return "\ud800"\n',
  missingColon: 'def task_func()\n    return 1\n',
};

const bcbTask: Task = {
  id: 'huge-bcb',
  benchmark: 'bigcodebench',
  description: 'return twice the argument',
  gold: 'def task_func(x):\n    return 2 * x\n',
  context: {
    codePrompt: 'def task_func(x):\n',
    completePrompt: 'def task_func(x):\n',
    entryPoint: 'task_func',
    libs: [],
    test: 'import unittest\nclass TestCases(unittest.TestCase):\n    def test_two(self):\n        self.assertEqual(task_func(2), 4)\n    def test_zero(self):\n        self.assertEqual(task_func(0), 0)\n',
  },
};

const dsTask: Task = {
  id: 'huge-ds',
  benchmark: 'dscodebench',
  description: 'return twice the argument',
  gold: 'def twice(x):\n    return 2 * x\n',
  context: {
    library: 'Python',
    testScript:
      'import random\ndef test_case_input_generator(n=200):\n    return [random.randint(0, 9) for _ in range(n)]\n',
  },
};

describe('programs the interpreter refuses for their size or depth', () => {
  const bcb = bigCodeBenchOracle({ pool, timeLimitS: 10, maxProgramBytes: 8 * 1024 * 1024 });
  const ds = dsCodeBenchOracle({ pool, cases: 5, candidateDeadlineMs: 10_000, maxProgramBytes: 8 * 1024 * 1024 });

  it('are too-complex in runProgram, naming what CPython said', async () => {
    for (const [name, source] of Object.entries(TOO_COMPLEX)) {
      const outcome = await runProgram(pool, source);
      expect({ name, status: outcome.status }).toEqual({ name, status: 'too-complex' });
      expect(outcome.reason).toMatch(
        /too many nested parentheses|too many levels of indentation|too many statically nested blocks|Exceeds the limit|RecursionError|MemoryError/,
      );
    }
  }, 60_000);

  it('are too-complex for BigCodeBench and DSCodeBench, failing every case', async () => {
    const [bcbPrepared, dsPrepared] = await Promise.all([bcb.prepare(bcbTask), ds.prepare(dsTask)]);
    for (const source of [TOO_COMPLEX.parentheses, TOO_COMPLEX.unaryChain, TOO_COMPLEX.additions]) {
      for (const [oracle, prepared] of [
        [bcb, bcbPrepared],
        [ds, dsPrepared],
      ] as const) {
        const verdict = await oracle.check(prepared as never, code(source));
        expect(verdict.pass).toBe(false);
        expect(verdict.error?.kind).toBe('too-complex');
        expect(verdict.cases.every((c) => !c.pass)).toBe(true);
        expect(oracle.render.error(verdict.error!)).toMatch(/too (big|deep|complex)/i);
      }
    }
  }, 60_000);

  it('refuses a program over the size cap before running it, and calls text that is not Python a syntax error', async () => {
    const prepared = await bcb.prepare(bcbTask);
    const huge = `def task_func(x):\n    return 2 * x\n${'# padding\n'.repeat(900_000)}`;
    const verdict = await bcb.check(prepared, code(huge));
    expect(verdict.error).toMatchObject({
      kind: 'too-complex',
      message: expect.stringMatching(/8\.6 MiB.*over the 8 MiB cap/),
    });
    const dsPrepared = await ds.prepare(dsTask);
    for (const [name, source] of Object.entries(NOT_PYTHON)) {
      const outcome = await runProgram(pool, source);
      expect({ name, status: outcome.status }).toEqual({ name, status: 'syntax' });
      expect({ name, kind: (await bcb.check(prepared, code(source))).error?.kind }).toEqual({ name, kind: 'syntax' });
      expect({
        name,
        kind: (await ds.check(dsPrepared, code(source.replace('task_func', 'twice')))).error?.kind,
      }).toEqual({ name, kind: 'syntax' });
    }
  }, 60_000);

  it('runs a 5 MB program the interpreter accepts', async () => {
    const prepared = await bcb.prepare(bcbTask);
    const big = `def task_func(x):\n    return 2 * x\n${'y = 1\n'.repeat(850_000)}`;
    expect(big.length).toBeGreaterThan(5_000_000);
    expect(await bcb.check(prepared, code(big))).toMatchObject({ pass: true });
  }, 60_000);
});

describe('output over the caps', () => {
  const bcb = bigCodeBenchOracle({ pool, timeLimitS: 20 });
  const ds = dsCodeBenchOracle({ pool, cases: 5, candidateDeadlineMs: 20_000 });
  const rss = () => process.memoryUsage().rss;

  it('a 10 GB print loop, a stderr flood and a child process flooding stdout are too-large within seconds', async () => {
    const before = rss();
    const floods = [
      "import sys\nblock = 'y' * (1 << 20)\nfor _ in range(10 * 1024):\n    sys.stdout.write(block)\n",
      "import sys\nblock = 'e' * (1 << 20)\nwhile True:\n    sys.stderr.write(block)\n",
      "import subprocess\nsubprocess.run(['sh', '-c', 'yes 0123456789'])\n",
      "import os\nwhile True:\n    try:\n        print('x' * 100000)\n    except OSError:\n        pass\n",
    ];
    for (const source of floods) {
      const started = performance.now();
      const outcome = await runProgram(pool, source, { deadlineMs: 20_000 });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect({ status: outcome.status, reason: outcome.reason }).toMatchObject({
        status: 'too-large',
        reason: expect.stringMatching(/more than 16 MiB to std(out|err)/),
      });
      expect(outcome.stdout.length + outcome.stderr.length).toBeLessThan(10_000);
    }
    expect(rss() - before).toBeLessThan(256 * 1024 * 1024);
  }, 60_000);

  it('a BigCodeBench print bomb is too-large; a huge exception message and a huge traceback are ordinary runtime failures', async () => {
    const prepared = await bcb.prepare(bcbTask);
    const bomb = await bcb.check(prepared, code("def task_func(x):\n    while True:\n        print('z' * 65536)\n"));
    expect(bomb.error).toMatchObject({
      kind: 'too-large',
      message: expect.stringMatching(/more than 16 MiB to stdout/),
    });
    expect(bomb.cases.every((c) => !c.pass)).toBe(true);
    const message = await bcb.check(
      prepared,
      code("def task_func(x):\n    raise ValueError('m' * (512 * 1024 * 1024))\n"),
    );
    expect(message.pass).toBe(false);
    expect(message.error).toBeUndefined();
    const witness = message.witnesses[0]?.actual as { type: string; message: string; traceback: string };
    expect(witness.type).toBe('ValueError');
    expect(witness.message.length).toBeLessThan(3000);
    expect(witness.traceback.length).toBeLessThan(4000);
    const atImport = await bcb.check(prepared, code("raise ValueError('m' * (512 * 1024 * 1024))\n"));
    expect(atImport.error).toMatchObject({ kind: 'runtime', message: expect.stringMatching(/^ValueError: mmm/) });
    expect(atImport.error!.message.length).toBeLessThan(5000);
    // 20,000 chained exceptions, each with its own deep traceback: formatted in full, hundreds of megabytes.
    const chain = await bcb.check(
      prepared,
      code(
        'import sys\nsys.setrecursionlimit(50000)\ndef deep(n):\n    if n == 0:\n        raise ValueError("bottom")\n    try:\n        return deep(n - 1)\n    except ValueError as e:\n        raise ValueError("level %d" % n) from e\ndef task_func(x):\n    return deep(20000)\n',
      ),
    );
    expect(chain.pass).toBe(false);
    expect(chain.witnesses[0]?.actual).toMatchObject({ type: 'ValueError', message: 'level 20000' });
    expect(JSON.stringify(chain).length).toBeLessThan(40_000);
  }, 60_000);

  it('a DSCodeBench return value of 2 GB and a forged flood of results are too-large; unserialisable outputs just fail', async () => {
    const prepared = await ds.prepare(dsTask);
    const started = performance.now();
    const huge = await ds.check(prepared, code("def twice(x):\n    return 'q' * (2 * 1024 ** 3)\n"));
    // Bounded, with room for a loaded machine (about a second when idle).
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(huge.error).toMatchObject({
      kind: 'too-large',
      message: expect.stringMatching(/outputs? .*over the 32 MiB cap|too large to serialise/),
    });
    const many = await ds.check(prepared, code("def twice(x):\n    return b'w' * (10 * 1024 * 1024)\n"));
    expect(many.error?.kind).toBe('too-large');
    const forged = await ds.check(
      prepared,
      code('import os\nos.write(3, b\'{"event": "x"}\\n\' * (1 << 20))\ndef twice(x):\n    return 2 * x\n'),
    );
    expect(forged.error).toMatchObject({
      kind: 'too-large',
      message: expect.stringMatching(/reported more than 8 MiB/),
    });
    const generator = await ds.check(prepared, code('def twice(x):\n    return (2 * x for _ in range(1))\n'));
    expect(generator).toMatchObject({ pass: false });
    expect(generator.error).toBeUndefined();
    const message = await ds.check(prepared, code("def twice(x):\n    raise ValueError('m' * (512 * 1024 * 1024))\n"));
    expect(message.error).toMatchObject({
      kind: 'runtime',
      message: expect.stringMatching(/^twice raised ValueError: mmm/),
    });
    expect(message.error!.message.length).toBeLessThan(5000);
  }, 90_000);
});
