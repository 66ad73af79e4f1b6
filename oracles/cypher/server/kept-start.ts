/**
 * Starts the Neo4j for one graph on its kept store (graph-store.ts) when the settings allow: the
 * launcher way, `neo4j.keepGraphs` on and a `neo4j.graphStore`, no NEO4J_URI. Otherwise, and when
 * another run holds the store, a temporary database as before. A kept store Neo4j refuses to open
 * (damaged; not when Java or the jars are missing) is wiped and started once more empty; one locked
 * by another Neo4j falls back to a temporary database. The server's `stop()` gives the store's lock
 * back.
 */
import { rmSync } from 'node:fs';
import type { Neo4jSettings } from '../../../core/config.ts';
import { LOADER_VERSION } from '../load-graph.ts';
import { simpleKGSourceHash, type SimpleKG } from '../simplekg.ts';
import { claimGraphStore, pruneGraphStores, type KeptStore } from './graph-store.ts';
import { launcherNeo4jVersion } from './jars.ts';
import type { Neo4jServer } from './server.ts';
import type { StartOptions } from './start.ts';

export interface GraphServer {
  server: Neo4jServer;
  /** The kept store the server runs on, when it does. */
  store?: KeptStore;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Neo4j's own store lock (another JVM has the home open). */
const STORE_LOCKED = /locked by another process|store_lock|FileLock/i;
/** The launcher ran but Neo4j refused the home (not: no Java, no jars, a timeout). */
const NEO4J_REFUSED = /Neo4j failed to start/;

/** Whether graphs are kept with these settings, and where. */
export function keptStoreRoot(settings: Neo4jSettings): string | undefined {
  if (settings.uri || settings.way === 'docker' || settings.keepGraphs === false) return undefined;
  return settings.graphStore;
}

/** Starts a server for `kg`, on its kept store when graphs are kept. */
export async function startForGraph(
  start: (options: StartOptions) => Promise<Neo4jServer>,
  options: StartOptions & { neo4j: Neo4jSettings; log: (line: string) => void },
  kg: SimpleKG,
): Promise<GraphServer> {
  const { log } = options;
  const root = keptStoreRoot(options.neo4j);
  if (!root) return { server: await start(options) };
  const key = {
    graph: kg.schema.name,
    sourceHash: simpleKGSourceHash(kg),
    loaderVersion: LOADER_VERSION,
    neo4jVersion: launcherNeo4jVersion(),
  };
  const claim = claimGraphStore(root, key, log);
  if (!claim.ok) {
    log(`Witness: ${claim.reason}; graph ${kg.schema.name} goes into a temporary database for this run`);
    return { server: await start(options) };
  }
  const store = claim.store;
  pruneGraphStores(root, options.neo4j.keptGraphs ?? 8, log);
  const onStore = () => start({ ...options, launcher: { ...options.launcher, home: store.home } });
  let server: Neo4jServer;
  try {
    server = await onStore().catch(async (error: unknown) => {
      const why = message(error);
      if (STORE_LOCKED.test(why) || !NEO4J_REFUSED.test(why) || !store.complete) throw error;
      log(`Witness: Neo4j did not open the kept store ${store.dir} (${message(error)}); wiping it and loading again`);
      store.markLoading();
      rmSync(store.home, { recursive: true, force: true });
      return onStore();
    });
  } catch (error) {
    store.release();
    if (!STORE_LOCKED.test(message(error))) throw error;
    log(
      `Witness: the kept store ${store.dir} is open in another Neo4j; graph ${kg.schema.name} goes into a temporary database`,
    );
    return { server: await start(options) };
  }
  if (server.way !== 'launcher') {
    store.release();
    return { server };
  }
  const stop = server.stop;
  const stopAndRelease = async () => {
    await stop();
    store.release();
  };
  return { server: { ...server, stop: stopAndRelease }, store };
}
