/** Started by server.test.ts in a child vitest: asks the run's Neo4j for a query that never ends, says so, and waits. */
import neo4j from 'neo4j-driver';
import { it } from 'vitest';
import { createDriver } from '../../../oracles/cypher/driver.ts';
import { acquireNeo4j } from '../../../oracles/cypher/server/acquire.ts';

it('runs a query that never ends', async () => {
  const neo = await acquireNeo4j();
  if (!neo.ok) throw new Error(neo.reason);
  const driver = createDriver(neo.uri);
  const session = driver.session({ defaultAccessMode: neo4j.session.READ });
  // No timeout: only the JVM's end ends it.
  const running = session
    .run('UNWIND range(1, 1000000) AS x UNWIND range(1, 1000000) AS y RETURN count(*)')
    .catch(() => undefined);
  await new Promise((r) => setTimeout(r, 1500));
  process.stdout.write(`RUNAWAY jvm=${neo.pid} worker=${process.pid}\n`);
  await running;
  await new Promise(() => {});
});
