/**
 * A local OpenAI-compatible chat-completions server for tests: plain `node:http` on 127.0.0.1
 * with an ephemeral port, scripted replies and injected faults (rate limits, server errors, hangs,
 * connection resets before or in the middle of the body, truncated, non-JSON or empty replies,
 * missing usage). It records every request it receives.
 *
 * Script: an array is consumed in order and **its last entry repeats** once the array is used up
 * (so `[{ status: 500 }]` means "always 500"); a function receives each request and its 0-based
 * index and returns the reply. Only `POST /v1/chat/completions` is answered; anything else gets a
 * 404 JSON error (which the openai client does not retry).
 *
 * Options add a seeded fault schedule (each attempt faults with a probability; an attempt that
 * faults does not consume a script entry, so the retry gets the scripted reply) and seeded
 * per-attempt delays (see fault-schedule.ts). Both depend on the request body and the attempt
 * number only, so they are the same however requests interleave.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ChatModel } from '../core/models/model.ts';
import { createOpenAIModel } from '../core/models/openai.ts';
import type { JsonObject } from '../core/types.ts';
import { delayFor, faultFor, type DelaySchedule, type FaultKind, type FaultSchedule } from './fault-schedule.ts';

export interface ScriptedReply {
  /** Assistant message content; `null` sends `content: null`. Default `'OK'`. */
  content?: string | null;
  /** HTTP status; anything but 200 sends an OpenAI-style error body. Default 200. */
  status?: number;
  /** Message of the error body for a non-200 status. */
  errorMessage?: string;
  /** Sets the `retry-after-ms` header. */
  retryAfterMs?: number;
  /** Sets the `retry-after` header (seconds). */
  retryAfterSeconds?: number;
  /** Wait this long before sending anything (headers included). */
  delayMs?: number;
  /** Send a truncated JSON body with status 200 and `content-type: application/json`. */
  malformed?: boolean;
  /** Reported usage; `null` leaves the `usage` field out. Default: a count derived from the text lengths. */
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  /** Send `choices: []`. */
  noChoices?: boolean;
  /** Send a choice without a `message`. */
  noMessage?: boolean;
  /** Send status 200 with an HTML page instead of JSON. */
  nonJson?: boolean;
  /** Destroy the connection before sending anything, or after the headers and part of the body. */
  reset?: 'before-headers' | 'mid-body';
  /** Send status 200, the headers and part of the body, then nothing more (until the client leaves). */
  stallBody?: boolean;
  /** Default `'stop'`. */
  finishReason?: string;
}

export interface RecordedRequest {
  method: string;
  /** Path and query as received, e.g. `/v1/chat/completions`. */
  path: string;
  /** The parsed JSON body (`{}` when the body was empty or not an object). */
  body: JsonObject;
  headers: {
    authorization: string | undefined;
    /** The openai client's `x-stainless-retry-count`: 0 on the first attempt, 1 on the first retry, … */
    retryCount: number | undefined;
  };
  /** Milliseconds since the server started, when the request body had arrived. */
  receivedAtMs: number;
  /** The fault the schedule injected into this attempt, if any. */
  fault?: FaultKind;
  /** The delay the delay schedule added before answering, if any. */
  delayMs?: number;
}

export interface TestServerOptions {
  /** Seeded faults per attempt. */
  faults?: FaultSchedule;
  /** Seeded delays per attempt (before the reply or the fault). */
  delays?: DelaySchedule;
}

export type Script = ScriptedReply[] | ((request: RecordedRequest, index: number) => ScriptedReply);

export interface TestModelServer {
  /** `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  /** Chat-completion requests in arrival order (404s are not recorded). */
  requests: RecordedRequest[];
  /** Highest number of chat-completion requests in progress at the same time. */
  readonly maxInFlight: number;
  /** Stops listening, cancels pending delays and destroys open sockets. Idempotent. */
  close(): Promise<void>;
}

