/**
 * A ChatModel over any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama, …),
 * through the official `openai` client.
 *
 * Time limits: `timeoutMs` bounds each attempt (body included); the client retries transient
 * failures (429, 408, 409, 5xx, timeouts and connection failures) with its own exponential backoff
 * and jitter, at most `maxRetries` times (`0` is exactly one attempt) and, with `retryBudgetMs`,
 * only while the call has run less than that (the way inspect_ai retries until a time limit rather
 * than a small count): no retry starts past the budget, and a server's wait that would end past it
 * is not taken. The optional `deadlineMs` caps the wall-clock time of the whole call. The budget,
 * the deadline and `latencyMs` start when the call gets a concurrency slot, so waiting in the queue
 * counts against none of them.
 *
 * Broken 200 replies — a truncated or non-JSON body, no choices, a choice without a message, a
 * connection reset in the middle of the body — are transient too: the body is read and checked
 * inside the attempt, and a broken one is handed to the client as a retryable failure, so the
 * client's own retry loop, backoff and `maxRetries` budget serve both kinds (never more than
 * `maxRetries + 1` attempts in all) and the deadline covers them. A message with no text
 * (`content: ""`, or `null` with a refusal or a tool call) is a valid reply that says nothing.
 *
 * Every failure leaves as a ModelCallError whose message names the failure, the endpoint and the
 * model; the API key is scrubbed from messages.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { ModelInfo, Usage } from '../types.ts';
import { createLimiter } from './limiter.ts';
import { ModelCallError, estimateTokens } from './model.ts';
import { brokenReplyProblem } from './reply-body.ts';
import type { ChatModel, ChatReply, ChatRequest } from './model.ts';

export const DEFAULT_OPENAI_ENDPOINT = 'https://api.openai.com/v1';
/** The key sent to a custom `baseURL` when none is configured (local servers accept any key). */
export const PLACEHOLDER_API_KEY = 'unused';

export interface OpenAIModelOptions {
  model: string;
  /** Endpoint root ending in `/v1` (a trailing slash is dropped); default {@link DEFAULT_OPENAI_ENDPOINT}. */
  baseURL?: string;
  /**
   * Required without `baseURL` (createModel reads it from the variable named by `model.apiKeyEnv`).
   * With a `baseURL` and no key, {@link PLACEHOLDER_API_KEY} is sent (no key is sent to a custom
   * endpoint implicitly).
   */
  apiKey?: string;
  /** The variable the key comes from, named when it is missing (default OPENAI_API_KEY). */
  apiKeyEnv?: string;
  temperature?: number;
  seed?: number;
  /** Sent as `max_tokens` (the field vLLM, Ollama and most compatible servers read). */
  maxTokens?: number;
  /** Per attempt, in milliseconds. */
  timeoutMs: number;
  maxRetries: number;
  concurrency: number;
  /** Wall-clock cap for the whole call, retries and backoff included. */
  deadlineMs?: number;
  /** No retry starts once the call has run this long (attempts and backoff); the attempt in flight keeps its `timeoutMs`. */
  retryBudgetMs?: number;
}

/** Invalid model configuration (missing key, bad limits). Thrown at construction, before any call. */
export class ModelConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelConfigError';
  }
}

