/**
 * A response cache in SQLite around any ChatModel, so reruns replay recorded replies instead of
 * paying for them again, and `only` mode can prove a run touched no endpoint.
 *
 * Modes:
 * - `readwrite` (default): answer from the cache when the key is recorded, else call the model and
 *   record the reply.
 * - `off`: bypass completely; the database is not even opened (no read, no write).
 * - `refresh`: never read; call the model and record (overwrite) the reply.
 * - `only`: never call the model; a key that is not recorded throws {@link CacheMissError}.
 *
 * Only successful replies are recorded; a failed call leaves no row. Hits return the stored
 * content, finish reason and usage (the usage the original call reported or estimated), with
 * `cached: true` and the lookup time as `latencyMs`.
 *
 * Identical requests in flight share one call (in every mode but `off` and `only`): a request whose
 * key is being answered waits for that answer instead of calling the model again, so concurrent
 * identical requests get one reply — the one recorded and later replayed — whichever finishes
 * first. A waiting request gets it with `cached: true`; if the shared call fails, each waiting
 * request calls the model on its own; a waiting request whose signal aborts leaves at once.
 *
 * Counters (`stats()`): `hits` = replies answered without calling the model (from the file, or
 * shared with an identical request in flight); `misses` = calls made to the model (in `readwrite`
 * after a lookup, in `refresh` for every request not shared, in `only` the lookups that failed);
 * `writes` = rows recorded; `writeErrors` = recordings that failed (the reply is still returned,
 * and a warning is emitted once). In `off` mode every counter stays 0. Which of several identical
 * concurrent requests is the miss depends on arrival order; the totals and the replies do not.
 *
 * The file is opened in WAL mode with a 5 s busy timeout, so several vitest worker processes
 * can share it. Parent directories are created.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { JsonObject, Usage } from '../types.ts';
import { canonicalJson, sha256Hex } from './canonical-json.ts';
import { ModelCallError } from './model.ts';
import type { ChatModel, ChatReply, ChatRequest } from './model.ts';

export type CacheMode = 'readwrite' | 'off' | 'only' | 'refresh';
export const CACHE_MODES: readonly CacheMode[] = ['readwrite', 'off', 'only', 'refresh'];
export const CACHE_KEY_VERSION = 1;
/** How long a connection waits for another process's write lock before failing (ms). */
export const CACHE_BUSY_TIMEOUT_MS = 5_000;

export interface CacheOptions {
  /** SQLite file; parent directories are created. `:memory:` gives a private in-process cache. */
  path: string;
  mode: CacheMode;
  /**
   * Every request setting that changes the reply, as the caller sends it: temperature, seed,
   * max tokens, top_p, … It is hashed as given, so keep names and `null`s consistent between runs.
   */
  sampling: JsonObject;
}

export interface CacheStats {
  hits: number;
  misses: number;
  writes: number;
  writeErrors: number;
}

export type CachedModel = ChatModel & {
  readonly mode: CacheMode;
  readonly path: string;
  stats(): CacheStats;
  /** Closes the database and the inner model. */
  close(): Promise<void>;
};

/** What the cache key is computed from; see {@link cacheKey}. */
export interface CacheKeyParts {
  endpoint: string | null;
  model: string;
  messages: { role: string; content: string }[];
  sampling: JsonObject;
  trial: number;
}

/**
 * The cache key, version 1: the lowercase hex SHA-256 of the canonical JSON (object keys sorted,
 * no whitespace) of
 *
 *     { "v": 1, "endpoint": E, "model": M, "messages": [{ "role": R, "content": C }, …], "sampling": S, "trial": T }
 *
 * - E: the model's endpoint (`info.endpoint`, e.g. `https://api.openai.com/v1`), or `null` if it has none;
 * - M: the model name (`info.name`);
 * - messages: the full conversation sent, in order, each reduced to its role and content;
 * - S: the sampling settings the caller passed (temperature, seed, max tokens, top_p, …);
 * - T: the trial (repeat) index, so repeated trials are separate entries and are not answered from one.
 *
 * The API key, timeouts, retry and concurrency settings are not part of the key: they do not
 * change what the model is asked.
 */
export function cacheKey(parts: CacheKeyParts): string {
  return sha256Hex(keyText(parts));
}

function keyText(parts: CacheKeyParts): string {
  return canonicalJson({
    v: CACHE_KEY_VERSION,
    endpoint: parts.endpoint,
    model: parts.model,
    messages: parts.messages.map((m) => ({ role: m.role, content: m.content })),
    sampling: parts.sampling,
    trial: parts.trial,
  });
}

/** `only` mode met a request that was never recorded. */
export class CacheMissError extends ModelCallError {
  constructor(
    readonly key: string,
    readonly model: string,
    readonly endpoint: string | null,
    readonly path: string,
  ) {
    super(
      `cache-only mode is on and the response cache ${path} has no reply for model "${model}" at ` +
        `${endpoint ?? '(no endpoint)'} (key ${key}). Record it by running without cache-only ` +
        '(cache mode readwrite or refresh, e.g. WITNESS_CACHE=readwrite).',
    );
    this.name = 'CacheMissError';
  }
}

interface Row {
  content: string;
  usage: string;
  finish_reason: string | null;
}

