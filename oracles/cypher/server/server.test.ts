/** Getting a real Neo4j 5.20: the run's server, the error when none can be had, and no leftover JVM. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Docker from 'dockerode';
import neo4j from 'neo4j-driver';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDriver, serverInfo } from '../driver.ts';
import { acquireNeo4j, type Acquired } from './acquire.ts';
import { Neo4jUnavailableError } from './server.ts';
import { startNeo4j } from './start.ts';
import { loadConfig } from '../../../core/config.ts';

const noDocker = { docker: new Docker({ socketPath: '/nonexistent/witness-docker.sock' }), pingTimeoutMs: 1000 };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return condition();
}

describe('the run’s Neo4j', () => {
  let neo: Acquired;
  beforeAll(async () => {
    neo = await acquireNeo4j();
  }, 600_000);

  it('is Neo4j 5.20 and neo4j-driver 6.3 negotiates Bolt 5 with it', async () => {
    if (!neo.ok) throw new Error(neo.reason);
    const driver = createDriver(neo.uri);
    try {
      const info = await serverInfo(driver);
      expect(info.agent).toBe('Neo4j/5.20.0');
      expect(info.protocol).toMatch(/^5\.\d+$/);
      expect(Number(info.protocol.split('.')[1])).toBeGreaterThanOrEqual(4);
    } finally {
      await driver.close();
    }
  });
});

describe('startNeo4j', () => {
  it('says which of the three ways were tried and why each failed', async () => {
    const error = await startNeo4j({ neo4j: { java: '/nonexistent/java' }, docker: noDocker, log: () => {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Neo4jUnavailableError);
    const attempts = (error as Neo4jUnavailableError).attempts;
    expect(attempts.map((a) => a.way)).toEqual(['uri', 'docker', 'launcher']);
    expect(attempts[0]?.reason).toBe('not set');
    expect(attempts[1]?.reason).toMatch(/no Docker engine reachable/);
    expect(attempts[2]?.reason).toMatch(/no Java found \(\/nonexistent\/java does not exist/);
    expect((error as Error).message).toMatch(
      /^Neo4j 5\.20 is not available.*\n {2}1\. NEO4J_URI: not set\n {2}2\. Docker.*\n {2}3\. Java launcher/s,
    );
  });

  it('uses NEO4J_URI alone when it is set, and says so when it does not answer', async () => {
    const error = await startNeo4j({
      neo4j: { uri: 'bolt://127.0.0.1:1' },
      uriTimeoutMs: 1000,
      docker: noDocker,
      log: () => {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Neo4jUnavailableError);
    const attempts = (error as Neo4jUnavailableError).attempts;
    expect(attempts[0]?.reason).toMatch(/^NEO4J_URI=bolt:\/\/127\.0\.0\.1:1 does not answer/);
    expect(attempts[1]?.reason).toBe('not tried, because NEO4J_URI is set');
    expect(attempts[2]?.reason).toBe('not tried, because NEO4J_URI is set');
  }, 30_000);

  it('rejects an unknown WITNESS_NEO4J (when the config is read)', () => {
    expect(() => loadConfig(process.cwd(), { WITNESS_NEO4J: 'podman' })).toThrow(
      /WITNESS_NEO4J must be "docker" or "launcher"/,
    );
  });
});

describe('the Java launcher', () => {
  /** Starts a query that never ends (no timeout) on `uri`; returns the driver to close afterwards. */
  async function startRunaway(uri: string) {
    const driver = createDriver(uri);
    const session = driver.session({ defaultAccessMode: neo4j.session.READ });
    void session
      .run('UNWIND range(1, 1000000) AS x UNWIND range(1, 1000000) AS y RETURN count(*)')
      .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1500));
    return driver;
  }

  // Side by side: each starts its own JVM, and waiting for two JVM starts one after the other is slow.
  it.concurrent(
    'leaves no JVM behind when the process that started it is killed with SIGKILL during a runaway query',
    async () => {
      const serve = fileURLToPath(new URL('./serve.ts', import.meta.url));
      const child = spawn(process.execPath, ['--import', 'tsx', serve], {
        env: { ...process.env, NEO4J_URI: '', WITNESS_NEO4J: 'launcher' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const ready = await new Promise<{ uri: string; pid: number }>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /READY (\S+) (\d+)/.exec(out);
          if (m) resolve({ uri: m[1] as string, pid: Number(m[2]) });
        });
        child.on('exit', (code) => reject(new Error(`serve.ts exited (${code}) before ready: ${stderr}`)));
      });
      expect(alive(ready.pid)).toBe(true);
      const cmdline = readFileSync(`/proc/${ready.pid}/cmdline`, 'utf8').split('\0');
      const home = cmdline.find((a) => a.startsWith('--home='))?.slice('--home='.length);
      expect(home && existsSync(home)).toBe(true);
      const driver = await startRunaway(ready.uri);
      try {
        // SIGKILL leaves serve.ts no chance to stop Neo4j: the launcher must notice its parent is gone,
        // and not wait for the query that never ends.
        const killed = Date.now();
        child.kill('SIGKILL');
        expect(await waitUntil(() => !alive(ready.pid), 30_000)).toBe(true);
        expect(Date.now() - killed).toBeLessThan(20_000);
        expect(existsSync(home as string)).toBe(false);
      } finally {
        await driver.close();
      }
    },
    240_000,
  );

  it.concurrent(
    'leaves no JVM behind when a vitest run that started it through the global setup is killed with SIGKILL during a runaway query',
    async () => {
      const root = fileURLToPath(new URL('../../../', import.meta.url));
      const config = fileURLToPath(new URL('../../../testing/cypher/orphan/vitest.config.ts', import.meta.url));
      const vitest = spawn(process.execPath, [`${root}node_modules/vitest/vitest.mjs`, 'run', '--config', config], {
        cwd: root,
        env: { ...process.env, NEO4J_URI: '', WITNESS_NEO4J: 'launcher', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const started = await new Promise<{ jvm: number; worker: number }>((resolve, reject) => {
        const look = (c: Buffer) => {
          output += c.toString();
          const m = /RUNAWAY jvm=(\d+) worker=(\d+)/.exec(output);
          if (m) resolve({ jvm: Number(m[1]), worker: Number(m[2]) });
        };
        vitest.stdout.on('data', look);
        vitest.stderr.on('data', look);
        vitest.on('exit', (code) =>
          reject(new Error(`the child vitest exited (${code}) before its query started: ${output.slice(-2000)}`)),
        );
      });
      expect(alive(started.jvm)).toBe(true);
      const killed = Date.now();
      vitest.kill('SIGKILL');
      expect(await waitUntil(() => !alive(started.jvm), 30_000), output.slice(-2000)).toBe(true);
      expect(Date.now() - killed).toBeLessThan(20_000);
      expect(await waitUntil(() => !alive(started.worker), 30_000)).toBe(true);
    },
    240_000,
  );
});
