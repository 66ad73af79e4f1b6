/**
 * One connection to Neo4j for an oracle: the read-only guard, runs on the loaded graph (read
 * transactions, server-side timeout) and runs on graph variants (a write transaction that applies
 * the variant, runs the queries and is always rolled back), each cached by query so gold results
 * are computed once and repeated candidates (the sim's shared first answers, hardening re-checks)
 * cost nothing. Everything that reads results goes through the result-cap proxy (bolt/), so a
 * result over the byte cap stops on the wire; the oracle's own bookkeeping queries (fingerprints,
 * schema, hardening pools) use a direct connection.
 */
import type { Driver } from 'neo4j-driver';
import { BoundedCache } from '../../core/bounded-cache.ts';
import { proxyTarget, startResultCapProxy, type ResultCapProxy } from './bolt/result-cap.ts';
import { createDriver, type Neo4jAuth } from './driver.ts';
import { Neo4jUnreachableError } from './errors.ts';
import {
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_MAX_ROWS,
  MAX_VALUE_NESTING,
  runReadQuery,
  type Execution,
  type ResultLimits,
} from './execute.ts';
import { checkReadOnly, DEFAULT_MAX_QUERY_BYTES, queryTooLong, type GuardResult } from './guard.ts';
import { variantKey, type GraphVariant } from './perturb.ts';
import { executeOnVariant } from './variant-execution.ts';

export interface RunnerOptions {
  uri: string;
  /** Candidate timeout (server side), default 120 s as CypherBench. */
  timeoutMs: number;
  /** Gold timeout, default 600 s (the original runs gold without one). */
  goldTimeoutMs: number;
  maxRows?: number;
  /** Byte cap of a result (default 16 MiB: 8 bytes per value plus string bytes). */
  maxResultBytes?: number;
  /** Longest candidate query text run, in UTF-8 bytes (default 16 KiB); gold queries have no cap. */
  maxQueryBytes?: number;
  database?: string;
  auth?: Neo4jAuth;
}

/** Candidate results longer or bigger than this are not kept in the caches (memory: thousands of them over a run). */
const CACHED_ROWS = 10_000;
const CACHED_BYTES = 1024 * 1024;
const tooBigToKeep = (run: Execution) =>
  run.ok && (run.table.rows.length > CACHED_ROWS || (run.table.bytes ?? 0) > CACHED_BYTES);

export class CypherRunner {
  private connection: Driver | undefined;
  private capped: Promise<{ driver: Driver; proxy: ResultCapProxy | null }> | undefined;
  private readonly guards = new BoundedCache<string, Promise<GuardResult>>({ maxEntries: 5000 });
  private readonly results = new BoundedCache<string, Promise<Execution>>({ maxEntries: 2000 });
  private readonly variantResults = new BoundedCache<string, Promise<Execution>>({ maxEntries: 4000 });

  constructor(readonly options: RunnerOptions) {}

  get driver(): Driver {
    return (this.connection ??= createDriver(this.options.uri, this.options.auth));
  }

  private get limits(): ResultLimits {
    return {
      maxRows: this.options.maxRows ?? DEFAULT_MAX_ROWS,
      maxBytes: this.options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
    };
  }

  /** The driver whose results pass the byte cap on the wire (direct when the URI is encrypted: then only the client-side count applies). */
  private cappedDriver(): Promise<Driver> {
    this.capped ??= (async () => {
      const target = proxyTarget(this.options.uri);
      if (!target) return { driver: this.driver, proxy: null };
      const proxy = await startResultCapProxy(target, {
        maxBytes: this.limits.maxBytes,
        maxNesting: MAX_VALUE_NESTING,
      });
      return { driver: createDriver(proxy.uri, this.options.auth), proxy };
    })();
    return this.capped.then((c) => c.driver);
  }

