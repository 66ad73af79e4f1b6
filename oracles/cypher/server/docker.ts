/**
 * Starts Neo4j 5.20 in Docker through dockerode (image `neo4j:5.20.0-community`, the image
 * CypherBench builds on) when a Docker engine is reachable: auth off, Bolt published on a free
 * loopback port, a modest heap, removed when stopped.
 */
import Docker from 'dockerode';
import { waitForBolt } from '../driver.ts';
import type { Neo4jServer } from './server.ts';

const NEO4J_IMAGE = 'neo4j:5.20.0-community';

export interface DockerOptions {
  /** The engine's address shown in messages (the configured `neo4j.dockerHost`, DOCKER_HOST). */
  engineAddress?: string;
  /** A dockerode client; default: from DOCKER_HOST, else /var/run/docker.sock. */
  docker?: Docker;
  heapMb?: number;
  /** Wait for the engine's ping (default 3 s). */
  pingTimeoutMs?: number;
  /** Wait for Bolt after the container starts (default 180 s). */
  startupTimeoutMs?: number;
  log?: (line: string) => void;
}

function engineAddress(options: DockerOptions): string {
  return options.engineAddress ?? '/var/run/docker.sock';
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts a Neo4j container; rejects with the reason when the engine is unreachable or the container fails. */
export async function startDocker(options: DockerOptions = {}): Promise<Neo4jServer> {
  const log = options.log ?? (() => {});
  const docker = options.docker ?? new Docker();
  try {
    await withTimeout(docker.ping(), options.pingTimeoutMs ?? 3000, 'ping');
  } catch (error) {
    throw new Error(`no Docker engine reachable at ${engineAddress(options)} (${(error as Error).message})`);
  }
  const started = performance.now();
  try {
    await docker.getImage(NEO4J_IMAGE).inspect();
  } catch {
    log(`Witness: pulling ${NEO4J_IMAGE} (first use)...`);
    const stream = await docker.pull(NEO4J_IMAGE);
    await new Promise<void>((resolve, reject) =>
      docker.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve())),
    );
  }
  const heapMb = options.heapMb ?? 512;
  const container = await docker.createContainer({
    Image: NEO4J_IMAGE,
    Env: [
      'NEO4J_AUTH=none',
      `NEO4J_server_memory_heap_initial__size=${Math.min(heapMb, 256)}m`,
      `NEO4J_server_memory_heap_max__size=${heapMb}m`,
      'NEO4J_server_memory_pagecache_size=64m',
    ],
    ExposedPorts: { '7687/tcp': {} },
    Labels: { 'org.witness.role': 'cypher-oracle' },
    HostConfig: { AutoRemove: true, PortBindings: { '7687/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }] } },
  });
  const remove = async () => {
    await container.stop({ t: 10 }).catch(() => {});
    await container.remove({ force: true }).catch(() => {});
  };
  try {
    await container.start();
    const info = await container.inspect();
    const port = info.NetworkSettings.Ports['7687/tcp']?.[0]?.HostPort;
    if (!port) throw new Error('the container published no Bolt port');
    const uri = `bolt://127.0.0.1:${port}`;
    await waitForBolt(uri, options.startupTimeoutMs ?? 180_000, {});
    let stopping: Promise<void> | undefined;
    return {
      uri,
      way: 'docker',
      startupMs: performance.now() - started,
      describe: `Docker container ${container.id.slice(0, 12)} (${NEO4J_IMAGE})`,
      stop: () => (stopping ??= remove()),
    };
  } catch (error) {
    await remove();
    throw new Error(`the ${NEO4J_IMAGE} container did not become ready: ${(error as Error).message}`);
  }
}
