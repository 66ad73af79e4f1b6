/** Parsing the agent's one-JSON-action replies: what is accepted, and the errors the agent is shown. */
import { describe, expect, it } from 'vitest';
import { MAX_READ_LIMIT, parseAction } from './actions.ts';

describe('parseAction', () => {
  it('accepts a bare object, a single fenced block, or an object inside prose', () => {
    expect(parseAction('{"action":"list","path":"candidates"}')).toEqual({
      ok: true,
      action: { action: 'list', path: 'candidates' },
    });
    expect(parseAction('Reading it now.\n```json\n{"action":"read","path":"a.json","offset":3}\n```')).toEqual({
      ok: true,
      action: { action: 'read', path: 'a.json', offset: 3, limit: 200 },
    });
    expect(parseAction('I will finish: {"action":"done"} thanks')).toEqual({ ok: true, action: { action: 'done' } });
    expect(parseAction('{"action":"grep","pattern":"x+"}')).toEqual({
      ok: true,
      action: { action: 'grep', pattern: 'x+', path: '.' },
    });
  });

  it.each([
    ['no JSON at all', 'I am thinking about it.', /holds no JSON object/],
    ['two fenced blocks', '```json\n{"action":"done"}\n```\n```json\n{"action":"done"}\n```', /holds no JSON object/],
    ['broken JSON', '{"action":"read", "path": }', /not valid JSON/],
    ['an array', '[{"action":"done"}]', /must be one JSON object, not an array/],
    ['an unknown action', '{"action":"delete","path":"x"}', /unknown action "delete".*list, read, grep, write, done/],
    ['a read without path', '{"action":"read"}', /"read" needs "path"/],
    ['a negative offset', '{"action":"read","path":"a","offset":-1}', /"offset"/],
    [
      'a huge limit',
      `{"action":"read","path":"a","limit":${MAX_READ_LIMIT + 1}}`,
      /"limit" \(an integer from 1 to 1000/,
    ],
    ['a write without content', '{"action":"write","path":"a"}', /"write" needs "content"/],
    ['an empty grep pattern', '{"action":"grep","pattern":""}', /"grep" needs "pattern"/],
  ])('refuses %s', (_name, reply, error) => {
    const parsed = parseAction(reply);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error).toMatch(error);
  });
});