export function withCache(model: ChatModel, options: CacheOptions): CachedModel {
  const { mode, path, sampling } = options;
  if (!CACHE_MODES.includes(mode)) {
    throw new Error(`response cache: unknown mode ${JSON.stringify(mode)}; expected one of ${CACHE_MODES.join(', ')}`);
  }
  const counts: CacheStats = { hits: 0, misses: 0, writes: 0, writeErrors: 0 };
  const store = mode === 'off' ? undefined : openStore(path);
  const endpoint = model.info.endpoint ?? null;
  let warned = false;
  let closed = false;

  const record = (key: string, parts: CacheKeyParts, reply: ChatReply): void => {
    if (!store) return;
    try {
      const info = (mode === 'refresh' ? store.replace : store.insert).run(
        key,
        endpoint,
        parts.model,
        keyText(parts),
        reply.content,
        JSON.stringify(reply.usage),
        reply.finishReason ?? null,
        new Date().toISOString(),
      );
      counts.writes += info.changes;
    } catch (error) {
      counts.writeErrors++;
      if (!warned) {
        warned = true;
        process.emitWarning(
          `response cache ${path}: could not record a reply (${(error as Error).message}); later runs will miss it`,
        );
      }
    }
  };

  /** Calls answering a key right now; identical requests wait for them instead of calling again. */
  const inFlight = new Map<string, Promise<ChatReply>>();

  const complete = async (request: ChatRequest): Promise<ChatReply> => {
    if (!store) return model.complete(request);
    if (closed) throw new Error(`response cache ${path} is closed`);
    const started = performance.now();
    const parts: CacheKeyParts = {
      endpoint,
      model: model.info.name,
      messages: request.messages,
      sampling,
      trial: request.trial,
    };
    const key = cacheKey(parts);
    if (mode !== 'refresh') {
      const row = store.get.get(key) as Row | undefined;
      if (row) {
        counts.hits++;
        return {
          content: row.content,
          usage: parseUsage(row.usage, key, path),
          latencyMs: performance.now() - started,
          cached: true,
          ...(row.finish_reason === null ? {} : { finishReason: row.finish_reason }),
        };
      }
    }
    const pending = inFlight.get(key);
    if (pending) {
      const shared = await waitFor(pending, request.signal);
      if (shared) {
        counts.hits++;
        return { ...shared, latencyMs: performance.now() - started, cached: true };
      }
    }
    counts.misses++;
    if (mode === 'only') throw new CacheMissError(key, model.info.name, endpoint, path);
    const call = model.complete(request).then((reply) => {
      record(key, parts, reply);
      return reply;
    });
    inFlight.set(key, call);
    try {
      return { ...(await call), cached: false };
    } finally {
      if (inFlight.get(key) === call) inFlight.delete(key);
    }
  };

  return {
    info: model.info,
    mode,
    path,
    complete,
    stats: () => ({ ...counts }),
    async close() {
      if (closed) return;
      closed = true;
      store?.db.close();
      await model.close?.();
    },
  };
}

/**
 * The shared call's reply, or null when it failed (the caller then calls on its own). Rejects at
 * once when the caller's own signal aborts.
 */
function waitFor(pending: Promise<ChatReply>, signal: AbortSignal | undefined): Promise<ChatReply | null> {
  const settled = pending.then(
    (reply) => reply,
    () => null,
  );
  if (!signal) return settled;
  return new Promise((resolve, reject) => {
    const abort = (): void =>
      reject(
        new ModelCallError('aborted by the caller while waiting for an identical request in flight', signal.reason),
      );
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    settled.then((value) => {
      signal.removeEventListener('abort', abort);
      resolve(value);
    });
  });
}

function openStore(path: string) {
  let db: Database.Database;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path, { timeout: CACHE_BUSY_TIMEOUT_MS });
    db.pragma('journal_mode = WAL');
    db.exec(`CREATE TABLE IF NOT EXISTS replies (
      key TEXT PRIMARY KEY,
      endpoint TEXT,
      model TEXT,
      request TEXT,
      content TEXT,
      usage TEXT,
      finish_reason TEXT,
      created_at TEXT
    )`);
  } catch (error) {
    throw new Error(`response cache: cannot open ${path}: ${(error as Error).message}`, { cause: error });
  }
  const columns =
    '(key, endpoint, model, request, content, usage, finish_reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';
  return {
    db,
    get: db.prepare('SELECT content, usage, finish_reason FROM replies WHERE key = ?'),
    // readwrite: the first recording of a key wins (another process may have written it meanwhile).
    insert: db.prepare(`INSERT OR IGNORE INTO replies ${columns}`),
    // refresh: re-record over whatever is there.
    replace: db.prepare(`INSERT OR REPLACE INTO replies ${columns}`),
  };
}

function parseUsage(text: string, key: string, path: string): Usage {
  try {
    const value = JSON.parse(text) as Partial<Usage> | null;
    if (value && typeof value.promptTokens === 'number' && typeof value.completionTokens === 'number') {
      return {
        promptTokens: value.promptTokens,
        completionTokens: value.completionTokens,
        ...(value.estimated ? { estimated: true } : {}),
      };
    }
  } catch {
    // fall through to the error below
  }
  throw new Error(`response cache ${path}: row ${key} has unreadable usage ${JSON.stringify(text)}`);
}
