import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { newRunId } from './core/store.ts';
import { benchPartName } from './core/suite-parts.ts';

// One run id for the whole run: workers inherit it through the environment, so every trajectory
// of this run lands in the same run-store folder. Set WITNESS_RUN_ID yourself to name a run.
process.env.WITNESS_RUN_ID ??= newRunId();

// Regexes that escape the DFA path run on V8's backtracking engine; this flag lets V8 fall back
// to its linear engine on excessive backtracking (it is refused in NODE_OPTIONS, so set it here).
const execArgv = ['--enable-experimental-regexp-engine-on-excessive-backtracks'];
// Bench workers grow their heap by half between major collections instead of V8's default (up to
// 4×): a suite of 10,000 tasks allocates much and keeps little, and its peak RSS swung 390–530 MB
// with the default and stays near 310 MB this way, in the same wall time (docs/scaling.md). A factor,
// not a cap: a suite that needs more heap (the SQL result cache) still gets it.
const benchExecArgv = [...execArgv, '--heap-growing-percent=50'];

// The bench project once per core (at most 4), or WITNESS_BENCH_PARTS times: vitest runs a file in
// one worker, so each part runs a share of every suite's episodes in a worker of its own
// (core/suite-parts.ts). `--project 'bench*'` runs them all; `--project bench` alone runs each
// suite whole in one worker. Shards on machines of different sizes must set WITNESS_BENCH_PARTS
// alike, so that their parts split the tasks the same way.
const BENCH_PARTS = Number(process.env.WITNESS_BENCH_PARTS) || Math.max(1, Math.min(4, availableParallelism()));

export default defineConfig({
  test: {
    reporters: ['default', './reports/reporter.ts'],
    // One Neo4j per run for the Cypher tests and suites, started only when one of them asks; how
    // many bench parts the run selected; the run's configuration, loaded once for every worker.
    globalSetup: [
      './oracles/cypher/server/global-setup.ts',
      './core/suite-parts-setup.ts',
      './core/run-config-setup.ts',
    ],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{core,oracles,strategies,optimizers,reports,suites,cli,testing}/**/*.test.ts'],
          // The tests leave witness-out/ and .witness/ of this folder as they found them.
          globalSetup: ['./vitest.user-folders.ts'],
          execArgv,
          testTimeout: 30_000,
        },
      },
      ...Array.from({ length: BENCH_PARTS }, (_, i) => ({
        extends: true as const,
        test: {
          name: benchPartName(i + 1),
          include: ['suites/**/*.eval.ts'],
          execArgv: benchExecArgv,
          testTimeout: 15 * 60_000,
          maxConcurrency: 16,
          env: { WITNESS_SUITE_PART: String(i + 1) },
          // One worker per part, all at once (vitest's default is one fewer than the cores);
          // a group of its own, since the unit project keeps vitest's default.
          maxWorkers: BENCH_PARTS,
          sequence: { groupOrder: 1 },
        },
      })),
    ],
  },
});
