/**
 * A ChatModel over any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama, …),
 * through the official `openai` client.
 *
 * Time limits: `timeoutMs` bounds each attempt, the client retries `maxRetries` times (429, 408,
 * 409, 5xx and timeouts; `maxRetries: 0` is exactly one attempt), and the optional `deadlineMs`
 * caps the wall-clock time of the whole call across retries. The deadline and `latencyMs` start
 * when the call gets a concurrency slot, so waiting in the queue does not count against either.
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
import type { ChatModel, ChatReply, ChatRequest } from './model.ts';

export const DEFAULT_OPENAI_ENDPOINT = 'https://api.openai.com/v1';
/** The key sent to a custom `baseURL` when none is configured (local servers accept any key). */
export const PLACEHOLDER_API_KEY = 'unused';

export interface OpenAIModelOptions {
  model: string;
  /** Endpoint root ending in `/v1` (a trailing slash is dropped); default {@link DEFAULT_OPENAI_ENDPOINT}. */
  baseURL?: string;
  /**
   * Without `baseURL`, falls back to `OPENAI_API_KEY` and fails when neither is set. With a
   * `baseURL` and no key, {@link PLACEHOLDER_API_KEY} is sent (the environment key is never sent to
   * a custom endpoint implicitly).
   */
  apiKey?: string;
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
  const { model, timeoutMs, maxRetries, deadlineMs } = options;
  const attempts = new AsyncLocalStorage<CallState>();
  const client = new OpenAI({
    baseURL: endpoint,
    apiKey,
    maxRetries,
    timeout: timeoutMs,
    // Sees every HTTP attempt of a call (the async context follows the client's retry loop).
    fetch: async (input, init) => {
      const state = attempts.getStore();
      if (state) state.attempts++;
      const response = await fetch(input, init);
      return state ? refuseRetryPastDeadline(response, state) : response;
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
    const state: CallState = { attempts: 0, deadlineAt: deadlineMs === undefined ? undefined : started + deadlineMs };
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
      let what = deadlineHit
        ? `deadline of ${deadlineMs} ms exceeded`
        : request.signal?.aborted
          ? 'aborted by the caller'
          : describeError(error, timeoutMs);
      if (state.refusedWaitMs !== undefined && !deadlineHit) {
        what += `; not retried: the server asked to wait ${state.refusedWaitMs} ms, past the ${deadlineMs} ms deadline`;
      }
      throw fail(what, error, state.attempts);
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onCallerAbort);
    }
    const latencyMs = performance.now() - started;
    return toReply(completion, request, latencyMs, (what) => fail(what, undefined, state.attempts));
  };

  return {
    info,
    complete(request) {
      return limiter.run(() => call(request), request.signal).catch((error: unknown) => {
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
  /** `performance.now()` time at which the call's deadline fires. */
  deadlineAt: number | undefined;
  /** Set when a retry was refused because the server's retry-after outlasted the deadline. */
  refusedWaitMs?: number;
}

/**
 * When the server asks for a wait (`retry-after-ms` / `retry-after`, as the client reads them) that
 * ends past the deadline, marks the response `x-should-retry: false`: the call then fails at once
 * with the server's own error instead of sleeping into a certain deadline failure.
 */
function refuseRetryPastDeadline(response: Response, state: CallState): Response {
  if (state.deadlineAt === undefined || response.ok) return response;
  const ms = Number.parseFloat(response.headers.get('retry-after-ms') ?? '');
  const seconds = Number.parseFloat(response.headers.get('retry-after') ?? '');
  const wait = Number.isFinite(ms) ? ms : Number.isFinite(seconds) ? seconds * 1000 : undefined;
  if (wait === undefined || performance.now() + wait < state.deadlineAt) return response;
  state.refusedWaitMs = Math.round(wait);
  const headers = new Headers(response.headers);
  headers.set('x-should-retry', 'false');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fire = (): void => reject(signal.reason);
    if (signal.aborted) fire();
    else signal.addEventListener('abort', fire, { once: true });
  });
}

function toReply(
  completion: ChatCompletion,
  request: ChatRequest,
  latencyMs: number,
  fail: (what: string) => ModelCallError,
): ChatReply {
  // A body that is not JSON at all arrives as a string; one without choices as an object.
  if (completion === null || typeof completion !== 'object') {
    throw fail(`the response body is not a chat completion (got ${completion === null ? 'null' : typeof completion})`);
  }
  const choices: unknown = (completion as { choices?: unknown }).choices;
  if (!Array.isArray(choices) || choices.length === 0) throw fail('the response has no choices');
  const choice = choices[0] as ChatCompletion.Choice;
  const content: unknown = choice?.message?.content;
  const finishReason = typeof choice?.finish_reason === 'string' ? choice.finish_reason : undefined;
  if (typeof content !== 'string') {
    const refusal = choice?.message?.refusal;
    throw fail(
      `the response has no message content (finish_reason ${finishReason ?? 'missing'}${refusal ? `, refusal: ${refusal}` : ''})`,
    );
  }
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
  if (error instanceof OpenAI.APIError) {
    const label = error.status === 429 ? 'rate limited: ' : '';
    return `${label}HTTP ${error.status ?? '?'} (${error.constructor.name}): ${error.message}`;
  }
  if (error instanceof SyntaxError) return `malformed JSON in the response body (SyntaxError: ${error.message})`;
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
  if (options.baseURL !== undefined && !URL.canParse(options.baseURL)) {
    throw new ModelConfigError(`${where}: baseURL is not a URL: ${options.baseURL}`);
  }
}

function resolveApiKey(options: OpenAIModelOptions): string {
  if (options.apiKey) return options.apiKey;
  if (options.baseURL !== undefined) return PLACEHOLDER_API_KEY;
  const fromEnv = process.env.OPENAI_API_KEY;
  if (fromEnv) return fromEnv;
  throw new ModelConfigError(
    `openai model "${options.model}": no API key for ${DEFAULT_OPENAI_ENDPOINT}. Set OPENAI_API_KEY, ` +
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
