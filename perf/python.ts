/**
 * Python sandbox benchmark (prints figures, asserts nothing): `npx tsx perf/python.ts`
 *
 * 1. Per-candidate overhead, measured side by side in one run on the same small candidate
 *    (`import numpy, pandas` then a tiny computation):
 *    - warm pool: a phase forked from a sandboxed worker that has numpy and pandas imported;
 *    - cold, sandboxed: a fresh bwrap + python3 per candidate that imports numpy and pandas;
 *    - cold, no sandbox: a bare `python3 -c` per candidate that imports numpy and pandas.
 *    Target: the warm pool at least 10× cheaper than a fresh python3 per candidate.
 * 2. A full DSCodeBench check of a numpy task (candidate and reference on the 200 seeded inputs,
 *    then the judge), on the warm pool. Target: under 100 ms.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../core/config.ts';
import { loadDsCodeBench } from '../oracles/python/dscodebench/loader.ts';
import { dsCodeBenchOracle } from '../oracles/python/dscodebench/oracle.ts';
import { WorkerPool } from '../oracles/python/pool/pool.ts';
import { runProgram } from '../oracles/python/run-program.ts';
import { sandboxEnvironment } from '../oracles/python/sandbox/backend.ts';
import { bwrapArgs, SANDBOX_GID, SANDBOX_UID } from '../oracles/python/sandbox/bwrap.ts';
import { DEFAULT_SCRATCH, GIB, MIB, prlimitArgs } from '../core/sandbox/limits.ts';
import { stagedPythonDir } from '../oracles/python/sandbox/stage.ts';

const ROUNDS = loadConfig().config.perf.pythonRounds;
const PYTHON = '/usr/bin/python3';
const CANDIDATE = 'import numpy, pandas\nx = int(numpy.arange(10).sum()) + len(pandas.DataFrame({"a": [1, 2]}))\n';

function stats(samples: number[]): { median: number; p90: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
  return { median: at(0.5), p90: at(0.9), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

function timeSync(run: () => { status: number | null; stderr: string }): number {
  const started = performance.now();
  const result = run();
  if (result.status !== 0) throw new Error(`baseline failed: ${result.stderr}`);
  return performance.now() - started;
}

async function overhead(): Promise<void> {
  const pool = new WorkerPool({ size: 1 });
  await pool.warm();
  const warm: number[] = [];
  for (let i = 0; i < ROUNDS + 3; i++) {
    const started = performance.now();
    const outcome = await runProgram(pool, CANDIDATE);
    if (outcome.status !== 'ok') throw new Error(`warm run failed: ${outcome.reason}`);
    if (i >= 3) warm.push(performance.now() - started);
  }
  await pool.close();

  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const identity = root ? { uid: SANDBOX_UID, gid: SANDBOX_GID } : {};
  const spec = {
    pyDir: stagedPythonDir(),
    env: sandboxEnvironment(),
    maxAddressSpaceBytes: 8 * GIB,
    maxFileSizeBytes: 64 * MIB,
    scratch: DEFAULT_SCRATCH,
  };
  const sandboxed = [...bwrapArgs(spec, PYTHON).slice(0, -3), '-c', CANDIDATE];
  const coldSandbox: number[] = [];
  const coldBare: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    coldSandbox.push(
      timeSync(() =>
        spawnSync('prlimit', [...prlimitArgs(8 * GIB, 64 * MIB), '--', 'bwrap', ...sandboxed], {
          env: {},
          encoding: 'utf8',
          ...identity,
        }),
      ),
    );
    coldBare.push(
      timeSync(() => spawnSync(PYTHON, ['-c', CANDIDATE], { env: { PATH: '/usr/bin' }, encoding: 'utf8' })),
    );
  }
  const w = stats(warm);
  const cs = stats(coldSandbox);
  const cb = stats(coldBare);
  const row = (name: string, s: { median: number; p90: number; mean: number }) =>
    `   ${name.padEnd(44)} median ${s.median.toFixed(1).padStart(7)} ms   p90 ${s.p90.toFixed(1).padStart(7)} ms   mean ${s.mean.toFixed(1).padStart(7)} ms`;
  console.log(`1. per-candidate cost, ${ROUNDS} candidates each (import numpy + pandas, tiny computation)`);
  console.log(row('warm pool (fork of a sandboxed worker)', w));
  console.log(row('cold: fresh bwrap + python3 per candidate', cs));
  console.log(row('cold: fresh python3 per candidate, no sandbox', cb));
  console.log(
    `   ratio cold sandboxed / warm: ${(cs.median / w.median).toFixed(1)}×   ratio cold bare / warm: ${(cb.median / w.median).toFixed(1)}×   (target ≥ 10×)`,
  );
}

async function numpyCheck(): Promise<void> {
  const data = fileURLToPath(new URL('../fixtures/dscodebench/dscodebench.jsonl', import.meta.url));
  const task = loadDsCodeBench(data).tasks.find((t) => t.id === 'witness_np_002');
  if (!task) throw new Error('fixture witness_np_002 not found');
  const pool = new WorkerPool({ size: 1 });
  const oracle = dsCodeBenchOracle({ pool, candidateDeadlineMs: 20_000 });
  const prepared = await oracle.prepare(task);
  const totals: number[] = [];
  const phases = { candidateMs: [] as number[], referenceMs: [] as number[], judgeMs: [] as number[] };
  for (let i = 0; i < ROUNDS + 3; i++) {
    // A fresh source each round, so no cached verdict is reused.
    const verdict = await oracle.check(prepared, { source: `${task.gold}\n# round ${i}\n`, extraction: 'code-block' });
    if (!verdict.pass) throw new Error('the reference failed its own check');
    if (i < 3) continue;
    totals.push(verdict.timings.totalMs);
    for (const key of Object.keys(phases) as (keyof typeof phases)[]) phases[key].push(verdict.timings[key] as number);
  }
  await pool.close();
  const t = stats(totals);
  console.log(
    `2. DSCodeBench check of a numpy task (moving_average, 200 seeded inputs, candidate + reference + judge), ${ROUNDS} checks`,
  );
  console.log(`   total  median ${t.median.toFixed(1)} ms   p90 ${t.p90.toFixed(1)} ms   (target < 100 ms)`);
  console.log(
    `   phases median: candidate ${stats(phases.candidateMs).median.toFixed(1)} ms, reference ${stats(phases.referenceMs).median.toFixed(1)} ms, judge ${stats(phases.judgeMs).median.toFixed(1)} ms`,
  );
}

await overhead();
await numpyCheck();