export function createOpenAIModel(options: OpenAIModelOptions): ChatModel {
  validate(options);
  // Trailing slashes dropped so `…/v1` and `…/v1/` name one endpoint (it is part of the cache key).
  const endpoint = (options.baseURL ?? DEFAULT_OPENAI_ENDPOINT).replace(/\/+$/, '');
  const apiKey = resolveApiKey(options);
  const { model, timeoutMs, maxRetries, deadlineMs, retryBudgetMs } = options;
  const attempts = new AsyncLocalStorage<CallState>();
  const client = new OpenAI({
    baseURL: endpoint,
    apiKey,
    maxRetries,
    timeout: timeoutMs,
    // Sees every HTTP attempt of a call (the async context follows the client's retry loop).
    fetch: async (input, init) => {
      const state = attempts.getStore();
      if (state) {
        // A retry the client scheduled (after its backoff) that would start past the budget is not sent.
        if (state.attempts > 0 && pastRetryEnd(state, 0)) throw stopRetrying(state);
        state.attempts++;
      }
      try {
        let response = await fetch(input, init);
        if (!response.ok) {
          if (state) state.lastFailure = `HTTP ${response.status}`;
        } else response = await checkedReply(response, state);
        return state && !response.ok ? refuseRetryPastEnd(response, state, maxRetries) : response;
      } catch (error) {
        if (state && !state.stopped) {
          state.lastFailure = attemptFailure(error, timeoutMs);
          // The client retries a connection failure or a timeout while it has retries left.
          if (state.attempts <= maxRetries && pastRetryEnd(state, 0)) stopRetrying(state);
        }
        throw error;
      }
    },
  });
  const limiter = createLimiter(options.concurrency);
  const info: ModelInfo = { name: model, endpoint, privileged: false };
  if (options.temperature !== undefined) info.temperature = options.temperature;
  if (options.seed !== undefined) info.seed = options.seed;
  const fail = (what: string, cause: unknown, tries: number): ModelCallError => {
    const tried = `, ${tries} attempt${tries === 1 ? '' : 's'}`;
    const message = `model "${model}" at ${endpoint} failed: ${what} (maxRetries ${maxRetries}${tried})`;
    return new ModelCallError(scrub(message, apiKey), scrubCause(cause, apiKey));
  };

  const call = async (request: ChatRequest): Promise<ChatReply> => {
    const started = performance.now();
    const controller = new AbortController();
    let deadlineHit = false;
    const timer =
      deadlineMs === undefined
        ? undefined
        : setTimeout(() => {
            deadlineHit = true;
            controller.abort(new Error(`deadline of ${deadlineMs} ms exceeded`));
          }, deadlineMs);
    const onCallerAbort = (): void => controller.abort(request.signal?.reason);
    request.signal?.addEventListener('abort', onCallerAbort, { once: true });
    if (request.signal?.aborted) onCallerAbort();
    const state: CallState = {
      attempts: 0,
      ...retryEnd(started, retryBudgetMs, deadlineMs),
      abort: (reason) => controller.abort(reason),
    };
    const body: ChatCompletionCreateParamsNonStreaming = {
      model,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    };
    if (options.temperature !== undefined) body.temperature = options.temperature;
    if (options.seed !== undefined) body.seed = options.seed;
    if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
    let completion: ChatCompletion;
    try {
      const pending = attempts.run(state, () =>
        client.chat.completions.create(body, { signal: controller.signal, timeout: timeoutMs, maxRetries }),
      );
      // The client's backoff sleep between retries does not watch the signal (a `retry-after: 60`
      // would hold the call for a minute), so the abort also settles the call itself. The
      // abandoned attempt sees the aborted signal when it wakes and sends nothing.
      const aborted = rejectOnAbort(controller.signal);
      for (const p of [pending, aborted]) p.catch(() => undefined);
      completion = await Promise.race([pending, aborted]);
    } catch (error) {
      const lastFailure = state.lastFailure ? ` (the last failed attempt: ${state.lastFailure})` : '';
      let what = deadlineHit
        ? `deadline of ${deadlineMs} ms exceeded${lastFailure}`
        : request.signal?.aborted
          ? 'aborted by the caller'
          : state.stopped
            ? `retries stopped: the ${state.retryEndName} is spent${lastFailure}`
            : describeError(error, timeoutMs);
      if (state.refusedWaitMs !== undefined && !deadlineHit) {
        what += `; not retried: the server asked to wait ${state.refusedWaitMs} ms, past the ${state.retryEndName}`;
      }
      throw fail(what, error, state.attempts);
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onCallerAbort);
    }
    return toReply(completion, request, performance.now() - started);
  };

  return {
    info,
    complete(request) {
      return limiter
        .run(() => call(request), request.signal)
        .catch((error: unknown) => {
          // Outside `call` only the limiter rejects: the caller aborted while the call was queued.
          if (error instanceof ModelCallError || !request.signal?.aborted) throw error;
          throw fail('aborted by the caller before the request was sent', error, 0);
        });
    },
    async close() {
      // The client holds no resources beyond pooled keep-alive sockets, which time out on their own.
    },
  };
}

interface CallState {
  attempts: number;
  /** What went wrong with the latest failed attempt, for the deadline's message. */
  lastFailure?: string;
  /** `performance.now()` time after which no retry starts: the end of the retry budget, else the deadline. */
  retryEndsAt: number | undefined;
  /** That limit in a message: "600000 ms retry budget" or "240000 ms deadline". */
  retryEndName: string;
  /** Ends the call (its abort signal), with the reason. */
  abort: (reason: Error) => void;
  /** Set when the retry time (the budget, else the deadline) ended the call. */
  stopped?: boolean;
  /** Set when a retry was refused because the server's retry-after outlasted the budget or deadline. */
  refusedWaitMs?: number;
}

