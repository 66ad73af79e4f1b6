/**
 * The hostile corpus on the real Neo4j 5.20: every answer gets a failed verdict with a named error
 * kind within a bounded time; afterwards the graph is unchanged, no query of the corpus is still
 * running on the server (runaway computations were reaped), the server answers, and this process
 * stayed under 1 GB.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Oracle } from '../../../core/oracle.ts';
import type { Verdict } from '../../../core/types.ts';
import { graphChecksum, type GraphChecksum } from '../../../testing/cypher/checksum.ts';
import { createDriver } from '../driver.ts';
import { SKYWAYS_GRAPH_FILE } from '../fixture-paths.ts';
import { cypherOracle, type CypherPrepared } from '../oracle.ts';
import { acquireNeo4j } from '../server/acquire.ts';
import { readSimpleKG } from '../simplekg.ts';
import { HOSTILE_CORPUS, type HostileAnswer } from './corpus.ts';

const kg = readSimpleKG(SKYWAYS_GRAPH_FILE);
/** Slow answers get a short timeout; the others one long enough for a busy machine. */
const SLOW_TIMEOUT_MS = 3_000;
const TIMEOUT_MS = 15_000;
let driver: Driver;
let oracle: Oracle<CypherPrepared>;
let slowOracle: Oracle<CypherPrepared>;
let prepared: CypherPrepared;
let before: GraphChecksum;
let jvmPid: number | undefined;
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

beforeAll(async () => {
  const neo = await acquireNeo4j(SKYWAYS_GRAPH_FILE);
  if (!neo.ok) throw new Error(neo.reason);
  driver = createDriver(neo.uri);
  jvmPid = neo.pid;
  oracle = cypherOracle({ uri: neo.uri, graphs: [kg], timeoutMs: TIMEOUT_MS });
  slowOracle = cypherOracle({ uri: neo.uri, graphs: [kg], timeoutMs: SLOW_TIMEOUT_MS });
  const task = {
    id: 'airlines',
    benchmark: 'hostile',
    description: 'Name every airline.',
    gold: 'MATCH (n:Airline) RETURN n.name',
    context: { graph: 'skyways' },
  };
  prepared = await oracle.prepare(task);
  before = await graphChecksum(driver);
}, 600_000);

afterAll(async () => {
  clearInterval(sampler);
  await oracle?.dispose?.();
  await slowOracle?.dispose?.();
  await driver?.close();
});

async function expectNamedFailure(answer: HostileAnswer, on: Oracle<CypherPrepared>, maxMs: number): Promise<void> {
  const started = performance.now();
  const v: Verdict = await on.check(prepared, { source: answer.query, extraction: 'code-block' });
  const ms = performance.now() - started;
  expect(v.pass).toBe(false);
  expect(answer.kinds, `${answer.name}: ${JSON.stringify(v.error)}`).toContain(v.error?.kind);
  expect(v.error!.message.length).toBeGreaterThan(0);
  expect(v.error!.message.length).toBeLessThanOrEqual(1_201);
  expect(v.cases.every((c) => !c.pass)).toBe(true);
  expect(on.render.error(v.error!).length).toBeGreaterThan(v.error!.message.length);
  expect(ms, answer.name).toBeLessThan(maxMs);
}

describe('hostile Cypher answers', () => {
  // Side by side too (vitest runs five at a time): a bomb must not spoil its neighbours' verdicts.
  for (const answer of HOSTILE_CORPUS.filter((a) => !a.slow)) {
    it.concurrent(
      `${answer.name}: ${answer.kinds.join(' or ')}`,
      () => expectNamedFailure(answer, oracle, 60_000),
      90_000,
    );
  }

  describe('slow ones, side by side', () => {
    // The server-side timeout, the client's grace, the reaper's delay and a loaded machine.
    for (const answer of HOSTILE_CORPUS.filter((a) => a.slow)) {
      it.concurrent(
        `${answer.name}: ${answer.kinds.join(' or ')}`,
        () => expectNamedFailure(answer, slowOracle, 45_000),
        90_000,
      );
    }
  });

  it('left the graph unchanged', async () => {
    expect(await graphChecksum(driver)).toEqual(before);
  });

  it('left nothing running on the server, which still answers', async () => {
    // Other test files share the server: look for the corpus's own queries (or their EXPLAIN) only.
    const ours = new Set(HOSTILE_CORPUS.flatMap((a) => [a.query, `EXPLAIN ${a.query.trim()}`]));
    const running = async () => {
      const result = await driver.executeQuery(
        'SHOW TRANSACTIONS YIELD currentQuery AS running RETURN running',
        {},
        { routing: 'READ' },
      );
      return result.records.map((r) => String(r.get('running'))).filter((q) => ours.has(q));
    };
    const deadline = Date.now() + 30_000;
    let left = await running();
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      left = await running();
    }
    expect(
      left.map((q) => q.slice(0, 80)),
      left.map((q) => q.slice(0, 80)).join(' | '),
    ).toEqual([]);
    // The same server process (when this run started one), answering.
    if (jvmPid) expect(() => process.kill(jvmPid as number, 0)).not.toThrow();
    const session = driver.session({ defaultAccessMode: neo4j.session.READ });
    try {
      const one = await session.run('MATCH (n:Airline) RETURN count(n) AS n');
      expect(Number(one.records[0]?.get('n'))).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
    expect((await oracle.check(prepared, { source: `${prepared.task.gold} `, extraction: 'code-block' })).pass).toBe(
      true,
    );
  }, 60_000);

  it('kept this process under 1 GB', () => {
    expect(peakRss / 2 ** 30).toBeLessThan(1);
  });
});
