/**
 * Gets a Neo4j 5.20 for the Cypher oracle: `neo4j.uri` (NEO4J_URI) if set (a server the user runs;
 * never stopped by Witness), else Docker through dockerode when an engine is reachable, else the Java
 * launcher. `neo4j.way` (WITNESS_NEO4J=docker|launcher) restricts the automatic choice to one way.
 * When nothing works, Neo4jUnavailableError lists every way and why it failed.
 */
import type { Neo4jSettings } from '../../../core/config.ts';
import { waitForBolt } from '../driver.ts';
import { startDocker, type DockerOptions } from './docker.ts';
import { startLauncher, type LauncherOptions } from './launcher.ts';
import { Neo4jUnavailableError, type Neo4jServer, type WayFailure } from './server.ts';

export interface StartOptions {
  /** Server, credentials and launcher settings: the configured `neo4j` section. */
  neo4j: Neo4jSettings;
  launcher?: LauncherOptions;
  docker?: DockerOptions;
  /** How long NEO4J_URI may take to answer (default 10 s). */
  uriTimeoutMs?: number;
  /** Progress lines (fetching jars, pulling the image); default: stderr. */
  log?: (line: string) => void;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Starts (or connects to) Neo4j by the documented order of ways. Throws Neo4jUnavailableError. */
export async function startNeo4j(options: StartOptions): Promise<Neo4jServer> {
  const settings = options.neo4j;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const uri = settings.uri?.trim();
  if (uri) {
    try {
      await waitForBolt(uri, options.uriTimeoutMs ?? 10_000, settings);
    } catch (error) {
      const skipped = 'not tried, because NEO4J_URI is set';
      throw new Neo4jUnavailableError([
        { way: 'uri', reason: `NEO4J_URI=${uri} does not answer: ${message(error)}` },
        { way: 'docker', reason: skipped },
        { way: 'launcher', reason: skipped },
      ]);
    }
    return { uri, way: 'uri', startupMs: 0, describe: `the server at NEO4J_URI=${uri}`, stop: async () => {} };
  }

  const only = settings.way;
  const failures: WayFailure[] = [{ way: 'uri', reason: 'not set' }];
  if (only === 'launcher') failures.push({ way: 'docker', reason: 'skipped (WITNESS_NEO4J=launcher)' });
  else {
    try {
      return await startDocker({
        log,
        ...(settings.dockerHost ? { engineAddress: settings.dockerHost } : {}),
        ...options.docker,
      });
    } catch (error) {
      failures.push({ way: 'docker', reason: message(error) });
    }
  }
  if (only === 'docker') failures.push({ way: 'launcher', reason: 'skipped (WITNESS_NEO4J=docker)' });
  else {
    try {
      return await startLauncher({
        log,
        ...(settings.java ? { java: settings.java } : {}),
        ...(settings.heapMb ? { heapMb: settings.heapMb } : {}),
        ...options.launcher,
      });
    } catch (error) {
      failures.push({ way: 'launcher', reason: message(error) });
    }
  }
  throw new Neo4jUnavailableError(failures);
}
