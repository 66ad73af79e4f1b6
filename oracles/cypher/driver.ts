/**
 * neo4j-driver connections. Auth: none (Witness's own servers run with auth off), or basic auth
 * from `neo4j.username` / `neo4j.password` (NEO4J_USERNAME / NEO4J_PASSWORD) when both are set (for a
 * server given by `neo4j.uri`).
 * Integers stay lossless in the driver and are converted by values.ts (numbers where safe).
 */
import neo4j, { type AuthToken, type Driver } from 'neo4j-driver';
import type { Neo4jSettings } from '../../core/config.ts';

/** The credentials part of the Neo4j settings. */
export type Neo4jAuth = Pick<Neo4jSettings, 'username' | 'password'>;

// auth.none() exists at runtime but is missing from neo4j-driver's own index.d.ts.
const noAuth = (): AuthToken => (neo4j.auth as unknown as { none(): AuthToken }).none();

/**
 * Where each driver made here connects, so that whether its server still answers can be asked on a
 * connection of its own: the driver's pool may be full of slow queries, and a question queued behind
 * them is not an answer from the server.
 */
const endpoints = new WeakMap<Driver, { uri: string; credentials: Neo4jAuth }>();

/** A driver for `uri`, with the given credentials (none: Witness's own servers run with auth off). */
export function createDriver(uri: string, credentials: Neo4jAuth = {}): Driver {
  const auth =
    credentials.username && credentials.password
      ? neo4j.auth.basic(credentials.username, credentials.password)
      : noAuth();
  const driver = neo4j.driver(uri, auth, {
    userAgent: 'witness-cypher-oracle',
    maxConnectionPoolSize: 32,
    connectionAcquisitionTimeout: 120_000,
    connectionTimeout: 15_000,
    notificationFilter: { minimumSeverityLevel: 'OFF' },
  });
  endpoints.set(driver, { uri, credentials });
  return driver;
}

/**
 * True when the server behind `driver` accepts a new connection and answers within `timeoutMs`
 * (tried every half second: a heap a neighbour fills can refuse one handshake). The question goes
 * on a connection of its own, never through the driver's pool, which slow queries may hold.
 */
export async function serverAnswersWithin(driver: Driver, timeoutMs: number): Promise<boolean> {
  const endpoint = endpoints.get(driver);
  if (!endpoint)
    return driver.verifyConnectivity().then(
      () => true,
      () => false,
    );
  return waitForBolt(endpoint.uri, timeoutMs, endpoint.credentials).then(
    () => true,
    () => false,
  );
}

/** Resolves when Bolt answers at `uri` (retrying until `timeoutMs`), else rejects with the driver's last error. */
export async function waitForBolt(uri: string, timeoutMs: number, credentials: Neo4jAuth): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    const driver = createDriver(uri, credentials);
    try {
      await driver.verifyConnectivity();
      return;
    } catch (error) {
      last = error;
    } finally {
      await driver.close();
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(
    `no Bolt answer at ${uri} within ${Math.round(timeoutMs / 1000)} s: ${last instanceof Error ? last.message : String(last)}`,
  );
}

/** The Bolt protocol version and server agent the driver negotiated (e.g. 5.4, Neo4j/5.20.0). */
export async function serverInfo(driver: Driver): Promise<{ agent: string; protocol: string }> {
  const info = await driver.getServerInfo();
  const version = info.protocolVersion as unknown as { major: number; minor: number } | number | undefined;
  const protocol = typeof version === 'object' && version ? `${version.major}.${version.minor}` : String(version);
  return { agent: info.agent ?? 'unknown', protocol };
}