/** When retries end for a call started at `started`: the budget's end, else the deadline (none without either). */
function retryEnd(
  started: number,
  retryBudgetMs: number | undefined,
  deadlineMs: number | undefined,
): Pick<CallState, 'retryEndsAt' | 'retryEndName'> {
  if (retryBudgetMs !== undefined)
    return { retryEndsAt: started + retryBudgetMs, retryEndName: `${retryBudgetMs} ms retry budget` };
  if (deadlineMs !== undefined) return { retryEndsAt: started + deadlineMs, retryEndName: `${deadlineMs} ms deadline` };
  return { retryEndsAt: undefined, retryEndName: '' };
}

/** Whether a retry after a wait of `waitMs` from now would start past the call's retry end. */
function pastRetryEnd(state: CallState, waitMs: number): boolean {
  return state.retryEndsAt !== undefined && performance.now() + waitMs >= state.retryEndsAt;
}

/** Ends the call because its retry time is spent: the client sees its signal aborted and retries no more. */
function stopRetrying(state: CallState): Error {
  const reason = new Error(`the ${state.retryEndName} is spent`);
  state.stopped = true;
  state.abort(reason);
  return reason;
}

/** Whether the client retries this failed response (its own rule: `x-should-retry`, else 408, 409, 429, 5xx). */
function clientRetries(response: Response): boolean {
  const said = response.headers.get('x-should-retry');
  if (said === 'true' || said === 'false') return said === 'true';
  return [408, 409, 429].includes(response.status) || response.status >= 500;
}

/**
 * A failed response the client would retry is marked `x-should-retry: false` when the retry would
 * start past the call's retry end: the retry time is spent already, or the wait the server asks for
 * (`retry-after-ms` / `retry-after`, as the client reads them) ends past it. The call then fails at
 * once with the server's own error instead of sleeping into a certain failure.
 */
function refuseRetryPastEnd(response: Response, state: CallState, maxRetries: number): Response {
  if (state.retryEndsAt === undefined || state.attempts > maxRetries || !clientRetries(response)) return response;
  const ms = Number.parseFloat(response.headers.get('retry-after-ms') ?? '');
  const seconds = Number.parseFloat(response.headers.get('retry-after') ?? '');
  const wait = Number.isFinite(ms) ? ms : Number.isFinite(seconds) ? seconds * 1000 : undefined;
  if (pastRetryEnd(state, 0)) state.stopped = true;
  else if (wait !== undefined && pastRetryEnd(state, wait)) state.refusedWaitMs = Math.round(wait);
  else return response;
  const headers = new Headers(response.headers);
  headers.set('x-should-retry', 'false');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** An attempt's failure as the deadline's message names it. */
function attemptFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
    return `no complete reply within ${timeoutMs} ms`;
  return `connection failed (${error instanceof Error ? error.message : String(error)})`;
}

/** Marks the failure {@link checkedReply} makes of a broken 200 body. */
const INVALID_REPLY_HEADER = 'x-witness-invalid-reply';

/**
 * Reads a 200 body within the attempt (so the per-attempt timeout and the abort cover it, and a
 * reset mid-body fails the attempt as a connection error, which the client retries). A broken body
 * becomes a retryable 502 naming the problem; a good one is handed on as JSON.
 */
async function checkedReply(response: Response, state: CallState | undefined): Promise<Response> {
  const text = await response.text();
  const problem = brokenReplyProblem(text, response.headers.get('content-type'));
  if (problem === null) {
    const headers = new Headers(response.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    headers.set('content-type', 'application/json');
    return new Response(text, { status: response.status, statusText: response.statusText, headers });
  }
  const message = `the endpoint answered HTTP 200 with ${problem}`;
  if (state) state.lastFailure = message;
  return new Response(JSON.stringify({ error: { message, type: 'invalid_reply' } }), {
    status: 502,
    headers: { 'content-type': 'application/json', 'x-should-retry': 'true', [INVALID_REPLY_HEADER]: '1' },
  });
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fire = (): void => reject(signal.reason);
    if (signal.aborted) fire();
    else signal.addEventListener('abort', fire, { once: true });
  });
}

