import { describe, expect, it } from 'vitest';
import { FAULT_KINDS } from './fault-schedule.ts';
import { startTestModelServer } from './model-server.ts';

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
    const server = await startTestModelServer([
      { content: 'one' },
      { content: 'two', usage: { prompt_tokens: 1, completion_tokens: 2 } },
    ]);
    try {
      expect(server.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const bodies: Body[] = [];
      for (let i = 0; i < 3; i++)
        bodies.push(
          await json(await post(server.baseURL, { model: 'm', messages: [{ role: 'user', content: 'hi' }] })),
        );
      expect(bodies.map((b) => b.choices[0].message.content)).toEqual(['one', 'two', 'two']);
      expect(bodies[0]).toMatchObject({
        object: 'chat.completion',
        model: 'm',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant' } }],
      });
      expect(bodies[1].usage).toEqual({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });
      expect(server.requests).toHaveLength(3);
      expect(server.requests[0]).toMatchObject({
        method: 'POST',
        path: '/v1/chat/completions',
        body: { model: 'm' },
        headers: { authorization: 'Bearer k', retryCount: 0 },
      });
    } finally {
      await server.close();
    }
  });

  it('lets a function script see each request and its index; leaves usage out on null', async () => {
    const server = await startTestModelServer((request, index) => ({
      content: `${index}:${String(request.body.model)}`,
      usage: null,
    }));
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
      const pending = Promise.all([
        post(server.baseURL, {}, controller.signal),
        post(server.baseURL, {}, controller.signal),
      ]).catch((e: unknown) => e);
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

  it('sends a choice without a message, an HTML body, and resets the connection before or during the body', async () => {
    const server = await startTestModelServer([
      { noMessage: true },
      { nonJson: true },
      { reset: 'before-headers' },
      { reset: 'mid-body' },
      { content: 'fine' },
    ]);
    try {
      expect((await json(await post(server.baseURL, {}))).choices).toEqual([{ index: 0, finish_reason: 'stop' }]);
      const html = await post(server.baseURL, {});
      expect(html.status).toBe(200);
      expect(html.headers.get('content-type')).toBe('text/html');
      expect(await html.text()).toContain('Bad Gateway');
      await expect(post(server.baseURL, {})).rejects.toThrow(/fetch failed/);
      const midBody = await post(server.baseURL, {});
      expect(midBody.status).toBe(200);
      await expect(midBody.text()).rejects.toThrow(/terminated/);
      expect((await json(await post(server.baseURL, {}))).choices[0].message.content).toBe('fine');
    } finally {
      await server.close();
    }
  });

  it('injects every kind of fault by a seeded schedule without consuming script entries, and delays by seed', async () => {
    const server = await startTestModelServer((_request, index) => ({ content: `reply ${index}` }), {
      faults: { seed: 3, rate: 1, kinds: FAULT_KINDS, hangMs: 30 },
      delays: { seed: 3, maxMs: 20 },
    });
    const clean = await startTestModelServer((_request, index) => ({ content: `reply ${index}` }), {
      faults: { seed: 3, rate: 0 },
    });
    try {
      const statuses: string[] = [];
      for (let i = 0; i < 60; i++) {
        const outcome = await post(server.baseURL, { n: i }).then(
          async (r) =>
            `${r.status}:${await r.text().then(
              (t) => t.slice(0, 1),
              () => 'cut',
            )}`,
          () => 'reset',
        );
        statuses.push(outcome);
      }
      expect(new Set(server.requests.map((r) => r.fault))).toEqual(new Set(FAULT_KINDS));
      expect(statuses).toContain('429:{');
      expect(statuses).toContain('500:{');
      expect(statuses).toContain('200:<');
      expect(statuses).toContain('200:cut');
      expect(statuses).toContain('reset');
      expect(server.requests.some((r) => (r.delayMs ?? 0) > 0)).toBe(true);
      // rate 0: nothing faults and the function script sees consecutive indices.
      const bodies = [await json(await post(clean.baseURL, {})), await json(await post(clean.baseURL, {}))];
      expect(bodies.map((b) => b.choices[0].message.content)).toEqual(['reply 0', 'reply 1']);
      expect(clean.requests.every((r) => r.fault === undefined)).toBe(true);
    } finally {
      await Promise.all([server.close(), clean.close()]);
    }
  });
});
