/** The host's framing of a child's output and the nesting check that runs before JSON.parse. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../core/json-scan.ts';
import { LineFramer } from './frame.ts';
import { MAX_MESSAGE_DEPTH, parseChildLine } from './protocol.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const roomy = { maxLineBytes: 1024, maxTotalBytes: 1 << 20 };

describe('LineFramer', () => {
  it('gives the same lines however the bytes are cut into chunks (multi-byte characters included)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !s.includes('\n')),
          { maxLength: 8 },
        ),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }),
        (lines, cuts) => {
          const all = bytes(lines.map((l) => `${l}\n`).join(''));
          const framer = new LineFramer(roomy);
          const seen: string[] = [];
          let at = 0;
          for (let i = 0; at < all.length; i++) {
            const size = cuts[i % cuts.length] as number;
            seen.push(...framer.push(all.subarray(at, at + size)).lines);
            at += size;
          }
          expect(seen).toEqual(lines);
        },
      ),
    );
  });

  it('refuses a line over the cap, whether it arrives whole or in pieces, and yields nothing after', () => {
    const framer = new LineFramer({ maxLineBytes: 10, maxTotalBytes: 1000 });
    expect(framer.push(bytes('short\n0123456789'))).toEqual({ lines: ['short'] });
    expect(framer.push(bytes('x'))).toEqual({ lines: [], overflow: 'a message longer than 10 bytes' });
    expect(framer.push(bytes('ok\n'))).toEqual({ lines: [] });
    expect(new LineFramer({ maxLineBytes: 10, maxTotalBytes: 1000 }).push(bytes('01234567890\n')).overflow).toBe(
      'a message longer than 10 bytes',
    );
  });

  it('counts every byte read against the episode cap, the lines of the last chunk still given', () => {
    const framer = new LineFramer({ maxLineBytes: 100, maxTotalBytes: 12 });
    expect(framer.push(bytes('abc\ndef\n'))).toEqual({ lines: ['abc', 'def'] });
    expect(framer.push(bytes('ghi\njk'))).toEqual({
      lines: ['ghi'],
      overflow: 'more than 12 bytes of output in one episode',
    });
  });
});

describe('nestsDeeperThan', () => {
  it('counts arrays and objects outside strings, escaped quotes included', () => {
    expect(nestsDeeperThan('[[1]]', 2)).toBe(false);
    expect(nestsDeeperThan('[[[1]]]', 2)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":{"b":[[1]]}}', 3)).toBe(true);
    expect(nestsDeeperThan(JSON.stringify({ text: '[[[[{{{{', q: 'a\\"[[[[' }), 1)).toBe(false);
    expect(nestsDeeperThan('[[],[],[]]', 2)).toBe(false);
  });

  it('agrees with the depth JSON.parse builds, for any JSON value', () => {
    const depth = (v: unknown): number =>
      typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 7 }), (value, limit) => {
        expect(nestsDeeperThan(JSON.stringify(value), limit)).toBe(depth(value) > limit);
      }),
    );
  });

  it('turns a deep message into a protocol problem before JSON.parse builds it', () => {
    const deep = `{"type":"log","entry":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(parseChildLine(deep)).toBe(`a message nested more than ${MAX_MESSAGE_DEPTH} levels deep`);
    // The message's own object and the entry are two levels: 62 arrays inside make exactly the limit.
    const fine = `{"type":"log","entry":{"a":${'['.repeat(MAX_MESSAGE_DEPTH - 2)}${']'.repeat(MAX_MESSAGE_DEPTH - 2)}}}`;
    expect(parseChildLine(fine)).toMatchObject({ type: 'log' });
  });
});