function toReply(completion: ChatCompletion, request: ChatRequest, latencyMs: number): ChatReply {
  // checkedReply let through only completions with a first choice and a message.
  const choice = completion.choices[0] as ChatCompletion.Choice;
  const message = choice.message;
  const refusal = typeof message.refusal === 'string' ? message.refusal : '';
  // No text (null content, a refusal or a tool call we did not ask for) is an answer that says nothing.
  const content = typeof message.content === 'string' ? message.content : refusal;
  const finishReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined;
  return { content, usage: readUsage(completion.usage, request, content), latencyMs, cached: false, finishReason };
}

function readUsage(reported: unknown, request: ChatRequest, content: string): Usage {
  const u = reported as { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined;
  if (u && typeof u.prompt_tokens === 'number' && typeof u.completion_tokens === 'number') {
    return { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens };
  }
  const promptTokens = request.messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
  return { promptTokens, completionTokens: estimateTokens(content), estimated: true };
}

/** One line naming the failure: status and error class for HTTP errors, the kind otherwise. */
function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return `request timed out after ${timeoutMs} ms per attempt (APIConnectionTimeoutError)`;
  }
  if (error instanceof OpenAI.APIUserAbortError) return 'request aborted (APIUserAbortError)';
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `connection failed (APIConnectionError: ${error.message}${cause})`;
  }
  if (error instanceof OpenAI.APIError && error.headers?.get(INVALID_REPLY_HEADER)) {
    const said = (error.error as { message?: unknown } | undefined)?.message;
    return `invalid reply: ${typeof said === 'string' ? said : error.message}`;
  }
  if (error instanceof OpenAI.APIError) {
    const label = error.status === 429 ? 'rate limited: ' : '';
    return `${label}HTTP ${error.status ?? '?'} (${error.constructor.name}): ${error.message}`;
  }
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `non-error thrown: ${String(error)}`;
}

function validate(options: OpenAIModelOptions): void {
  const where = `openai model "${options.model}"`;
  if (typeof options.model !== 'string' || options.model.trim() === '') {
    throw new ModelConfigError('openai model: `model` must be a non-empty string');
  }
  if (!Number.isInteger(options.timeoutMs) || options.timeoutMs <= 0) {
    throw new ModelConfigError(`${where}: timeoutMs must be a positive integer, got ${String(options.timeoutMs)}`);
  }
  if (!Number.isInteger(options.maxRetries) || options.maxRetries < 0) {
    throw new ModelConfigError(`${where}: maxRetries must be an integer >= 0, got ${String(options.maxRetries)}`);
  }
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new ModelConfigError(`${where}: concurrency must be an integer >= 1, got ${String(options.concurrency)}`);
  }
  if (options.deadlineMs !== undefined && !(Number.isFinite(options.deadlineMs) && options.deadlineMs > 0)) {
    throw new ModelConfigError(`${where}: deadlineMs must be a positive number, got ${String(options.deadlineMs)}`);
  }
  if (options.retryBudgetMs !== undefined && !(Number.isFinite(options.retryBudgetMs) && options.retryBudgetMs >= 0)) {
    throw new ModelConfigError(`${where}: retryBudgetMs must be a number >= 0, got ${String(options.retryBudgetMs)}`);
  }
  if (options.baseURL !== undefined && !URL.canParse(options.baseURL)) {
    throw new ModelConfigError(`${where}: baseURL is not a URL: ${options.baseURL}`);
  }
}

function resolveApiKey(options: OpenAIModelOptions): string {
  if (options.apiKey) return options.apiKey;
  if (options.baseURL !== undefined) return PLACEHOLDER_API_KEY;
  throw new ModelConfigError(
    `openai model "${options.model}": no API key for ${DEFAULT_OPENAI_ENDPOINT}. Set ${options.apiKeyEnv ?? 'OPENAI_API_KEY'}, ` +
      'or set a baseURL for a local OpenAI-compatible server (vLLM, Ollama), which needs no key.',
  );
}

function scrub(text: string, apiKey: string): string {
  if (apiKey === PLACEHOLDER_API_KEY || apiKey.length < 4) return text;
  return text.split(apiKey).join('[redacted]');
}

/** Keeps the original error for debugging unless its message would leak the key. */
function scrubCause(cause: unknown, apiKey: string): unknown {
  if (cause instanceof Error && scrub(cause.message, apiKey) !== cause.message) {
    const safe = new Error(scrub(cause.message, apiKey));
    safe.name = cause.name;
    return safe;
  }
  return cause;
}
