/**
 * A vitest configuration for one probe: the Witness global setup starts Neo4j for it (as in any
 * run), and the probe starts a query that never ends. server.test.ts runs it in a child vitest and
 * kills that vitest's main process with SIGKILL, to check that the JVM does not outlive it.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['runaway.probe.ts'],
    globalSetup: ['../../../oracles/cypher/server/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
