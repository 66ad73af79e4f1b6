import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brokenReplyProblem } from './reply-body.ts';

const completion = fc.record({
  id: fc.string(),
  choices: fc.array(
    fc.record({
      index: fc.nat(),
      finish_reason: fc.constantFrom('stop', 'length', 'content_filter'),
      message: fc.record({ role: fc.constant('assistant'), content: fc.option(fc.string(), { nil: null }) }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

describe('brokenReplyProblem', () => {
  it('accepts every chat completion with a first choice and a message, empty or null content included', () => {
    fc.assert(
      fc.property(completion, (value) => {
        expect(brokenReplyProblem(JSON.stringify(value), 'application/json')).toBeNull();
      }),
    );
  });

  it('flags every truncation of a completion as broken', () => {
    fc.assert(
      fc.property(completion, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (value, at) => {
        const text = JSON.stringify(value);
        const cut = text.slice(0, Math.floor(at * text.length));
        expect(brokenReplyProblem(cut, 'application/json')).not.toBeNull();
      }),
    );
  });

  it('names what is wrong', () => {
    expect(brokenReplyProblem('', 'application/json')).toBe('an empty body');
    expect(brokenReplyProblem('{"choices":[{"mess', 'application/json')).toMatch(
      /^truncated or malformed JSON \(SyntaxError/,
    );
    expect(brokenReplyProblem('<html>502 Bad Gateway</html>', 'text/html')).toBe(
      'a body that is not JSON (text/html: <html>502 Bad Gateway</html>)',
    );
    expect(brokenReplyProblem('"ok"', null)).toBe('JSON that is not a chat completion (string)');
    expect(brokenReplyProblem('{"choices":[]}', null)).toBe('no choices');
    expect(brokenReplyProblem('{"error":{"message":"upstream overloaded"}}', null)).toBe(
      'no choices; its error says: upstream overloaded',
    );
    expect(brokenReplyProblem('{"choices":[{"index":0}]}', null)).toBe('a choice without a message');
    expect(brokenReplyProblem('{"choices":[{"message":{"content":[{"type":"text"}]}}]}', null)).toBe(
      'a message whose content is not text (an array)',
    );
    expect(brokenReplyProblem('{"choices":[{"message":{"content":null,"refusal":"no"}}]}', null)).toBeNull();
  });
});
