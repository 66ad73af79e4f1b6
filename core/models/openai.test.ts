import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config.ts';
import { createModel } from './create.ts';
import { ModelCallError } from './model.ts';
import type { ChatRequest } from './model.ts';
import { DEFAULT_OPENAI_ENDPOINT, ModelConfigError, PLACEHOLDER_API_KEY, createOpenAIModel } from './openai.ts';
import type { OpenAIModelOptions } from './openai.ts';
import { startTestModelServer } from '../../testing/model-server.ts';
import type { Script, TestModelServer } from '../../testing/model-server.ts';

const KEY = 'sk-witness-test-0123456789abcdef';
const servers: TestModelServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: Script): Promise<TestModelServer> {
  const server = await startTestModelServer(script);
  servers.push(server);
  return server;
}

function model(server: TestModelServer, extra: Partial<OpenAIModelOptions> = {}) {
  return createOpenAIModel({
    model: 'test-model',
    baseURL: server.baseURL,
    apiKey: KEY,
    timeoutMs: 2_000,
    maxRetries: 0,
    concurrency: 4,
    ...extra,
  });
}

const ask = (text = 'Write a regex for digits.', trial = 0): ChatRequest => ({
  messages: [{ role: 'user', content: text }],
  trial,
});

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  const err = error as ModelCallError;
  expect(err.message).not.toContain(KEY);
  expect(String(err.stack)).not.toContain(KEY);
  if (err.cause instanceof Error) expect(err.cause.message).not.toContain(KEY);
  return err;
}

describe('createOpenAIModel: replies', () => {
  it('returns content, reported usage, finish reason and sends the key and the sampling settings', async () => {
    const server = await serve([
      { content: '```regex\n\\d+\n```', usage: { prompt_tokens: 11, completion_tokens: 7 } },
    ]);
    const m = model(server, { temperature: 0.2, seed: 7, maxTokens: 64 });
    const reply = await m.complete({
      messages: [{ role: 'system', content: 'Be brief.' }, ...ask().messages],
      trial: 0,
    });
    expect(reply).toMatchObject({ content: '```regex\n\\d+\n```', cached: false, finishReason: 'stop' });
    expect(reply.usage).toEqual({ promptTokens: 11, completionTokens: 7 });
    expect(reply.latencyMs).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1);
    const seen = server.requests[0];
    expect(seen?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen?.headers.retryCount).toBe(0);
    expect(seen?.body).toMatchObject({ model: 'test-model', temperature: 0.2, seed: 7, max_tokens: 64 });
    expect(seen?.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Write a regex for digits.' },
    ]);
    expect(m.info).toEqual({
      name: 'test-model',
      endpoint: server.baseURL,
      privileged: false,
      temperature: 0.2,
      seed: 7,
    });
  });

  it('estimates usage when the endpoint reports none, and passes unfenced content through', async () => {
    const server = await serve([{ content: 'just \\d+ without a fence', usage: null }]);
    const reply = await model(server).complete(ask('x'.repeat(40)));
    expect(reply.content).toBe('just \\d+ without a fence');
    expect(reply.usage).toEqual({ promptTokens: 10, completionTokens: 6, estimated: true });
  });

  it('sends only the configured sampling fields, and one endpoint name with or without a trailing slash', async () => {
    const server = await serve([{}]);
    const m = model(server, { baseURL: `${server.baseURL}/` });
    await m.complete(ask());
    expect(Object.keys(server.requests[0]?.body ?? {}).sort()).toEqual(['messages', 'model']);
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    expect(m.info).toEqual({ name: 'test-model', endpoint: server.baseURL, privileged: false });
  });
});

