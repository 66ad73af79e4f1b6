/**
 * The JSON-lines protocol between the host and a sandboxed harness (child/runner.mjs). The child
 * sends `hello` as it starts (before any candidate code loads), requests (`answer`, `chat`, `observe`, `describe`, `extract`, `remaining`, each with an id),
 * one-way `log` entries, `ready` once the module loaded, and ends with `done` or `error`. The host
 * answers each request with `result` or `error`. Every child line is parsed here; anything else is
 * a protocol violation.
 */
import type { ChatMessage, Json, JsonObject } from '../../core/types.ts';
import { nestsDeeperThan } from '../../core/json-scan.ts';

export const CHAT_PURPOSES = ['refine', 'judge', 'reflect', 'memory'] as const;
export type HarnessCallPurpose = (typeof CHAT_PURPOSES)[number];

export type ChildRequest =
  | { id: number; type: 'answer'; system: string | null }
  | { id: number; type: 'chat'; messages: ChatMessage[]; purpose: HarnessCallPurpose }
  | { id: number; type: 'observe'; program: string }
  | { id: number; type: 'describe' }
  | { id: number; type: 'extract'; reply: string }
  | { id: number; type: 'remaining' };

export type ChildMessage =
  | ChildRequest
  | { type: 'hello' }
  | { type: 'ready'; name: string; memory: boolean }
  | { type: 'log'; entry: JsonObject }
  | { type: 'done'; program: string | null; rationale: string; memory?: JsonObject }
  | { type: 'error'; message: string; code: string | null; name: string | null };

/** Error kinds the host answers a request with (the SDK turns them into typed errors). */
export type HostErrorKind = 'budget' | 'usage' | 'model';

export type HostMessage =
  | { type: 'start'; task: JsonObject; memory: JsonObject; budgets: JsonObject }
  | { id: number; type: 'result'; value: Json }
  | { id: number; type: 'error'; error: { kind: HostErrorKind; message: string; resource?: string } };

/** Longest line the host accepts from a child (1 MiB). */
export const MAX_LINE_BYTES = 1024 * 1024;

/** Deepest nesting of arrays and objects a child's message may have (a log entry, the memory). */
export const MAX_MESSAGE_DEPTH = 64;

/** Longest name a harness may declare; a longer one is cut. */
const MAX_NAME_CHARS = 200;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isMessage = (value: unknown): value is ChatMessage =>
  isObject(value) &&
  (value.role === 'system' || value.role === 'user' || value.role === 'assistant') &&
  typeof value.content === 'string';

/** Parses one line from the child; a string result says what is wrong with it. The depth is checked before JSON.parse. */
export function parseChildLine(line: string): ChildMessage | string {
  if (nestsDeeperThan(line, MAX_MESSAGE_DEPTH)) return `a message nested more than ${MAX_MESSAGE_DEPTH} levels deep`;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return `not JSON: ${JSON.stringify(line.slice(0, 120))}`;
  }
  if (!isObject(value)) return 'not a JSON object';
  const id = value.id;
  const hasId = typeof id === 'number' && Number.isInteger(id) && id > 0;
  switch (value.type) {
    case 'answer':
      if (!hasId) return 'answer without an id';
      if (value.system !== null && typeof value.system !== 'string') return 'answer: system must be a string';
      return { id, type: 'answer', system: value.system };
    case 'chat':
      if (!hasId) return 'chat without an id';
      if (!Array.isArray(value.messages) || value.messages.length === 0 || !value.messages.every(isMessage))
        return 'chat: messages must be a non-empty list of {role, content}';
      if (!(CHAT_PURPOSES as readonly unknown[]).includes(value.purpose))
        return `chat: purpose must be one of ${CHAT_PURPOSES.join(', ')}`;
      return {
        id,
        type: 'chat',
        messages: value.messages.map((m) => ({ role: m.role, content: m.content })),
        purpose: value.purpose as HarnessCallPurpose,
      };
    case 'observe':
      if (!hasId || typeof value.program !== 'string') return 'observe needs an id and a program';
      return { id, type: 'observe', program: value.program };
    case 'extract':
      if (!hasId || typeof value.reply !== 'string') return 'extract needs an id and a reply';
      return { id, type: 'extract', reply: value.reply };
    case 'describe':
    case 'remaining':
      if (!hasId) return `${value.type} without an id`;
      return { id, type: value.type };
    case 'hello':
      return { type: 'hello' };
    case 'ready':
      return {
        type: 'ready',
        name: typeof value.name === 'string' ? value.name.slice(0, MAX_NAME_CHARS) : '',
        memory: value.memory === true,
      };
    case 'log':
      return {
        type: 'log',
        entry: isObject(value.entry) ? (value.entry as JsonObject) : { text: String(value.entry) },
      };
    case 'done':
      if (value.program !== null && typeof value.program !== 'string') return 'done: program must be a string or null';
      if (value.memory !== undefined && !isObject(value.memory)) return 'done: memory must be a JSON object';
      return {
        type: 'done',
        program: value.program,
        rationale: typeof value.rationale === 'string' ? value.rationale : '',
        ...(value.memory !== undefined ? { memory: value.memory as JsonObject } : {}),
      };
    case 'error':
      return {
        type: 'error',
        message: String(value.message ?? 'unknown error'),
        code: typeof value.code === 'string' ? value.code : null,
        name: typeof value.name === 'string' ? value.name : null,
      };
    default:
      return `unknown message type ${JSON.stringify(value.type)}`;
  }
}
