/**
 * Whether the server still answers is asked on a connection of its own: with every connection of the
 * driver's pool held by open transactions (slow queries on a loaded server), the real Neo4j still
 * answers at once; a port where nothing listens does not.
 */
import { createServer } from 'node:net';
import neo4j, { type Session } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDriver, serverAnswersWithin } from './driver.ts';
import { serverAnswers } from './execute.ts';
import { SKYWAYS_GRAPH_FILE } from './fixture-paths.ts';
import { neo4jUri } from './server/acquire.ts';

/** createDriver's maxConnectionPoolSize. */
const POOL_SIZE = 32;
let uri = '';

beforeAll(async () => {
  uri = await neo4jUri(SKYWAYS_GRAPH_FILE);
}, 600_000);

/** A port on this machine where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('serverAnswers', () => {
  const drivers: ReturnType<typeof createDriver>[] = [];
  afterAll(async () => {
    await Promise.all(drivers.map((d) => d.close()));
  });

  it('says yes at once while every pooled connection is held by an open transaction', async () => {
    const driver = createDriver(uri);
    drivers.push(driver);
    const sessions: Session[] = [];
    try {
      for (let i = 0; i < POOL_SIZE; i++) {
        const session = driver.session({ defaultAccessMode: neo4j.session.READ });
        sessions.push(session);
        const tx = await session.beginTransaction();
        await tx.run('RETURN 1 AS one');
      }
      const started = performance.now();
      expect(await serverAnswers(driver)).toBe(true);
      // Through the pool the question would wait for a connection until the health check's deadline (15 s).
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await Promise.all(sessions.map((s) => s.close()));
    }
  }, 60_000);

  it('says no when nothing listens', async () => {
    const driver = createDriver(`bolt://127.0.0.1:${await closedPort()}`);
    drivers.push(driver);
    expect(await serverAnswersWithin(driver, 1_500)).toBe(false);
  }, 60_000);
});
