/**
 * `npm run bench` on the CypherBench suite, end to end: it starts its own Neo4j (the Java launcher
 * here), runs the questions × every strategy (the A-CEGIS grid, HERO-T and its baselines) with the sim, prints the reporter's table, and
 * stops the JVM when the run ends; without Java or Docker it reports the suite as not run, with
 * the reason, and still exits 0.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startTestModelServer } from '../testing/model-server.ts';
import type { ChatMessage, Trajectory } from '../core/types.ts';
import { graphChecksum } from '../testing/cypher/checksum.ts';
import { createDriver } from '../oracles/cypher/driver.ts';
import { SKYWAYS_GRAPH_FILE, SKYWAYS_QUESTIONS_FILE } from '../oracles/cypher/fixture-paths.ts';
import { readCypherBenchItems, type CypherBenchItem } from '../oracles/cypher/loader.ts';
import { neo4jUri } from '../oracles/cypher/server/acquire.ts';
import { readResultsFile } from '../reports/results-file.ts';
import { withoutSuiteData } from '../testing/child-env.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const STRATEGIES = [
  'zero-shot',
  'generic',
  'error-only',
  'one-example',
  'three-example',
  'diagnostic',
  'cheatsheet',
  'hero-t',
  'react',
];

function bench(env: NodeJS.ProcessEnv, ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'witness-cypherbench-'));
  const childEnv: NodeJS.ProcessEnv = {
    ...withoutSuiteData(),
    WITNESS_OUT: join(dir, 'out'),
    WITNESS_STORE: join(dir, 'store'),
    WITNESS_RUN_ID: 'cypher-e2e',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    ...env,
  };
  delete childEnv.WITNESS_MODEL;
  const run = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'bench', 'suites/cypherbench.eval.ts', ...args],
    {
      cwd: root,
      env: childEnv,
      encoding: 'utf8',
      timeout: 240_000,
    },
  );
  return { run, dir };
}

/** Like bench, without blocking this process (its scripted model server must answer meanwhile). */
function benchInBackground(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ run: { status: number | null; stdout: string; stderr: string }; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'witness-cypherbench-'));
  const childEnv: NodeJS.ProcessEnv = {
    ...withoutSuiteData(),
    WITNESS_OUT: join(dir, 'out'),
    WITNESS_STORE: join(dir, 'store'),
    WITNESS_RUN_ID: 'cypher-e2e-http',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    ...env,
  };
  const child = spawn(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'bench', 'suites/cypherbench.eval.ts', ...args],
    { cwd: root, env: childEnv },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ run: { status, stdout, stderr }, dir });
    }),
  );
}

