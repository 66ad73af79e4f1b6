/**
 * The agent proposer's action protocol: one JSON object per reply, no native function calling.
 * Parsing is pure: a reply is either one valid action or an error message the agent is shown.
 */

export type ProposerAction =
  | { action: 'list'; path: string }
  | { action: 'read'; path: string; offset: number; limit: number }
  | { action: 'grep'; pattern: string; path: string }
  | { action: 'write'; path: string; content: string }
  | { action: 'done' };

export const ACTION_NAMES = ['list', 'read', 'grep', 'write', 'done'] as const;

/** Lines a read returns when no limit is given, and at most. */
export const DEFAULT_READ_LIMIT = 200;
export const MAX_READ_LIMIT = 1000;

export type ParsedAction = { ok: true; action: ProposerAction } | { ok: false; error: string };

/**
 * The one action in a reply: the whole reply as JSON, or the single ```json fenced block in it.
 * Anything else (no JSON, several objects, an unknown action, a missing or mistyped field) is an error.
 */
export function parseAction(reply: string): ParsedAction {
  const text = jsonText(reply);
  if (text === null)
    return {
      ok: false,
      error: 'the reply holds no JSON object: send exactly one action, e.g. {"action":"list","path":"."}',
    };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      error: `the reply is not valid JSON (${(error as Error).message}): send exactly one action object`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, error: 'the action must be one JSON object, not an array or a value' };
  return checkAction(value as Record<string, unknown>);
}

function jsonText(reply: string): string | null {
  const trimmed = reply.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return trimmed;
  const fences = [...trimmed.matchAll(/```(?:json)?[ \t]*\n([\s\S]*?)\n?```/g)];
  if (fences.length === 1) return (fences[0]?.[1] ?? '').trim();
  if (fences.length > 1) return null;
  const start = trimmed.indexOf('{');
  const end = trimmed.lastIndexOf('}');
  return start >= 0 && end > start ? trimmed.slice(start, end + 1) : null;
}

function checkAction(value: Record<string, unknown>): ParsedAction {
  const name = value.action;
  const str = (key: string): string | undefined =>
    typeof value[key] === 'string' ? (value[key] as string) : undefined;
  const missing = (key: string, what = 'a string') => ({
    ok: false as const,
    error: `"${String(name)}" needs "${key}" (${what})`,
  });
  switch (name) {
    case 'list':
      return { ok: true, action: { action: 'list', path: str('path') ?? '.' } };
    case 'read': {
      const path = str('path');
      if (path === undefined) return missing('path');
      const offset = value.offset ?? 0;
      const limit = value.limit ?? DEFAULT_READ_LIMIT;
      if (!Number.isInteger(offset) || (offset as number) < 0)
        return missing('offset', 'an integer ≥ 0, the first line, 0-based');
      if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_READ_LIMIT)
        return missing('limit', `an integer from 1 to ${MAX_READ_LIMIT}, lines to return`);
      return { ok: true, action: { action: 'read', path, offset: offset as number, limit: limit as number } };
    }
    case 'grep': {
      const pattern = str('pattern');
      if (pattern === undefined || pattern === '') return missing('pattern', 'a non-empty regular expression');
      return { ok: true, action: { action: 'grep', pattern, path: str('path') ?? '.' } };
    }
    case 'write': {
      const path = str('path');
      const content = str('content');
      if (path === undefined) return missing('path');
      if (content === undefined) return missing('content', 'the whole file as a string');
      return { ok: true, action: { action: 'write', path, content } };
    }
    case 'done':
      return { ok: true, action: { action: 'done' } };
    default:
      return {
        ok: false,
        error: `unknown action ${JSON.stringify(name) ?? 'undefined'}: "action" must be one of ${ACTION_NAMES.join(', ')}`,
      };
  }
}
