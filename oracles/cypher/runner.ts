/**
 * One connection to Neo4j for an oracle: the read-only guard, runs on the loaded graph (read
 * transactions, server-side timeout) and runs on graph variants (a write transaction that applies
 * the variant, runs the queries and is always rolled back), each cached by query so gold results
 * are computed once and repeated candidates (the sim's shared first answers, hardening re-checks)
 * cost nothing.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { createDriver } from './driver.ts';
import { classifyError, collect, DEFAULT_MAX_ROWS, runReadQuery, TooManyRowsError, type Execution } from './execute.ts';
import { checkReadOnly, type GuardResult } from './guard.ts';
import { applyVariant, variantKey, type GraphVariant } from './perturb.ts';

export interface RunnerOptions {
  uri: string;
  /** Candidate timeout (server side), default 120 s as CypherBench. */
  timeoutMs: number;
  /** Gold timeout, default 600 s (the original runs gold without one). */
  goldTimeoutMs: number;
  maxRows?: number;
  database?: string;
  env?: NodeJS.ProcessEnv;
}

/** A Map that forgets its oldest entries beyond `limit`. */
class BoundedCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string): V | undefined {
    return this.map.get(key);
  }
  set(key: string, value: V): void {
    this.map.set(key, value);
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value as string);
  }
  delete(key: string): void {
    this.map.delete(key);
  }
}

/** Results longer than this are not kept in the caches (memory). */
const CACHED_ROWS = 10_000;

const TRANSIENT_RETRIES = 4;

export class CypherRunner {
  private connection: Driver | undefined;
  private readonly guards = new BoundedCache<Promise<GuardResult>>(5000);
  private readonly results = new BoundedCache<Promise<Execution>>(2000);
  private readonly variantResults = new BoundedCache<Promise<Execution>>(4000);

  constructor(readonly options: RunnerOptions) {}

  get driver(): Driver {
    return (this.connection ??= createDriver(this.options.uri, this.options.env));
  }

  private get maxRows(): number {
    return this.options.maxRows ?? DEFAULT_MAX_ROWS;
  }

  /** The read-only guard's answer for a query (cached). */
  guard(query: string): Promise<GuardResult> {
    let cached = this.guards.get(query);
    if (!cached) {
      // Planning is quick, but a cold server planning many queries at once is not: give EXPLAIN room.
      cached = checkReadOnly(this.driver, query, { timeoutMs: Math.max(this.options.timeoutMs, 60_000), database: this.options.database });
      this.guards.set(query, cached);
    }
    return cached;
  }

  /** Runs a query on the loaded graph in a read transaction (cached; `gold` uses the gold timeout). */
  run(query: string, role: 'gold' | 'candidate'): Promise<Execution> {
    const key = `${role}\u0000${query}`;
    let cached = this.results.get(key);
    if (!cached) {
      const timeoutMs = role === 'gold' ? this.options.goldTimeoutMs : this.options.timeoutMs;
      cached = runReadQuery(this.driver, query, { timeoutMs, maxRows: this.maxRows, database: this.options.database });
      this.results.set(key, cached);
      void cached.then((run) => {
        if (run.ok && run.table.rows.length > CACHED_ROWS && role === 'candidate') this.results.delete(key);
      });
    }
    return cached;
  }

  /** Runs queries on a variant of the graph: one transaction, rolled back whatever happens (cached per query). */
  async runOnVariant(variant: GraphVariant, queries: { query: string; role: 'gold' | 'candidate' }[]): Promise<Execution[]> {
    const vkey = variantKey(variant);
    const keyOf = (q: { query: string; role: string }) => `${vkey}\u0000${q.role}\u0000${q.query}`;
    const missing = queries.filter((q) => !this.variantResults.get(keyOf(q)));
    if (missing.length > 0) {
      const batch = this.executeOnVariant(variant, missing).catch((error: unknown) =>
        missing.map((): Execution => ({ ok: false, error: { kind: 'runtime', message: `the graph variant could not be set up: ${(error as Error).message}` }, ms: 0 })),
      );
      missing.forEach((q, i) => this.variantResults.set(keyOf(q), batch.then((all) => all[i] as Execution)));
    }
    return Promise.all(queries.map((q) => this.variantResults.get(keyOf(q)) as Promise<Execution>));
  }

  private async executeOnVariant(variant: GraphVariant, queries: { query: string; role: 'gold' | 'candidate' }[]): Promise<Execution[]> {
    for (let attempt = 1; ; attempt++) {
      const session = this.driver.session({ defaultAccessMode: neo4j.session.WRITE, database: this.options.database });
      const timeout = queries.some((q) => q.role === 'candidate') ? this.options.timeoutMs : this.options.goldTimeoutMs;
      const tx = session.beginTransaction({ timeout, metadata: { app: 'witness-cypher-hardening' } });
      try {
        await applyVariant(tx, variant);
        const out: Execution[] = [];
        for (const q of queries) {
          const started = performance.now();
          try {
            out.push({ ok: true, table: await collect(tx, q.query, this.maxRows), ms: performance.now() - started });
          } catch (error) {
            // An error ends the transaction: the remaining queries are reported as not run.
            const verdictError = error instanceof TooManyRowsError ? { kind: 'runtime' as const, message: error.message } : classifyError(error);
            out.push({ ok: false, error: verdictError, ms: performance.now() - started });
            while (out.length < queries.length) out.push({ ok: false, error: { kind: 'runtime', message: 'not run: an earlier query in the same variant failed' }, ms: 0 });
            break;
          }
        }
        return out;
      } catch (error) {
        const code = String((error as { code?: unknown }).code ?? '');
        if (!code.startsWith('Neo.TransientError.') || attempt >= TRANSIENT_RETRIES) throw error;
      } finally {
        await tx.rollback().catch(() => {});
        await session.close();
      }
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }

  async close(): Promise<void> {
    const driver = this.connection;
    this.connection = undefined;
    await driver?.close();
  }
}