/** A trajectory in a line, for assertion messages: which episode, how it ended, and each turn's verdict error. */
function why(t: Trajectory): string {
  const turns = t.turns.map((turn) =>
    turn.verdict.pass
      ? 'pass'
      : `${turn.verdict.error?.kind ?? 'wrong'}${turn.verdict.error ? `: ${turn.verdict.error.message.slice(0, 200)}` : ''}`,
  );
  return `${t.taskId} · ${t.strategy}: ${t.outcome.status}${t.outcome.status === 'harness-error' ? ` (${JSON.stringify(t.outcome).slice(0, 300)})` : ''}; turns: ${turns.join(' | ')}`;
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
    const ready =
      /Witness: Neo4j ready at bolt:\/\/127\.0\.0\.1:\d+ via Java launcher \(Neo4j 5\.20 Community embedded, pid (\d+)/.exec(
        run.stderr,
      );
    expect(ready, run.stderr).not.toBeNull();
    expect(run.stderr).toMatch(/Witness: Neo4j stopped/);
    expect(alive(Number(ready![1]))).toBe(false);
    expect(run.stdout).toMatch(/cypherbench · sim \(privileged\)/);
    for (const strategy of STRATEGIES) expect(run.stdout).toMatch(new RegExp(`│ ${strategy} +│ +10 │`));

    const results = await readResultsFile(join(dir, 'out', 'results.json'));
    expect(results.trajectories).toHaveLength(10 * STRATEGIES.length);
    expect(
      results.trajectories.filter((t) => t.outcome.status === 'harness-error' || t.oracle.name !== 'cypher').map(why),
    ).toEqual([]);
    const row = (name: string) => results.summary.find((r) => r.strategy === name)!;
    expect(row('diagnostic').passFinal.value!).toBeGreaterThanOrEqual(row('generic').passFinal.value!);
    expect(row('diagnostic').pass1.value).toBe(row('zero-shot').pass1.value);
    const diagnosticTurns = results.trajectories.filter((t) => t.strategy === 'diagnostic').flatMap((t) => t.turns);
    expect(
      diagnosticTurns.some((t) =>
        /is missing from your result|which should not be there|should be/.test(t.feedback?.text ?? ''),
      ),
    ).toBe(true);
  }, 240_000);

  it('turns a model’s huge query and result bombs into failed verdicts with named kinds, over real HTTP, leaving the rest of the run and the graph as they were', async () => {
    const uri = await neo4jUri(SKYWAYS_GRAPH_FILE);
    const items = readCypherBenchItems(SKYWAYS_QUESTIONS_FILE) as CypherBenchItem[];
    const hostile: Record<string, { query: string; kind: string }> = {
      'skyways-001': { query: `RETURN '${'a'.repeat(1_000_000)}' AS s`, kind: 'too-complex' },
      'skyways-002': { query: 'RETURN range(1, 10000000) AS l', kind: 'too-large' },
      'skyways-003': { query: "RETURN reduce(s = '', i IN range(1, 30) | s + s + 'x') AS s", kind: 'too-large' },
      'skyways-004': { query: `RETURN ${'('.repeat(3_000)}1${')'.repeat(3_000)} AS x`, kind: 'too-complex' },
    };
    // The scripted model answers each question by its text: the hostile query, else the gold.
    const byQuestion = [...items].sort((a, b) => b.nl_question.length - a.nl_question.length);
    const server = await startTestModelServer((request) => {
      const messages = (request.body.messages ?? []) as unknown as ChatMessage[];
      const text = messages.map((m) => m.content).join('\n');
      const item = byQuestion.find((i) => text.includes(i.nl_question));
      const query = item ? (hostile[item.qid]?.query ?? item.gold_cypher) : 'RETURN 1';
      return { content: '```cypher\n' + query + '\n```' };
    });
    const driver = createDriver(uri);
    try {
      const before = await graphChecksum(driver);
      const { run, dir } = await benchInBackground(
        {
          NEO4J_URI: uri,
          WITNESS_MODEL: 'scripted-cypher',
          OPENAI_BASE_URL: server.baseURL,
          OPENAI_API_KEY: 'test-key',
          WITNESS_CACHE: 'off',
          WITNESS_TURNS: '2',
        },
        '-t',
        'skyways-00[1-6] · (zero-shot|error-only|diagnostic)$',
      );
      expect(run.status, `${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`).toBe(0);
      const results = await readResultsFile(join(dir, 'out', 'results.json'));
      expect(results.trajectories).toHaveLength(6 * 3);
      expect(results.trajectories.filter((t) => t.outcome.status === 'harness-error').map(why)).toEqual([]);
      for (const t of results.trajectories) {
        const expected = hostile[t.taskId];
        if (!expected) {
          expect(t.outcome.status, why(t)).toBe('solved');
          continue;
        }
        expect(t.outcome.status, why(t)).toBe('unsolved');
        expect(
          t.turns.map((turn) => turn.verdict.error?.kind),
          why(t),
        ).toEqual(t.strategy === 'zero-shot' ? [expected.kind] : [expected.kind, expected.kind]);
      }
      const feedback =
        results.trajectories.find((t) => t.taskId === 'skyways-002' && t.strategy === 'diagnostic')?.turns[0]?.feedback
          ?.text ?? '';
      expect(feedback).toMatch(/^Your query's result is too large: the result is larger than 16,777,216 bytes/);
      expect(server.requests.length).toBeGreaterThanOrEqual(6 * 3);
      expect(await graphChecksum(driver)).toEqual(before);
    } finally {
      await driver.close();
      await server.close();
    }
  }, 300_000);

  it('is reported as not run, with the reason, when neither Java nor Docker is available', () => {
    const { run } = bench({
      NEO4J_URI: '',
      WITNESS_JAVA: '/nonexistent/java',
      DOCKER_HOST: 'unix:///nonexistent/docker.sock',
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output).toMatch(
      /cypherbench: not run\.\nNeo4j 5\.20 is not available, so the Cypher oracle cannot run\. Tried:/,
    );
    expect(output).toMatch(/1\. NEO4J_URI: not set/);
    expect(output).toMatch(
      /2\. Docker \(dockerode, image neo4j:5\.20\.0-community\): no Docker engine reachable at unix:\/\/\/nonexistent\/docker\.sock/,
    );
    expect(output).toMatch(/3\. Java launcher \(neo4j\/, Neo4j 5\.20 jars from Maven Central\): no Java found/);
    expect(output).toMatch(/↓ .*not run: Neo4j 5\.20 is not available|1 skipped/);
  }, 120_000);
});
