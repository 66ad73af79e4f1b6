/**
 * One Neo4j per vitest run, started only when a test file asks for it. The vitest global setup
 * runs this small loopback HTTP broker in the main process; test files (in worker processes) POST
 * to it, and the first request starts Neo4j (startNeo4j) while later ones share it. It also loads
 * the requested SimpleKG graph once — one graph per server, so concurrent test files agree on the
 * data. Failures are remembered, so every caller gets the same clear reason. `close()` stops the
 * server it started.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Neo4jServer } from './server.ts';
import type { StartOptions } from './start.ts';

// The driver, dockerode and the loader are imported on the first request only: every vitest run
// starts this broker, and most never ask for Neo4j.

export interface BrokerReply {
  ok: boolean;
  uri?: string;
  way?: string;
  pid?: number;
  reason?: string;
}

export interface Broker {
  /** POST `{ graph?: path }` here. */
  url: string;
  /** The server, once one was requested and started. */
  server(): Neo4jServer | undefined;
  close(): Promise<void>;
}

export interface BrokerOptions extends StartOptions {
  /** How servers are obtained (default: startNeo4j). */
  start?: (options: StartOptions) => Promise<Neo4jServer>;
}

/** Starts the broker on a free loopback port. */
export async function startBroker(options: BrokerOptions = {}): Promise<Broker> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const start = options.start ?? (async (o: StartOptions) => (await import('./start.ts')).startNeo4j(o));
  const token = randomBytes(12).toString('hex');
  let started: Neo4jServer | undefined;
  let serverPromise: Promise<Neo4jServer> | undefined;
  let loadedGraph: { path: string; eids: string; promise: Promise<void> } | undefined;

  const getServer = () =>
    (serverPromise ??= (async () => {
      log('Witness: starting Neo4j 5.20 for the Cypher tests...');
      const server = await start({ ...options, log });
      started = server;
      log(
        `Witness: Neo4j ready at ${server.uri} via ${server.describe}${server.startupMs ? ` in ${(server.startupMs / 1000).toFixed(1)} s` : ''}`,
      );
      return server;
    })());

  const ensureLoaded = async (server: Neo4jServer, path: string): Promise<void> => {
    if (loadedGraph?.path === path) return loadedGraph.promise;
    const { readSimpleKG } = await import('../simplekg.ts');
    const { createDriver } = await import('../driver.ts');
    const { ensureGraph, graphFingerprint } = await import('../load-graph.ts');
    if (loadedGraph?.path === path) return loadedGraph.promise;
    const kg = readSimpleKG(path);
    const eids = graphFingerprint(kg).eids;
    if (loadedGraph) {
      if (loadedGraph.eids !== eids) {
        throw new Error(
          `graph ${path} was requested, but this run's Neo4j already holds ${loadedGraph.path}; one graph per server`,
        );
      }
      return loadedGraph.promise;
    }
    const promise = (async () => {
      const driver = createDriver(server.uri);
      try {
        const outcome = await ensureGraph(driver, kg, { replace: server.way !== 'uri' });
        log(
          `Witness: graph ${kg.schema.name} ${outcome} (${kg.entities.length} entities, ${kg.relations.length} relations)`,
        );
      } finally {
        await driver.close();
      }
    })();
    loadedGraph = { path, eids, promise };
    return promise;
  };

  const handle = async (request: IncomingMessage): Promise<BrokerReply> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { graph?: unknown }) : {};
    try {
      const server = await getServer();
      if (typeof body.graph === 'string') await ensureLoaded(server, resolve(body.graph));
      return { ok: true, uri: server.uri, way: server.way, ...(server.pid ? { pid: server.pid } : {}) };
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
  };

  const http = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'POST' || request.url !== `/${token}/acquire`) {
      response.writeHead(404).end();
      return;
    }
    handle(request).then(
      (reply) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply)),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  http.requestTimeout = 0;
  await new Promise<void>((ready) => http.listen(0, '127.0.0.1', ready));
  const port = (http.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/${token}/acquire`,
    server: () => started,
    async close() {
      await new Promise<void>((done) => http.close(() => done()));
      http.closeAllConnections();
      const server = started ?? (await serverPromise?.catch(() => undefined));
      if (server && server.way !== 'uri') {
        await server.stop();
        log(`Witness: Neo4j stopped (${server.describe})`);
      }
    },
  };
}

/** Asks a broker for the server (and graph); never throws: failures come back as `{ ok: false, reason }`. */
export async function requestFromBroker(url: string, graph?: string): Promise<BrokerReply> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      body: JSON.stringify(graph ? { graph } : {}),
      signal: AbortSignal.timeout(20 * 60_000),
    });
    if (!response.ok)
      return { ok: false, reason: `the Neo4j broker answered HTTP ${response.status}: ${await response.text()}` };
    return (await response.json()) as BrokerReply;
  } catch (error) {
    return { ok: false, reason: `the Neo4j broker at ${url} did not answer: ${(error as Error).message}` };
  }
}
