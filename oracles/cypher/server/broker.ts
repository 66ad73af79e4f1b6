/**
 * One Neo4j per graph per vitest run, started only when a test file asks for it. The vitest global
 * setup runs this small loopback HTTP broker in the main process; test files (in worker processes)
 * POST to it. The first request starts Neo4j (startNeo4j) and later ones share it; a request for a
 * graph loads that SimpleKG graph once into a server of its own (Neo4j Community holds one graph
 * per server, as CypherBench runs one container per graph): the first server takes the first
 * graph, every other graph (recognized by its file's SHA-256) gets another server. A NEO4J_URI
 * server holds one graph only. Failures are remembered, so every caller gets the same clear
 * reason. `close()` stops the servers it started.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Neo4jSettings } from '../../../core/config.ts';
import type { SimpleKG } from '../simplekg.ts';
import type { KeptStore } from './graph-store.ts';
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
  /** The first server, once one was requested and started. */
  server(): Neo4jServer | undefined;
  close(): Promise<void>;
}

export interface BrokerOptions extends Omit<StartOptions, 'neo4j'> {
  /** The Neo4j settings, asked for once, on the first request (most runs never ask for Neo4j). */
  neo4j: () => Neo4jSettings;
  /** How servers are obtained (default: startNeo4j). */
  start?: (options: StartOptions) => Promise<Neo4jServer>;
}

/** A server of this run and the graph it holds once one was asked for. */
interface Served {
  server: Promise<Neo4jServer>;
  /** The kept store it runs on (known before `server` resolves). */
  store?: KeptStore;
  graph?: { path: string; hash: string; loaded: Promise<void> };
}

/** Starts the broker on a free loopback port. */
export async function startBroker(options: BrokerOptions): Promise<Broker> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const start = options.start ?? (async (o: StartOptions) => (await import('./start.ts')).startNeo4j(o));
  const token = randomBytes(12).toString('hex');
  const served: Served[] = [];
  const started: Neo4jServer[] = [];
  const failed = new Map<string, unknown>();

  let settings: Neo4jSettings | undefined;
  const configured = () => (settings ??= options.neo4j());

  /** A new server; one for `kg` runs on the graph's kept store when graphs are kept. */
  const startServer = (kg?: SimpleKG): Served => {
    const entry: Served = { server: Promise.resolve(undefined as never) };
    entry.server = (async () => {
      log('Witness: starting Neo4j 5.20 for the Cypher tests...');
      const neo4j = configured();
      const server = kg
        ? await (async () => {
            const { startForGraph } = await import('./kept-start.ts');
            const got = await startForGraph(start, { ...options, neo4j, log }, kg);
            if (got.store) entry.store = got.store;
            return got.server;
          })()
        : await start({ ...options, neo4j, log });
      started.push(server);
      log(
        `Witness: Neo4j ready at ${server.uri} via ${server.describe}${server.startupMs ? ` in ${(server.startupMs / 1000).toFixed(1)} s` : ''}`,
      );
      return server;
    })();
    served.push(entry);
    return entry;
  };
  const firstServer = () => (served[0] ?? startServer()).server;

  const load = async (server: Neo4jServer, kg: SimpleKG, store?: KeptStore): Promise<void> => {
    const { createDriver } = await import('../driver.ts');
    const { ensureGraph } = await import('../load-graph.ts');
    const driver = createDriver(server.uri, configured());
    try {
      const outcome = await ensureGraph(driver, kg, {
        replace: server.way !== 'uri',
        ...(store ? { beforeLoad: () => store.markLoading() } : {}),
      });
      store?.markComplete();
      const where = store ? ` ${outcome === 'reused' ? 'from' : 'into'} the kept store ${store.dir}` : '';
      log(
        `Witness: graph ${kg.schema.name} ${outcome} (${kg.entities.length} entities, ${kg.relations.length} relations)${where}`,
      );
    } finally {
      await driver.close();
    }
  };

  /** The server holding the graph at `path` (loading it, and starting a server for it, when needed). */
  const serverFor = async (path: string): Promise<Neo4jServer> => {
    const { readSimpleKG, simpleKGSourceHash } = await import('../simplekg.ts');
    const kg = readSimpleKG(path);
    const hash = simpleKGSourceHash(kg);
    if (failed.has(hash)) throw failed.get(hash);
    // A NEO4J_URI server cannot be joined by a second one: find out first whether that is the case.
    const needsAnother = served.length > 0 && !served.some((s) => !s.graph || s.graph.hash === hash);
    const first = needsAnother ? await (served[0] as Served).server : undefined;
    // From here to the assignment nothing awaits, so concurrent requests agree on the servers.
    const holding = served.find((s) => s.graph?.hash === hash);
    if (holding?.graph) {
      await holding.graph.loaded;
      return holding.server;
    }
    let entry = served.find((s) => !s.graph);
    if (!entry) {
      if (first?.way === 'uri')
        throw new Error(
          `graph ${path} was requested, but ${first.describe} already holds ${served[0]?.graph?.path}: ` +
            'a Neo4j server holds one graph; unset NEO4J_URI so Witness starts one server per graph, or run one graph at a time',
        );
      entry = startServer(kg);
    }
    const chosen = entry;
    const loaded = chosen.server.then((server) => load(server, kg, chosen.store));
    chosen.graph = { path, hash, loaded };
    try {
      await loaded;
    } catch (error) {
      // The server stays free for another graph (not one on this graph's kept store); this graph keeps its reason.
      if (chosen.graph?.hash === hash && !chosen.store) delete chosen.graph;
      failed.set(hash, error);
      throw error;
    }
    return chosen.server;
  };

  const handle = async (request: IncomingMessage): Promise<BrokerReply> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { graph?: unknown }) : {};
    try {
      const server = typeof body.graph === 'string' ? await serverFor(resolve(body.graph)) : await firstServer();
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
    server: () => started[0],
    async close() {
      await new Promise<void>((done) => http.close(() => done()));
      http.closeAllConnections();
      const servers = await Promise.all(served.map((s) => s.server.catch(() => undefined)));
      for (const server of servers) {
        if (server && server.way !== 'uri') {
          await server.stop();
          log(`Witness: Neo4j stopped (${server.describe})`);
        }
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
