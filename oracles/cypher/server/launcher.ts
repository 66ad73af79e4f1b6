/**
 * Starts Neo4j 5.20 through the Java launcher (`neo4j/`): a JVM with a modest heap running Neo4j
 * Community embedded, Bolt on a free loopback port, auth off. Waits for its ready line with a
 * timeout; `stop()` closes its stdin (the launcher shuts Neo4j down cleanly), then escalates to
 * SIGTERM and SIGKILL. If this process dies first, the launcher sees its stdin close and stops too.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureLauncherBuilt, LAUNCHER_MAIN_CLASS, launcherClassPath } from './jars.ts';
import type { Neo4jServer } from './server.ts';

export interface LauncherOptions {
  /** The java executable; default: $WITNESS_JAVA, else $JAVA_HOME/bin/java, else `java` on PATH. */
  java?: string;
  /** Maximum heap in MB (default $WITNESS_NEO4J_HEAP_MB or 512). */
  heapMb?: number;
  /** Page cache in MB (default 64: the fixture graphs are small). */
  pageCacheMb?: number;
  /** Memory one transaction may use before Neo4j fails it (default a quarter of the heap: 128 MB of 512). */
  txMemoryMb?: number;
  /**
   * Memory all transactions together may use (default: no such limit). A shared pool fails whichever
   * query asks last when it is full, an innocent one as readily as the one filling it; without it a
   * query fails only for its own memory (txMemoryMb), and the launcher's reaper keeps the heap from filling.
   */
  txTotalMemoryMb?: number;
  /** A Neo4j home to keep (a kept graph store, see graph-store.ts); default: a temporary one, deleted on stop. */
  home?: string;
  /** How long to wait for the ready line (default 180 s; the jar fetch has its own). */
  startupTimeoutMs?: number;
  log?: (line: string) => void;
}

/** Reaper lines (a query stopped, and why) passed on to the log per server. */
const MAX_REAPER_LINES = 200;

/** Flags Neo4j 5 needs on Java 17+ (from its own neo4j.conf). */
const JVM_FLAGS = [
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/java.io=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '--add-opens=java.base/java.util.concurrent=ALL-UNNAMED',
  '--enable-native-access=ALL-UNNAMED',
  '-Dio.netty.tryReflectionSetAccessible=true',
];

/** The java executable: the one given (the configured `neo4j.java`: WITNESS_JAVA, else $JAVA_HOME/bin/java), else `java` on the PATH. */
export function javaExecutable(options: { java?: string } = {}): string {
  return options.java ?? 'java';
}

/** Checks that `java` runs and is version 17 or newer; returns the major version or throws why not. */
function checkJava(java: string): number {
  const run = spawnSync(java, ['-version'], { encoding: 'utf8', timeout: 30_000 });
  if (run.error) {
    const code = (run.error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `no Java found (${java} does not exist; install Java 17+ or set JAVA_HOME / WITNESS_JAVA)`
        : `${java} -version failed: ${run.error.message}`,
    );
  }
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${run.stderr}${run.stdout}`);
  if (!match) throw new Error(`${java} -version printed no version (exit ${run.status})`);
  const major = match[1] === '1' ? Number(match[2]) : Number(match[1]);
  if (major < 17) throw new Error(`${java} is Java ${major}; Neo4j 5.20 needs Java 17 or newer`);
  return major;
}

/** Starts the launcher and resolves once Bolt accepts connections. Rejects with the reason otherwise. */
export async function startLauncher(options: LauncherOptions = {}): Promise<Neo4jServer> {
  const log = options.log ?? (() => {});
  const java = javaExecutable(options);
  checkJava(java);
  await ensureLauncherBuilt(log);
  const heapMb = options.heapMb ?? 512;
  const kept = options.home !== undefined;
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'witness-neo4j-'));
  if (kept) mkdirSync(home, { recursive: true });
  const args = [
    `-Xms${Math.min(heapMb, 256)}m`,
    `-Xmx${heapMb}m`,
    '-XX:+UseSerialGC',
    // No -XX:+ExitOnOutOfMemoryError: a candidate building a huge value (a string doubled 30 times,
    // a list of 10^7 elements) must fail with Neo4j's OutOfMemoryError, not take the server down.
    ...JVM_FLAGS,
    '-cp',
    launcherClassPath(),
    LAUNCHER_MAIN_CLASS,
    `--home=${home}`,
    '--port=0',
    `--pagecache-mb=${options.pageCacheMb ?? 64}`,
    `--tx-memory-mb=${options.txMemoryMb ?? Math.max(64, Math.floor(heapMb / 4))}`,
    ...(options.txTotalMemoryMb ? [`--tx-total-memory-mb=${options.txTotalMemoryMb}`] : []),
    ...(kept ? [] : ['--delete-home']),
  ];
  const started = performance.now();
  const child = spawn(java, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const stderrTail: string[] = [];
  let reaperLines = 0;
  child.stderr.on('data', (chunk: Buffer) => {
    const lines = chunk
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim());
    stderrTail.push(...lines);
    stderrTail.splice(0, Math.max(0, stderrTail.length - 30));
    // What the reaper stopped, and why, is worth a line each (up to a point).
    for (const line of lines.filter((l) => l.startsWith('reaper: '))) {
      if (reaperLines++ < MAX_REAPER_LINES) log(`Witness: Neo4j ${line}`);
      else if (reaperLines === MAX_REAPER_LINES + 1)
        log(`Witness: Neo4j reaper: more than ${MAX_REAPER_LINES} lines; the rest are not shown`);
    }
  });
  // Swallow EPIPE on stdin: a JVM that died early must not crash this process.
  child.stdin.on('error', () => {});

  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanup = () => {
    if (!kept) rmSync(home, { recursive: true, force: true });
  };
  const timeoutMs = options.startupTimeoutMs ?? 180_000;

  const uri = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the launcher did not report ready within ${Math.round(timeoutMs / 1000)} s${tail()}`));
    }, timeoutMs);
    const tail = () => (stderrTail.length ? ` (last output: ${stderrTail.slice(-5).join(' | ')})` : '');
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        const ready = /^NEO4J_READY (bolt:\/\/\S+)/.exec(line);
        if (ready) {
          clearTimeout(timer);
          resolve(ready[1] as string);
        } else if (line.startsWith('NEO4J_FAILED')) {
          clearTimeout(timer);
          reject(new Error(`Neo4j failed to start: ${line.slice('NEO4J_FAILED'.length).trim()}`));
        }
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start ${java}: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `the launcher exited before it was ready (${signal ? `signal ${signal}` : `exit code ${code}`})${tail()}`,
        ),
      );
    });
  }).catch(async (error: unknown) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    cleanup();
    throw error;
  });
  const startupMs = performance.now() - started;

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        if (!(await settlesWithin(exited, 30_000))) {
          child.kill('SIGTERM');
          if (!(await settlesWithin(exited, 15_000))) {
            child.kill('SIGKILL');
            await exited;
          }
        }
      }
      cleanup();
    })());

  return {
    uri,
    way: 'launcher',
    pid: child.pid,
    startupMs,
    stop,
    describe: `Java launcher (Neo4j 5.20 Community embedded, pid ${child.pid}, heap ${heapMb} MB${kept ? `, home ${home}` : ''})`,
  };
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const done = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return done;
}
