import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../types.ts';
import { CacheMissError, cacheKey, withCache } from './cache.ts';
import type { CacheKeyParts, CacheMode, CachedModel } from './cache.ts';
import { ModelCallError } from './model.ts';
import type { ChatModel, ChatRequest } from './model.ts';
import { createOpenAIModel } from './openai.ts';
import { startTestModelServer } from '../../testing/model-server.ts';
import type { Script, TestModelServer } from '../../testing/model-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'witness-cache-'));
let fileNo = 0;
const freshPath = () => join(dir, `run-${++fileNo}`, 'nested', 'cache.sqlite');
const opened: (CachedModel | TestModelServer)[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((x) => x.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(
  script: Script = (_, i) => ({ content: `reply ${i}`, usage: { prompt_tokens: 5, completion_tokens: 3 } }),
) {
  const server = await startTestModelServer(script);
  opened.push(server);
  return server;
}

function cached(
  baseURL: string,
  path: string,
  mode: CacheMode = 'readwrite',
  sampling: JsonObject = { temperature: 0 },
) {
  const inner = createOpenAIModel({
    model: 'test-model',
    baseURL,
    apiKey: 'sk-test',
    timeoutMs: 2_000,
    maxRetries: 0,
    concurrency: 2,
  });
  const model = withCache(inner, { path, mode, sampling });
  opened.push(model);
  return model;
}

const ask = (text = 'Write a regex for digits.', trial = 0): ChatRequest => ({
  messages: [{ role: 'user', content: text }],
  trial,
});

function rows(path: string): { key: string; content: string; model: string; endpoint: string; request: string }[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare('SELECT key, content, model, endpoint, request FROM replies ORDER BY created_at, key')
      .all() as never;
  } finally {
    db.close();
  }
}

describe('withCache', () => {
  it('answers the second identical request from the cache', async () => {
    const server = await serve();
    const path = freshPath();
    const model = cached(server.baseURL, path);
    const first = await model.complete(ask());
    const second = await model.complete(ask());
    expect(first).toMatchObject({ content: 'reply 0', cached: false });
    expect(second).toMatchObject({
      content: 'reply 0',
      cached: true,
      finishReason: 'stop',
      usage: { promptTokens: 5, completionTokens: 3 },
    });
    expect(second.latencyMs).toBeGreaterThanOrEqual(0);
    expect(server.requests).toHaveLength(1);
    expect(model.stats()).toEqual({ hits: 1, misses: 1, writes: 1, writeErrors: 0 });
    expect(model.info).toMatchObject({ name: 'test-model', endpoint: server.baseURL });
    const [row] = rows(path);
    expect(row).toMatchObject({ content: 'reply 0', model: 'test-model', endpoint: server.baseURL });
    expect(row?.key).toBe(
      cacheKey({
        endpoint: server.baseURL,
        model: 'test-model',
        messages: ask().messages,
        sampling: { temperature: 0 },
        trial: 0,
      }),
    );
    expect(JSON.parse(row?.request ?? '{}')).toMatchObject({ v: 1, trial: 0, sampling: { temperature: 0 } });
  });

  it('misses on a different trial, message or sampling setting', async () => {
    const server = await serve();
    const path = freshPath();
    const model = cached(server.baseURL, path);
    await model.complete(ask('a', 0));
    expect((await model.complete(ask('a', 1))).cached).toBe(false);
    expect((await model.complete(ask('b', 0))).cached).toBe(false);
    const hotter = cached(server.baseURL, path, 'readwrite', { temperature: 0.7 });
    expect((await hotter.complete(ask('a', 0))).cached).toBe(false);
    expect(server.requests).toHaveLength(4);
    expect(rows(path)).toHaveLength(4);
  });

  it('keeps the estimated flag of a recorded usage', async () => {
    const server = await serve([{ content: 'no usage here', usage: null }]);
    const model = cached(server.baseURL, freshPath());
    await model.complete(ask());
    expect((await model.complete(ask())).usage).toMatchObject({ estimated: true });
  });

  it('off bypasses the cache completely: no read, no write, no file', async () => {
    const server = await serve();
    const path = freshPath();
    await cached(server.baseURL, path).complete(ask());
    const off = cached(server.baseURL, path, 'off');
    expect((await off.complete(ask())).cached).toBe(false);
    expect((await off.complete(ask('new question'))).cached).toBe(false);
    expect(server.requests).toHaveLength(3);
    expect(rows(path)).toHaveLength(1);
    expect(off.stats()).toEqual({ hits: 0, misses: 0, writes: 0, writeErrors: 0 });
    const untouched = freshPath();
    await cached(server.baseURL, untouched, 'off').complete(ask());
    expect(existsSync(untouched)).toBe(false);
  });

  it('refresh never reads and re-records over the old reply', async () => {
    const server = await serve();
    const path = freshPath();
    await cached(server.baseURL, path).complete(ask());
    const refresh = cached(server.baseURL, path, 'refresh');
    expect(await refresh.complete(ask())).toMatchObject({ content: 'reply 1', cached: false });
    expect(refresh.stats()).toEqual({ hits: 0, misses: 1, writes: 1, writeErrors: 0 });
    expect(rows(path).map((r) => r.content)).toEqual(['reply 1']);
    expect(await cached(server.baseURL, path).complete(ask())).toMatchObject({ content: 'reply 1', cached: true });
    expect(server.requests).toHaveLength(2);
  });

  it('only throws CacheMissError naming the key and never contacts the server', async () => {
    const server = await serve();
    const path = freshPath();
    const only = cached(server.baseURL, path, 'only');
    const error = await only.complete(ask()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CacheMissError);
    expect(error).toBeInstanceOf(ModelCallError);
    const miss = error as CacheMissError;
    const key = cacheKey({
      endpoint: server.baseURL,
      model: 'test-model',
      messages: ask().messages,
      sampling: { temperature: 0 },
      trial: 0,
    });
    expect(miss.name).toBe('CacheMissError');
    expect(miss.key).toBe(key);
    expect(miss.message).toContain('cache-only mode is on');
    expect(miss.message).toContain(key);
    expect(miss.message).toContain('"test-model"');
    expect(miss.message).toContain(server.baseURL);
    expect(miss.message).toContain('without cache-only');
    expect(server.requests).toHaveLength(0);
    expect(only.stats()).toEqual({ hits: 0, misses: 1, writes: 0, writeErrors: 0 });
  });

  it('replays a recorded run in only mode with the server gone', async () => {
    const server = await serve();
    const path = freshPath();
    const recorder = cached(server.baseURL, path);
    const recorded = await Promise.all([0, 1, 2].map((trial) => recorder.complete(ask('q', trial))));
    await recorder.close();
    await server.close();
    const replay = cached(server.baseURL, path, 'only');
    const replayed = await Promise.all([0, 1, 2].map((trial) => replay.complete(ask('q', trial))));
    expect(replayed.map((r) => r.content)).toEqual(recorded.map((r) => r.content));
    expect(replayed.every((r) => r.cached)).toBe(true);
    expect(replay.stats()).toMatchObject({ hits: 3, misses: 0 });
  });

  it('never records a failed call', async () => {
    const server = await serve([{ status: 500 }, { content: 'recovered' }]);
    const path = freshPath();
    const model = cached(server.baseURL, path);
    await expect(model.complete(ask())).rejects.toBeInstanceOf(ModelCallError);
    expect(rows(path)).toHaveLength(0);
    expect(await model.complete(ask())).toMatchObject({ content: 'recovered', cached: false });
    expect(model.stats()).toMatchObject({ hits: 0, misses: 2, writes: 1 });
  });

  it('shares one endpoint call among identical requests in flight, so what is used and recorded does not depend on which finishes first', async () => {
    const server = await serve((_, i) => ({ content: `reply ${i}`, delayMs: 80 }));
    const model = cached(server.baseURL, freshPath());
    const [a, b] = await Promise.all([model.complete(ask()), model.complete(ask())]);
    expect(server.requests).toHaveLength(1);
    expect([a.content, b.content]).toEqual(['reply 0', 'reply 0']);
    expect([a.cached, b.cached]).toEqual([false, true]);
    expect(model.stats()).toEqual({ hits: 1, misses: 1, writes: 1, writeErrors: 0 });
    expect((await model.complete(ask())).content).toBe('reply 0');
    // Different requests are not shared.
    const [c, d] = await Promise.all([model.complete(ask('x')), model.complete(ask('y'))]);
    expect(c.content).not.toBe(d.content);
  });

  it('shares in refresh mode too; a failed shared call lets each waiting request call on its own', async () => {
    const server = await serve((_, i) =>
      i === 0 ? { status: 500, delayMs: 50 } : { content: `reply ${i}`, delayMs: 20 },
    );
    const refresh = cached(server.baseURL, freshPath(), 'refresh');
    const outcomes = await Promise.allSettled([refresh.complete(ask()), refresh.complete(ask())]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseFulfilledResult<{ content: string }>).value.content).toBe('reply 1');
    expect(server.requests).toHaveLength(2);
  });

  it('lets a request waiting for a shared call leave when its own signal aborts', async () => {
    const server = await serve([{ content: 'slow', delayMs: 300 }]);
    const model = cached(server.baseURL, freshPath());
    const controller = new AbortController();
    const leader = model.complete(ask());
    const follower = model.complete({ ...ask(), signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 30);
    await expect(follower).rejects.toThrow(ModelCallError);
    await expect(follower).rejects.toThrow(/aborted by the caller while waiting for an identical request/);
    expect((await leader).content).toBe('slow');
    expect(server.requests).toHaveLength(1);
  });

  it('shares one file between two connections, and waits out another writer (busy timeout)', async () => {
    const server = await serve();
    const path = freshPath();
    const a = cached(server.baseURL, path);
    const b = cached(server.baseURL, path);
    await a.complete(ask('shared'));
    expect(await b.complete(ask('shared'))).toMatchObject({ content: 'reply 0', cached: true });

    // Another thread (its own connection, as another vitest worker would have) holds the write lock for 300 ms.
    const worker = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       const Database = require(workerData.module);
       const db = new Database(workerData.path);
       db.exec('BEGIN IMMEDIATE');
       db.prepare("INSERT INTO replies (key, content) VALUES ('held', 'x')").run();
       parentPort.postMessage('locked');
       setTimeout(() => { db.exec('COMMIT'); db.close(); parentPort.postMessage('released'); }, 300);`,
      { eval: true, workerData: { module: createRequire(import.meta.url).resolve('better-sqlite3'), path } },
    );
    const messages: string[] = [];
    const released = new Promise<void>((resolve, reject) => {
      worker.on('message', (m: string) => {
        messages.push(m);
        if (m === 'released') resolve();
      });
      worker.on('error', reject);
    });
    while (messages.length === 0) await new Promise((r) => setTimeout(r, 5));
    const started = performance.now();
    expect(await b.complete(ask('while locked'))).toMatchObject({ cached: false });
    expect(performance.now() - started).toBeGreaterThanOrEqual(200); // the write waited for the lock
    await released;
    await worker.terminate();
    expect(b.stats()).toMatchObject({ writes: 1, writeErrors: 0 });
    expect(rows(path).map((r) => r.key)).toContain('held');
    expect(await a.complete(ask('while locked'))).toMatchObject({ cached: true });
  });

  it('close() closes the database and the inner model, once', async () => {
    let closes = 0;
    const inner: ChatModel = {
      info: { name: 'counting', privileged: false },
      complete: async () => ({
        content: 'x',
        usage: { promptTokens: 1, completionTokens: 1 },
        latencyMs: 1,
        cached: false,
      }),
      close: async () => {
        closes++;
      },
    };
    const model = withCache(inner, { path: freshPath(), mode: 'readwrite', sampling: {} });
    await model.complete(ask());
    await model.close();
    await model.close();
    expect(closes).toBe(1);
    await expect(model.complete(ask())).rejects.toThrow(/closed/);
  });

  it('rejects an unknown mode and names an unopenable path', () => {
    const inner: ChatModel = {
      info: { name: 'm', privileged: false },
      complete: () => Promise.reject(new Error('unused')),
    };
    expect(() => withCache(inner, { path: freshPath(), mode: 'sometimes' as CacheMode, sampling: {} })).toThrow(
      /unknown mode "sometimes"/,
    );
    expect(() => withCache(inner, { path: dir, mode: 'readwrite', sampling: {} })).toThrow(`cannot open ${dir}`);
  });
});

describe('cacheKey', () => {
  const base: CacheKeyParts = {
    endpoint: 'https://api.openai.com/v1',
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'digits' },
    ],
    sampling: { temperature: 0, seed: 1, maxTokens: 256, top_p: 1 },
    trial: 0,
  };

  it('is a sha256 hex digest, stable across object key order and extra message fields', () => {
    const key = cacheKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const reordered: CacheKeyParts = {
      trial: 0,
      sampling: { top_p: 1, maxTokens: 256, seed: 1, temperature: 0 },
      messages: [
        { content: 'Be brief.', role: 'system' },
        { content: 'digits', role: 'user' },
      ],
      model: 'gpt-4o',
      endpoint: 'https://api.openai.com/v1',
    };
    expect(cacheKey(reordered)).toBe(key);
    const extra = { ...base, messages: base.messages.map((m) => ({ ...m, name: 'ignored' })) };
    expect(cacheKey(extra)).toBe(key);
  });

  it('changes with each documented component', () => {
    const key = cacheKey(base);
    const variants: CacheKeyParts[] = [
      { ...base, endpoint: 'http://127.0.0.1:8000/v1' },
      { ...base, endpoint: null },
      { ...base, model: 'gpt-4o-mini' },
      { ...base, messages: base.messages.slice(1) },
      { ...base, messages: [...base.messages].reverse() },
      { ...base, messages: [base.messages[0]!, { role: 'assistant', content: 'digits' }] },
      { ...base, messages: [base.messages[0]!, { role: 'user', content: 'digits ' }] },
      { ...base, sampling: { ...base.sampling, temperature: 0.7 } },
      { ...base, sampling: { ...base.sampling, seed: 2 } },
      { ...base, sampling: { ...base.sampling, maxTokens: 512 } },
      { ...base, sampling: { ...base.sampling, top_p: 0.9 } },
      { ...base, trial: 1 },
    ];
    const keys = variants.map(cacheKey);
    expect(keys).not.toContain(key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
