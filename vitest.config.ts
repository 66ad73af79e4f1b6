import { defineConfig } from 'vitest/config';
import { newRunId } from './core/store.ts';

// One run id for the whole run: workers inherit it through the environment, so every trajectory
// of this run lands in the same run-store folder. Set WITNESS_RUN_ID yourself to name a run.
process.env.WITNESS_RUN_ID ??= newRunId();

// Regexes that escape the DFA path run on V8's backtracking engine; this flag lets V8 fall back
// to its linear engine on excessive backtracking (it is refused in NODE_OPTIONS, so set it here).
const execArgv = ['--enable-experimental-regexp-engine-on-excessive-backtracks'];

export default defineConfig({
  test: {
    reporters: ['default', './reports/reporter.ts'],
    // One Neo4j per run for the Cypher tests and suites, started only when one of them asks.
    globalSetup: ['./oracles/cypher/server/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{core,oracles,strategies,optimizers,reports,suites,cli}/**/*.test.ts'],
          // The tests leave witness-out/ and .witness/ of this folder as they found them.
          globalSetup: ['./vitest.user-folders.ts'],
          execArgv,
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'bench',
          include: ['suites/**/*.eval.ts'],
          execArgv,
          testTimeout: 15 * 60_000,
          maxConcurrency: 16,
        },
      },
    ],
  },
});