export async function startTestModelServer(script: Script, options: TestServerOptions = {}): Promise<TestModelServer> {
  if (Array.isArray(script) && script.length === 0) throw new Error('startTestModelServer: the script is empty');
  const startedAt = performance.now();
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let maxInFlight = 0;
  let closed: Promise<void> | undefined;
  let answered = 0;

  const pick = (request: RecordedRequest, index: number): ScriptedReply =>
    typeof script === 'function'
      ? script(request, index)
      : (script[Math.min(index, script.length - 1)] as ScriptedReply);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const text = await readBody(req);
    const path = req.url ?? '/';
    if (req.method !== 'POST' || path.split('?')[0] !== '/v1/chat/completions') {
      sendJson(res, 404, errorBody(`no route for ${req.method ?? '?'} ${path}`, 'not_found'), {});
      return;
    }
    const retry = req.headers['x-stainless-retry-count'];
    const attempt = { body: text, attempt: typeof retry === 'string' ? Number(retry) || 0 : 0 };
    const fault = options.faults ? faultFor(options.faults, attempt) : null;
    const delayMs = options.delays ? delayFor(options.delays, attempt) : 0;
    const recorded: RecordedRequest = {
      method: req.method,
      path,
      body: parseObject(text),
      headers: {
        authorization: req.headers.authorization,
        retryCount: typeof retry === 'string' ? Number(retry) : undefined,
      },
      receivedAtMs: performance.now() - startedAt,
      ...(fault ? { fault } : {}),
      ...(delayMs > 0 ? { delayMs } : {}),
    };
    requests.push(recorded);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.once('close', () => inFlight--);
    // A faulted attempt does not consume a script entry: the retry gets the scripted reply.
    const reply = fault ? faultReply(fault, options.faults as FaultSchedule) : pick(recorded, answered++);
    const wait = delayMs + (reply.delayMs ?? 0);
    if (wait > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, wait);
        timers.add(timer);
        // The client gave up (timeout or abort): stop waiting, nobody reads the answer.
        res.once('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
          resolve();
        });
      });
      if (res.destroyed || res.writableEnded) return;
    }
    respond(res, recorded, reply);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed)
        sendJson(res, 500, errorBody(`test server failure: ${String(error)}`, 'server_error'), {});
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/** The scripted reply that plays a fault. */
function faultReply(kind: FaultKind, schedule: FaultSchedule): ScriptedReply {
  switch (kind) {
    case 'rate-limit':
      return {
        status: 429,
        errorMessage: 'injected rate limit',
        ...(schedule.retryAfterMs !== undefined ? { retryAfterMs: schedule.retryAfterMs } : {}),
      };
    case 'server-error':
      return { status: 500, errorMessage: 'injected server error' };
    case 'hang':
      // A hang that outlasts the client ends in a reset, never in a reply.
      return { delayMs: schedule.hangMs ?? 60_000, reset: 'before-headers' };
    case 'reset':
      return { reset: 'before-headers' };
    case 'reset-mid-body':
      return { reset: 'mid-body' };
    case 'truncated-body':
      return { malformed: true };
    case 'empty-choices':
      return { noChoices: true };
    case 'non-json-body':
      return { nonJson: true };
    case 'no-message':
      return { noMessage: true };
  }
}

function respond(res: ServerResponse, request: RecordedRequest, reply: ScriptedReply): void {
  if (reply.reset === 'before-headers') {
    res.socket?.destroy();
    return;
  }
  const status = reply.status ?? 200;
  const headers: Record<string, string> = {};
  if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = String(reply.retryAfterMs);
  if (reply.retryAfterSeconds !== undefined) headers['retry-after'] = String(reply.retryAfterSeconds);
  if (status !== 200) {
    sendJson(
      res,
      status,
      errorBody(
        reply.errorMessage ?? `scripted status ${status}`,
        status === 429 ? 'rate_limit_exceeded' : 'server_error',
      ),
      headers,
    );
    return;
  }
  if (reply.malformed) {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end('{"id":"chatcmpl-test","object":"chat.completion","choices":[{"index":0,"message":{"role":"assi');
    return;
  }
  if (reply.nonJson) {
    res.writeHead(200, { 'content-type': 'text/html', ...headers });
    res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    return;
  }
  if (reply.stallBody) {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.write('{"id":"chatcmpl-test",');
    return;
  }
  if (reply.reset === 'mid-body') {
    // A length larger than what is sent, so the client waits for the rest until the socket dies.
    const partial = '{"id":"chatcmpl-test","object":"chat.completion","choices":[{"index":0,';
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': String(partial.length * 4),
      ...headers,
    });
    res.write(partial, () => setTimeout(() => res.socket?.destroy(), 5));
    return;
  }
  const content = reply.content === undefined ? 'OK' : reply.content;
  const body: JsonObject = {
    id: `chatcmpl-test-${Math.floor(request.receivedAtMs)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: typeof request.body.model === 'string' ? request.body.model : 'test-model',
    choices: reply.noChoices
      ? []
      : reply.noMessage
        ? [{ index: 0, finish_reason: reply.finishReason ?? 'stop' }]
        : [{ index: 0, finish_reason: reply.finishReason ?? 'stop', message: { role: 'assistant', content } }],
  };
  if (reply.usage !== null) {
    const usage = reply.usage ?? defaultUsage(request.body, content ?? '');
    body.usage = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
  }
  sendJson(res, 200, body, headers);
}

function defaultUsage(body: JsonObject, content: string): { prompt_tokens: number; completion_tokens: number } {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let promptChars = 0;
  for (const message of messages) {
    if (message && typeof message === 'object' && !Array.isArray(message) && typeof message.content === 'string') {
      promptChars += message.content.length;
    }
  }
  return { prompt_tokens: 1 + Math.ceil(promptChars / 4), completion_tokens: 1 + Math.ceil(content.length / 4) };
}

function errorBody(message: string, type: string): JsonObject {
  return { error: { message, type, param: null, code: type } };
}

function sendJson(res: ServerResponse, status: number, body: JsonObject, headers: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseObject(text: string): JsonObject {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
  } catch {
    return {};
  }
}

/** The real `openai` client over HTTP to a scripted server: no retries, a 5 s timeout, two requests at once unless told. */
export function scriptedModel(
  server: Pick<TestModelServer, 'baseURL'>,
  options: { concurrency?: number; timeoutMs?: number; maxRetries?: number } = {},
): ChatModel {
  return createOpenAIModel({
    model: 'scripted',
    baseURL: server.baseURL,
    apiKey: 'sk-test',
    timeoutMs: options.timeoutMs ?? 5000,
    maxRetries: options.maxRetries ?? 0,
    concurrency: options.concurrency ?? 2,
  });
}