  /** The read-only guard's answer for a query (cached); candidate texts over the length cap are refused unplanned. */
  guard(query: string, role: 'gold' | 'candidate' = 'candidate'): Promise<GuardResult> {
    const maxQueryBytes = this.options.maxQueryBytes ?? DEFAULT_MAX_QUERY_BYTES;
    if (role === 'candidate') {
      const tooLong = queryTooLong(query, maxQueryBytes);
      if (tooLong) return Promise.resolve({ ok: false, error: tooLong, ms: 0 });
    }
    const key = `${role}\u0000${query}`;
    let cached = this.guards.get(key);
    if (!cached) {
      // Planning is quick, but a cold or busy server planning many queries at once is not: give EXPLAIN
      // room, and a gold the gold's own patience (a slow plan is never the dataset's fault).
      const timeoutMs = Math.max(role === 'gold' ? this.options.goldTimeoutMs : this.options.timeoutMs, 60_000);
      cached = checkReadOnly(this.driver, query, { timeoutMs, database: this.options.database });
      this.guards.set(key, cached);
      // A lost connection is not an answer about the query: ask again next time.
      cached.catch(() => this.guards.delete(key));
    }
    return cached;
  }

  /** Runs a query on the loaded graph in a read transaction (cached; `gold` uses the gold timeout). */
  run(query: string, role: 'gold' | 'candidate'): Promise<Execution> {
    const key = `${role}\u0000${query}`;
    let cached = this.results.get(key);
    if (!cached) {
      const timeoutMs = role === 'gold' ? this.options.goldTimeoutMs : this.options.timeoutMs;
      const { maxRows, maxBytes } = this.limits;
      cached = this.cappedDriver().then((driver) =>
        runReadQuery(driver, query, { timeoutMs, maxRows, maxResultBytes: maxBytes, database: this.options.database }),
      );
      this.results.set(key, cached);
      cached.then(
        (run) => {
          if (role === 'candidate' && tooBigToKeep(run)) this.results.delete(key);
        },
        () => this.results.delete(key),
      );
    }
    return cached;
  }

  /** Runs queries on a variant of the graph: one transaction, rolled back whatever happens (cached per query). */
  async runOnVariant(
    variant: GraphVariant,
    queries: { query: string; role: 'gold' | 'candidate' }[],
  ): Promise<Execution[]> {
    const vkey = variantKey(variant);
    const keyOf = (q: { query: string; role: string }) => `${vkey}\u0000${q.role}\u0000${q.query}`;
    const missing = queries.filter((q) => !this.variantResults.get(keyOf(q)));
    if (missing.length > 0) {
      const timeoutMs = missing.some((q) => q.role === 'candidate')
        ? this.options.timeoutMs
        : this.options.goldTimeoutMs;
      const run = this.cappedDriver().then((driver) =>
        executeOnVariant(driver, variant, missing, { timeoutMs, limits: this.limits, database: this.options.database }),
      );
      const batch = run.catch((error: unknown) => {
        if (error instanceof Neo4jUnreachableError) throw error;
        return missing.map((): Execution => ({
          ok: false,
          error: { kind: 'runtime', message: `the graph variant could not be set up: ${(error as Error).message}` },
          ms: 0,
        }));
      });
      batch.then(
        (all) =>
          missing.forEach(
            (q, i) =>
              q.role === 'candidate' && tooBigToKeep(all[i] as Execution) && this.variantResults.delete(keyOf(q)),
          ),
        () => missing.forEach((q) => this.variantResults.delete(keyOf(q))),
      );
      missing.forEach((q, i) =>
        this.variantResults.set(
          keyOf(q),
          batch.then((all) => all[i] as Execution),
        ),
      );
    }
    return Promise.all(queries.map((q) => this.variantResults.get(keyOf(q)) as Promise<Execution>));
  }

  async close(): Promise<void> {
    const driver = this.connection;
    const capped = this.capped;
    this.connection = undefined;
    this.capped = undefined;
    const c = await capped?.catch(() => undefined);
    if (c?.proxy) {
      await c.driver.close();
      await c.proxy.close();
    }
    await driver?.close();
  }
}
