import { describe, expect, it } from 'vitest';
import { startTestModelServer } from './test-server.ts';

// Loosely typed view of what the server sends back.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const json = async (response: Response): Promise<Body> => (await response.json()) as Body;

const post = (baseURL: string, body: unknown, signal?: AbortSignal) =>
  fetch(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k', 'x-stainless-retry-count': '0' },
    body: JSON.stringify(body),
    signal,
  });

describe('startTestModelServer', () => {
  it('answers in the chat-completion shape, records requests, and repeats the last scripted entry', async () => {
    const server = await startTestModelServer([{ content: 'one' }, { content: 'two', usage: { prompt_tokens: 1, completion_tokens: 2 } }]);
    try {
      expect(server.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const bodies: Body[] = [];
      for (let i = 0; i < 3; i++) bodies.push(await json(await post(server.baseURL, { model: 'm', messages: [{ role: 'user', content: 'hi' }] })));
      expect(bodies.map((b) => b.choices[0].message.content)).toEqual(['one', 'two', 'two']);
      expect(bodies[0]).toMatchObject({ object: 'chat.completion', model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant' } }] });
      expect(bodies[1].usage).toEqual({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });
      expect(server.requests).toHaveLength(3);
      expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: { model: 'm' }, headers: { authorization: 'Bearer k', retryCount: 0 } });
    } finally {
      await server.close();
    }
  });

  it('lets a function script see each request and its index; leaves usage out on null', async () => {
    const server = await startTestModelServer((request, index) => ({ content: `${index}:${String(request.body.model)}`, usage: null }));
    try {
      const body = await json(await post(server.baseURL, { model: 'x' }));
      expect(body.choices[0].message.content).toBe('0:x');
      expect('usage' in body).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('answers unknown routes with a 404 JSON error and does not record them', async () => {
    const server = await startTestModelServer([{}]);
    try {
      const response = await fetch(`${server.baseURL}/models`);
      expect(response.status).toBe(404);
      expect((await json(response)).error.message).toContain('GET /v1/models');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('closes promptly while a slow reply is pending, and close() is idempotent', async () => {
    const server = await startTestModelServer([{ delayMs: 60_000 }]);
    const pending = post(server.baseURL, {}).catch((e: unknown) => e);
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    const started = performance.now();
    await Promise.all([server.close(), server.close()]);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await pending).toBeInstanceOf(Error);
  });

  it('stops the delay timer when the client goes away, and counts in-flight requests', async () => {
    const server = await startTestModelServer([{ delayMs: 60_000 }]);
    try {
      const controller = new AbortController();
      const pending = Promise.all([post(server.baseURL, {}, controller.signal), post(server.baseURL, {}, controller.signal)]).catch((e: unknown) => e);
      while (server.requests.length < 2) await new Promise((r) => setTimeout(r, 5));
      controller.abort();
      expect(await pending).toBeInstanceOf(Error);
      expect(server.maxInFlight).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('sends the scripted faults: status with retry headers, malformed body, no choices', async () => {
    const server = await startTestModelServer([
      { status: 429, retryAfterMs: 25, retryAfterSeconds: 1 },
      { malformed: true },
      { noChoices: true },
    ]);
    try {
      const limited = await post(server.baseURL, {});
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after-ms')).toBe('25');
      expect(limited.headers.get('retry-after')).toBe('1');
      expect((await json(limited)).error.type).toBe('rate_limit_exceeded');
      await expect((await post(server.baseURL, {})).json()).rejects.toThrow(SyntaxError);
      expect((await json(await post(server.baseURL, {}))).choices).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
