// The vitest configuration of perf/overhead.ts: the bench project's settings, on the perf suite only.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['perf/overhead-suite.eval.ts'],
    reporters: ['default', './reports/reporter.ts'],
    execArgv: ['--enable-experimental-regexp-engine-on-excessive-backtracks'],
    testTimeout: 15 * 60_000,
    maxConcurrency: 16,
  },
});
