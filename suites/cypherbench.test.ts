/**
 * `npm run bench` on the CypherBench suite, end to end: it starts its own Neo4j (the Java launcher
 * here), runs the questions × every strategy (the A-CEGIS grid, HERO-T and its baselines) with the sim, prints the reporter's table, and
 * stops the JVM when the run ends; without Java or Docker it reports the suite as not run, with
 * the reason, and still exits 0.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readResultsFile } from '../reports/results-file.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const STRATEGIES = ['zero-shot', 'generic', 'error-only', 'one-example', 'three-example', 'diagnostic', 'cheatsheet', 'hero-t', 'react'];

function bench(env: NodeJS.ProcessEnv, ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'witness-cypherbench-'));
  const childEnv: NodeJS.ProcessEnv = { ...process.env, WITNESS_OUT: join(dir, 'out'), WITNESS_STORE: join(dir, 'store'), WITNESS_RUN_ID: 'cypher-e2e', NO_COLOR: '1', FORCE_COLOR: '0', ...env };
  delete childEnv.WITNESS_MODEL;
  const run = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'bench', 'suites/cypherbench.eval.ts', ...args], {
    cwd: root,
    env: childEnv,
    encoding: 'utf8',
    timeout: 240_000,
  });
  return { run, dir };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the cypherbench benchmark suite', () => {
  it('starts its own Neo4j, runs the strategies with the sim, prints the table and stops the JVM', async () => {
    // Ten questions keep this test short; the whole suite is `npm run bench`.
    const { run, dir } = bench({ NEO4J_URI: '', WITNESS_NEO4J: 'launcher' }, '-t', 'skyways-0(0[1-9]|10) ');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const ready = /Witness: Neo4j ready at bolt:\/\/127\.0\.0\.1:\d+ via Java launcher \(Neo4j 5\.20 Community embedded, pid (\d+)/.exec(run.stderr);
    expect(ready, run.stderr).not.toBeNull();
    expect(run.stderr).toMatch(/Witness: Neo4j stopped/);
    expect(alive(Number(ready![1]))).toBe(false);
    expect(run.stdout).toMatch(/cypherbench · sim \(privileged\)/);
    for (const strategy of STRATEGIES) expect(run.stdout).toMatch(new RegExp(`│ ${strategy} +│ +10 │`));

    const results = await readResultsFile(join(dir, 'out', 'results.json'));
    expect(results.trajectories).toHaveLength(10 * STRATEGIES.length);
    expect(results.trajectories.every((t) => t.outcome.status !== 'harness-error' && t.oracle.name === 'cypher')).toBe(true);
    const row = (name: string) => results.summary.find((r) => r.strategy === name)!;
    expect(row('diagnostic').passFinal.value!).toBeGreaterThanOrEqual(row('generic').passFinal.value!);
    expect(row('diagnostic').pass1.value).toBe(row('zero-shot').pass1.value);
    const diagnosticTurns = results.trajectories.filter((t) => t.strategy === 'diagnostic').flatMap((t) => t.turns);
    expect(diagnosticTurns.some((t) => /is missing from your result|which should not be there|should be/.test(t.feedback?.text ?? ''))).toBe(true);
  }, 240_000);

  it('is reported as not run, with the reason, when neither Java nor Docker is available', () => {
    const { run } = bench({ NEO4J_URI: '', WITNESS_JAVA: '/nonexistent/java', DOCKER_HOST: 'unix:///nonexistent/docker.sock' });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output).toMatch(/cypherbench: not run\.\nNeo4j 5\.20 is not available, so the Cypher oracle cannot run\. Tried:/);
    expect(output).toMatch(/1\. NEO4J_URI: not set/);
    expect(output).toMatch(/2\. Docker \(dockerode, image neo4j:5\.20\.0-community\): no Docker engine reachable at unix:\/\/\/nonexistent\/docker\.sock/);
    expect(output).toMatch(/3\. Java launcher \(neo4j\/, Neo4j 5\.20 jars from Maven Central\): no Java found/);
    expect(output).toMatch(/↓ .*not run: Neo4j 5\.20 is not available|1 skipped/);
  }, 120_000);
});