describe('createOpenAIModel: configuration', () => {
  it('uses a placeholder key for a custom endpoint and never sends the environment key there', async () => {
    const server = await serve([{}]);
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = KEY;
    try {
      const m = createOpenAIModel({
        model: 'llama',
        baseURL: server.baseURL,
        timeoutMs: 1_000,
        maxRetries: 0,
        concurrency: 1,
      });
      await m.complete(ask());
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${PLACEHOLDER_API_KEY}`);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it('names OPENAI_API_KEY when the default endpoint has no key', () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(() => createOpenAIModel({ model: 'gpt-4o', timeoutMs: 1_000, maxRetries: 0, concurrency: 1 })).toThrow(
        ModelConfigError,
      );
      expect(() => createOpenAIModel({ model: 'gpt-4o', timeoutMs: 1_000, maxRetries: 0, concurrency: 1 })).toThrow(
        /OPENAI_API_KEY/,
      );
      const m = createOpenAIModel({ model: 'gpt-4o', apiKey: KEY, timeoutMs: 1_000, maxRetries: 0, concurrency: 1 });
      expect(m.info.endpoint).toBe(DEFAULT_OPENAI_ENDPOINT);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it('rejects impossible limits with the field name', () => {
    const base = { model: 'm', baseURL: 'http://127.0.0.1:9/v1', timeoutMs: 1_000, maxRetries: 0, concurrency: 1 };
    expect(() => createOpenAIModel({ ...base, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => createOpenAIModel({ ...base, maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => createOpenAIModel({ ...base, concurrency: 0 })).toThrow(/concurrency/);
    expect(() => createOpenAIModel({ ...base, deadlineMs: 0 })).toThrow(/deadlineMs/);
    expect(() => createOpenAIModel({ ...base, baseURL: 'not a url' })).toThrow(/baseURL/);
    expect(() => createOpenAIModel({ ...base, model: '' })).toThrow(/model/);
  });
});

describe('createOpenAIModel: faults', () => {
  it('retries 429 twice, honouring retry-after-ms, then succeeds', async () => {
    const server = await serve([
      { status: 429, retryAfterMs: 60 },
      { status: 429, retryAfterMs: 60 },
      { content: 'finally' },
    ]);
    const reply = await model(server, { maxRetries: 2 }).complete(ask());
    expect(reply.content).toBe('finally');
    expect(server.requests.map((r) => r.headers.retryCount)).toEqual([0, 1, 2]);
    const [a, b, c] = server.requests.map((r) => r.receivedAtMs);
    expect(b! - a!).toBeGreaterThanOrEqual(55);
    expect(c! - b!).toBeGreaterThanOrEqual(55);
    expect(reply.latencyMs).toBeGreaterThanOrEqual(110);
  });

  it('honours retry-after in seconds', async () => {
    const server = await serve([{ status: 429, retryAfterSeconds: 0.1 }, { content: 'ok' }]);
    await model(server, { maxRetries: 1 }).complete(ask());
    const [a, b] = server.requests.map((r) => r.receivedAtMs);
    expect(b! - a!).toBeGreaterThanOrEqual(90);
  });

  it('reports a 429 that outlasts the retries as a rate limit, naming status, endpoint and model', async () => {
    const server = await serve([{ status: 429, retryAfterMs: 10, errorMessage: 'slow down' }]);
    const err = await failure(model(server, { maxRetries: 1 }).complete(ask()));
    expect(server.requests).toHaveLength(2);
    expect(err.message).toContain('rate limited: HTTP 429 (RateLimitError)');
    expect(err.message).toContain('slow down');
    expect(err.message).toContain(server.baseURL);
    expect(err.message).toContain('"test-model"');
    expect(err.message).toContain('maxRetries 1, 2 attempts');
  });

  it('makes exactly one attempt with maxRetries 0 on a 500', async () => {
    const server = await serve([{ status: 500 }]);
    const err = await failure(model(server, { maxRetries: 0 }).complete(ask()));
    expect(server.requests).toHaveLength(1);
    expect(err.message).toMatch(/HTTP 500 \(InternalServerError\)/);
    expect(err.message).toContain('1 attempt)');
  });

  it('turns a slow reply into a timeout error within a bounded time', async () => {
    const server = await serve([{ delayMs: 5_000 }]);
    const started = performance.now();
    const err = await failure(model(server, { timeoutMs: 150, maxRetries: 0 }).complete(ask()));
    const elapsed = performance.now() - started;
    expect(err.message).toMatch(/timed out after 150 ms per attempt \(APIConnectionTimeoutError\)/);
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(1_500);
    expect(server.requests).toHaveLength(1);
  });

  it('caps the whole call, retries included, with deadlineMs', async () => {
    // Each attempt times out at 150 ms and would be retried 5 times (~0.9 s + backoff without a deadline).
    const server = await serve([{ delayMs: 5_000 }]);
    const started = performance.now();
    const err = await failure(model(server, { timeoutMs: 150, maxRetries: 5, deadlineMs: 400 }).complete(ask()));
    const elapsed = performance.now() - started;
    expect(err.message).toContain('deadline of 400 ms exceeded');
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(elapsed).toBeLessThan(1_500);
    expect(server.requests.length).toBeLessThan(6);
  });

  it.each([
    [{ deadlineMs: 2_000 }, 'the 2000 ms deadline'],
    [{ retryBudgetMs: 2_000 }, 'the 2000 ms retry budget'],
  ])('fails at once when the server asks for a wait that ends past %j', async (limit, named) => {
    const server = await serve([{ status: 429, retryAfterSeconds: 30 }, { content: 'too late' }]);
    const started = performance.now();
    const err = await failure(model(server, { maxRetries: 1, ...limit }).complete(ask()));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(err.message).toContain('rate limited: HTTP 429 (RateLimitError)');
    expect(err.message).toContain(`not retried: the server asked to wait 30000 ms, past ${named}`);
    expect(server.requests).toHaveLength(1);
  });

  it('still retries when the requested wait fits in the deadline', async () => {
    const server = await serve([{ status: 429, retryAfterMs: 20 }, { content: 'in time' }]);
    const reply = await model(server, { maxRetries: 1, deadlineMs: 2_000 }).complete(ask());
    expect(reply.content).toBe('in time');
  });

  it('keeps the deadline during the client backoff, which does not watch the abort signal', async () => {
    // Without retry-after the client sleeps its own backoff (375-500 ms before the first retry).
    const server = await serve([{ status: 500 }, { content: 'too late' }]);
    const started = performance.now();
    const err = await failure(model(server, { maxRetries: 1, deadlineMs: 100 }).complete(ask()));
    expect(performance.now() - started).toBeLessThan(370);
    expect(err.message).toContain('deadline of 100 ms exceeded');
    expect(server.requests).toHaveLength(1);
  });

  it('reports a caller abort as such, while running and while queued', async () => {
    const server = await serve([{ delayMs: 5_000 }]);
    const m = model(server, { concurrency: 1 });
    const controller = new AbortController();
    const running = m.complete({ ...ask(), signal: controller.signal });
    const queued = m.complete({ ...ask(), signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await failure(running)).message).toContain('aborted by the caller');
    expect((await failure(queued)).message).toContain('aborted by the caller before the request was sent');
    expect(server.requests).toHaveLength(1);
  });

  it('names a malformed JSON body when no retry is left', async () => {
    const server = await serve([{ malformed: true }]);
    const err = await failure(model(server).complete(ask()));
    expect(err.message).toMatch(
      /invalid reply: the endpoint answered HTTP 200 with truncated or malformed JSON \(SyntaxError/,
    );
    expect(err.message).toContain('maxRetries 0, 1 attempt)');
    expect(server.requests).toHaveLength(1);
  });

  it('names a reply without choices when no retry is left', async () => {
    const server = await serve([{ noChoices: true }]);
    expect((await failure(model(server).complete(ask()))).message).toContain(
      'invalid reply: the endpoint answered HTTP 200 with no choices',
    );
  });

  it('reports a refused connection and a 404 without leaking the key, even when the server echoes it', async () => {
    const server = await serve([{ status: 400, errorMessage: `bad key ${KEY} in request` }]);
    const err = await failure(model(server).complete(ask()));
    expect(err.message).toContain('HTTP 400 (BadRequestError): 400 bad key [redacted] in request');
    const wrongPath = createOpenAIModel({
      model: 'm',
      baseURL: server.baseURL.replace('/v1', '/v2'),
      apiKey: KEY,
      timeoutMs: 1_000,
      maxRetries: 0,
      concurrency: 1,
    });
    expect((await failure(wrongPath.complete(ask()))).message).toContain('HTTP 404 (NotFoundError)');
    const { baseURL } = server;
    await server.close();
    const refused = await failure(model({ ...server, baseURL }).complete(ask()));
    expect(refused.message).toContain('connection failed (APIConnectionError');
  });
});

describe('createOpenAIModel: concurrency', () => {
  it('keeps at most `concurrency` requests in flight', async () => {
    const server = await serve([{ delayMs: 60 }]);
    const m = model(server, { concurrency: 2 });
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => m.complete(ask(`q${i}`))));
    expect(replies).toHaveLength(6);
    expect(server.requests).toHaveLength(6);
    expect(server.maxInFlight).toBe(2);
  });
});

describe('createOpenAIModel: broken 200 replies are transient', () => {
  const broken = [
    ['a truncated body', { malformed: true }, /truncated or malformed JSON/],
    ['no choices', { noChoices: true }, /no choices/],
    ['a choice without a message', { noMessage: true }, /a choice without a message/],
    ['a body that is not JSON', { nonJson: true }, /a body that is not JSON \(text\/html: <html>/],
    ['a connection reset in the middle of the body', { reset: 'mid-body' }, /terminated|other side closed|socket/],
  ] as const;

  for (const [what, reply, named] of broken) {
    it(`retries ${what} within maxRetries and returns the retried reply`, async () => {
      const server = await serve([reply, { content: 'recovered' }]);
      const answer = await model(server, { maxRetries: 1 }).complete(ask());
      expect(answer.content).toBe('recovered');
      expect(server.requests.map((r) => r.headers.retryCount)).toEqual([0, 1]);
      // With no retry left the failure names what was wrong.
      const once = await serve([reply]);
      expect((await failure(model(once, { maxRetries: 0 }).complete(ask()))).message).toMatch(named);
    });
  }

  it('counts broken bodies and HTTP failures against one budget: never more than maxRetries + 1 attempts', async () => {
    const faults = [
      { malformed: true },
      { noChoices: true },
      { status: 500, retryAfterMs: 10 },
      { status: 429, retryAfterMs: 10 },
      { content: 'ok' },
    ];
    const short = await serve(faults);
    const err = await failure(model(short, { maxRetries: 3 }).complete(ask()));
    expect(short.requests).toHaveLength(4);
    expect(err.message).toContain('rate limited: HTTP 429');
    expect(err.message).toContain('maxRetries 3, 4 attempts');
    const enough = await serve(faults);
    expect((await model(enough, { maxRetries: 4 }).complete(ask())).content).toBe('ok');
    expect(enough.requests.map((r) => r.headers.retryCount)).toEqual([0, 1, 2, 3, 4]);
  }, 20_000);

  it('backs off before retrying a broken body as the client does after a 500', async () => {
    const server = await serve([{ malformed: true }, { content: 'ok' }]);
    await model(server, { maxRetries: 1 }).complete(ask());
    const [a, b] = server.requests.map((r) => r.receivedAtMs);
    // The client's first backoff: 0.5 s less up to 25 % jitter.
    expect(b! - a!).toBeGreaterThanOrEqual(350);
  });

  it('times out a body that stalls after the headers within the attempt, and retries it', async () => {
    const server = await serve([{ stallBody: true }, { content: 'ok' }]);
    const started = performance.now();
    expect((await model(server, { timeoutMs: 200, maxRetries: 1, deadlineMs: 5_000 }).complete(ask())).content).toBe(
      'ok',
    );
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(2);
  });

  it('keeps the deadline while retrying broken bodies', async () => {
    const server = await serve([{ malformed: true }]);
    const started = performance.now();
    const err = await failure(model(server, { maxRetries: 5, deadlineMs: 700 }).complete(ask()));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(err.message).toContain(
      'deadline of 700 ms exceeded (the last failed attempt: the endpoint answered HTTP 200 with truncated or malformed JSON',
    );
    expect(server.requests.length).toBeLessThan(6);
  });

  it('takes empty content, and null content without a tool call, as a reply that says nothing (not retried)', async () => {
    const server = await serve([
      { content: '' },
      { content: null, finishReason: 'content_filter' },
      { content: 'unused' },
    ]);
    const m = model(server, { maxRetries: 3 });
    expect(await m.complete(ask())).toMatchObject({ content: '', finishReason: 'stop' });
    expect(await m.complete(ask())).toMatchObject({ content: '', finishReason: 'content_filter' });
    expect(server.requests).toHaveLength(2);
  });
});

describe('createOpenAIModel: the retry budget', () => {
  it('retries HTTP failures until the budget is spent, then names it and the last failure', async () => {
    // Without retry-after the client backs off 0.375-0.5 s, then 0.75-1 s: the budget ends first.
    const server = await serve([{ status: 500 }]);
    const started = performance.now();
    const err = await failure(model(server, { maxRetries: 50, retryBudgetMs: 1_200 }).complete(ask()));
    expect(err.message).toContain(
      'retries stopped: the 1200 ms retry budget is spent (the last failed attempt: HTTP 500)',
    );
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(server.requests.length).toBeLessThanOrEqual(3);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('stops retrying connection failures the same way', async () => {
    const server = await serve([{ reset: 'before-headers' }]);
    const err = await failure(model(server, { maxRetries: 50, retryBudgetMs: 1_200 }).complete(ask()));
    expect(err.message).toMatch(
      /retries stopped: the 1200 ms retry budget is spent \(the last failed attempt: connection failed/,
    );
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  it('lets the attempt in flight when the budget ends finish within its own timeout', async () => {
    const server = await serve([{ status: 500 }, { content: 'late but whole', delayMs: 800 }]);
    const reply = await model(server, { maxRetries: 5, retryBudgetMs: 600 }).complete(ask());
    expect(reply.content).toBe('late but whole');
    expect(server.requests).toHaveLength(2);
  });

  it('is the default policy: a call that fails six times in a row still gets its reply', async () => {
    const server = await serve([...Array(6).fill({ status: 429, retryAfterMs: 5 }), { content: 'seventh time' }]);
    const config = defaultConfig('/project');
    expect(config.model).toMatchObject({ maxRetries: 10, retryBudgetMs: 600_000 });
    const m = createModel({
      ...config,
      model: { ...config.model, name: 'test-model', baseURL: server.baseURL },
      cache: { ...config.cache, mode: 'off' },
    });
    expect((await m.complete(ask())).content).toBe('seventh time');
    expect(server.requests).toHaveLength(7);
  });
});
