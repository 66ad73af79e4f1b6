/**
 * A setting read through the config reaches the component that uses it: the suites' specs, the
 * Python sandbox choice and interpreter (what the specs hand the worker pool), and the Neo4j server
 * address.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.ts';
import { Neo4jUnavailableError } from '../oracles/cypher/server/server.ts';
import { startNeo4j } from '../oracles/cypher/server/start.ts';
import { WorkerPool } from '../oracles/python/pool/pool.ts';
import { sandboxInterpreter } from '../oracles/python/sandbox/interpreter.ts';
import { configuredSandbox } from '../oracles/python/sandbox/select.ts';
import { bigCodeBenchSpec } from '../oracles/python/bigcodebench/spec.ts';
import { birdSpec } from '../oracles/sql/spec.ts';

const repo = fileURLToPath(new URL('..', import.meta.url));
const project = () => mkdtempSync(join(tmpdir(), 'witness-configured-'));

describe('settings read through the config reach their component', () => {
  it("suites.bird.vesIterations sets the SQL oracle's VES timing", async () => {
    const off = birdSpec(loadConfig(project(), { WITNESS_VES_ITERATIONS: '0' }).config);
    const three = birdSpec(loadConfig(project(), { WITNESS_VES_ITERATIONS: '3' }).config);
    try {
      expect((off.oracle.settings() as { ves: unknown }).ves).toBe(false);
      expect((three.oracle.settings() as { ves: { iterations: number } }).ves.iterations).toBe(3);
    } finally {
      await Promise.all([off.oracle.dispose?.(), three.oracle.dispose?.()]);
    }
  });

  it("suites.bigcodebench.data and timeoutPerTaskS from the file set the tasks and the oracle's time limit", async () => {
    const dir = project();
    const data = join(repo, 'fixtures', 'bigcodebench', 'bigcodebench.jsonl');
    writeFileSync(
      join(dir, 'witness.config.json'),
      JSON.stringify({ suites: { bigcodebench: { data, timeoutPerTaskS: 120 } } }),
    );
    const { config } = loadConfig(dir, {});
    const spec = bigCodeBenchSpec(config);
    try {
      expect(spec.tasks.tasks.length).toBeGreaterThan(0);
      expect(spec.oracle.settings()).toMatchObject({ timeLimitS: 120 });
    } finally {
      await spec.oracle.dispose?.();
    }
  });

  it('python.sandbox and python.interpreter of witness.config.json are what the configured sandbox uses', async () => {
    const dir = project();
    writeFileSync(
      join(dir, 'witness.config.json'),
      JSON.stringify({ python: { sandbox: 'process', interpreter: '/usr/bin/python3' } }),
    );
    const sandbox = configuredSandbox(loadConfig(dir, {}).config.python);
    expect(sandbox).toMatchObject({ backend: 'process', interpreter: { interpreter: '/usr/bin/python3' } });
    expect(sandboxInterpreter(sandbox.interpreter).source).toBe('WITNESS_PYTHON');
    const pool = new WorkerPool({ size: 1, ...sandbox });
    try {
      expect((await pool.resolveBackend()).name).toBe('process');
    } finally {
      await pool.close();
    }
  });

  it('neo4j.uri (NEO4J_URI) is the server startNeo4j uses, alone', async () => {
    const { neo4j } = loadConfig(project(), { NEO4J_URI: 'bolt://127.0.0.1:1' }).config;
    const error = await startNeo4j({ neo4j, uriTimeoutMs: 1000, log: () => {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Neo4jUnavailableError);
    expect((error as Neo4jUnavailableError).attempts.map((a) => a.reason)).toEqual([
      expect.stringMatching(/^NEO4J_URI=bolt:\/\/127\.0\.0\.1:1 does not answer/),
      'not tried, because NEO4J_URI is set',
      'not tried, because NEO4J_URI is set',
    ]);
  }, 30_000);
});
