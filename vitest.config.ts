import { defineConfig } from 'vitest/config';

// Regexes that escape the DFA path run on V8's backtracking engine; this flag lets V8 fall back
// to its linear engine on excessive backtracking (it is refused in NODE_OPTIONS, so set it here).
const execArgv = ['--enable-experimental-regexp-engine-on-excessive-backtracks'];

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{core,oracles,strategies,reports,suites,cli}/**/*.test.ts'],
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
