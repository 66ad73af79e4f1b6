/**
 * BigCodeBench hardening in the real sandbox: calls derived from the test module's literal calls,
 * run on the reference and the candidate. The gold is never disagreed with; a candidate that
 * passes the task's tests but differs on a derived call is caught and the call becomes a case;
 * probing is deterministic by seed; a task without literal calls probes nothing; a hostile
 * candidate ends as bounded failures.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../core/random.ts';
import type { Candidate, Task } from '../../../core/types.ts';
import { WorkerPool } from '../pool/pool.ts';
import { loadBigCodeBench } from './loader.ts';
import { bigCodeBenchOracle } from './oracle.ts';

const pool = new WorkerPool({ size: 2 });
afterAll(() => pool.close());
const oracle = bigCodeBenchOracle({ pool, timeLimitS: 3 });
const hardener = oracle.hardener!;
const fixtures = loadBigCodeBench(
  fileURLToPath(new URL('../../../fixtures/bigcodebench/bigcodebench.jsonl', import.meta.url)),
).tasks;
const fixture = (id: string) => fixtures.find((t) => t.id === id) as Task;
const code = (source: string): Candidate => ({ source, extraction: 'code-block' });
const probe = (prepared: Parameters<typeof hardener.probe>[0], candidate: Candidate, seed = 7, maxProbes = 40) =>
  hardener.probe(prepared, candidate, { rng: new Rng(seed), maxProbes, round: 1 });

// Passes WitnessBCB/9's tests (none has a negative number) but takes the mean of the magnitudes.
const absMean =
  "import statistics\ndef task_func(numbers):\n    if not numbers:\n        raise ValueError('numbers is empty')\n" +
  "    return {'mean': float(statistics.mean([abs(x) for x in numbers])), 'median': float(statistics.median(numbers)), 'mode': min(statistics.multimode(numbers))}\n";

describe('BigCodeBench hardening', () => {
  it('never disagrees with the gold', async () => {
    for (const id of ['WitnessBCB/0', 'WitnessBCB/9', 'WitnessBCB/18']) {
      const prepared = await oracle.prepare(fixture(id));
      const report = await probe(prepared, code(prepared.task.gold));
      expect(report.probed, id).toBeGreaterThan(0);
      expect(report.disagreements, id).toEqual([]);
    }
  });

  it('catches a candidate that passes the tests but differs on a derived call, and the call becomes a case', async () => {
    const prepared = await oracle.prepare(fixture('WitnessBCB/9'));
    expect((await oracle.check(prepared, code(absMean))).pass).toBe(true);
    const report = await probe(prepared, code(absMean));
    expect(report.disagreements.length).toBeGreaterThan(0);
    const witness = report.disagreements[0]!;
    expect(witness).toMatchObject({ kind: 'failing-input', label: 'wrong output' });
    expect(String(witness.input)).toMatch(/^task_func\(\[.*-\d.*\]\)$/);
    expect(String(witness.expected)).toMatch(/^\{'mean': /);
    expect(witness.actual).not.toEqual(witness.expected);
    // The gold's own value on that call, as a plain check shows it.
    const numbers = JSON.parse(String(witness.input).slice('task_func('.length, -1)) as number[];
    const mean = numbers.reduce((a, b) => a + b, 0) / numbers.length;
    expect(String(witness.expected)).toContain(`'mean': ${Number.isInteger(mean) ? mean.toFixed(1) : String(mean)}`);
    expect(await oracle.simulator.agrees(prepared, code(prepared.task.gold), witness)).toBe(true);
    expect(await oracle.simulator.agrees(prepared, code(absMean), witness)).toBe(false);

    const extended = hardener.extend(prepared, [witness]);
    expect(extended.caseIds).toEqual([...prepared.caseIds, 'h01']);
    const verdict = await oracle.check(extended, code(absMean));
    expect(verdict.pass).toBe(false);
    expect(verdict.cases.at(-1)).toEqual({ id: 'h01', pass: false });
    expect(verdict.witnesses.find((w) => w.caseId === 'h01')).toMatchObject({
      input: witness.input,
      expected: witness.expected,
      actual: witness.actual,
    });
    expect(oracle.render.witness(verdict.witnesses.find((w) => w.caseId === 'h01')!)).toContain('should return');
    const gold = await oracle.check(extended, code(prepared.task.gold));
    expect(gold.pass).toBe(true);
    expect(gold.cases.map((c) => c.id)).toEqual(extended.caseIds);
  });

  it('probes the same calls and reports the same for the same seed', async () => {
    const prepared = await oracle.prepare(fixture('WitnessBCB/9'));
    const first = await probe(prepared, code(absMean), 11);
    const again = await probe(prepared, code(absMean), 11);
    expect(again).toEqual(first);
    const fresh = bigCodeBenchOracle({ pool, timeLimitS: 3 });
    const other = await fresh.hardener!.probe(await fresh.prepare(fixture('WitnessBCB/9')), code(absMean), {
      rng: new Rng(11),
      maxProbes: 40,
      round: 1,
    });
    expect(other).toEqual(first);
  });

  it('probes nothing on a task whose tests have no literal call of the entry point', async () => {
    const prepared = await oracle.prepare(fixture('WitnessBCB/6'));
    expect(await probe(prepared, code(prepared.task.gold))).toEqual({ probed: 0, disagreements: [] });
  });

  it('ends a hostile candidate (an endless loop, a flood of output) as bounded failures', async () => {
    const prepared = await oracle.prepare(fixture('WitnessBCB/9'));
    const guard =
      "import statistics, os\ndef task_func(numbers):\n    if not numbers:\n        raise ValueError('numbers is empty')\n    if len(numbers) > 5 or min(numbers) < 0:\n";
    const tail =
      "    return {'mean': float(statistics.mean(numbers)), 'median': float(statistics.median(numbers)), 'mode': min(statistics.multimode(numbers))}\n";
    for (const hostile of [
      '        while True:\n            pass\n',
      "        while True:\n            os.write(1, b'x' * 65536)\n",
      "        return 'x' * (1 << 26)\n",
    ]) {
      const candidate = code(guard + hostile + tail);
      expect((await oracle.check(prepared, candidate)).pass).toBe(true);
      const started = performance.now();
      const report = await probe(prepared, candidate);
      expect(performance.now() - started).toBeLessThan(30_000);
      expect(report.disagreements.length).toBeGreaterThan(0);
      expect(report.disagreements.length).toBeLessThanOrEqual(report.probed);
    }
  });
});
