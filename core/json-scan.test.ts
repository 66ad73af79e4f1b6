/**
 * The JSON structure scanner: it meets every string and bracket of any JSON text in order, finds
 * the first balanced object as a differently built search does on any text, and takes hostile
 * nesting without recursion.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstJsonObject as sdkFirstJsonObject } from '../strategies/harness/child/sdk.mjs';
import { firstJsonObject, nestsDeeperThan, opensNesting, scanJson } from './json-scan.ts';

/** The same search by another road: the text cut into strings, braces and the rest by one expression. */
function referenceFirstObject(text: string, from = 0): string | null {
  const start = text.indexOf('{', from);
  if (start < 0) return null;
  let depth = 0;
  let length = 0;
  for (const token of text.slice(start).match(/"(?:\\[\s\S]|[^"\\])*"?|[{}]|[^"{}]+/g) ?? []) {
    length += token.length;
    if (token === '{') depth++;
    if (token === '}' && --depth === 0) return text.slice(start, start + length);
  }
  return null;
}

/** Every string of a JSON value, keys before their values, in the order JSON.stringify writes them. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, inner]) => [key, ...stringsOf(inner)]);
  return [];
}

// Texts made of what matters to the scan: quotes, escapes, braces, brackets and a little else.
const structural = fc
  .array(fc.constantFrom('{', '}', '[', ']', '"', '\\', 'a', ':', ' ', '\\"'), { maxLength: 40 })
  .map((pieces) => pieces.join(''));

describe('scanJson', () => {
  it('meets every string of any JSON text whole, in order', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        const text = JSON.stringify(value);
        const seen: string[] = [];
        scanJson(text, 0, (code, at, end) => {
          if (code === 0x22) seen.push(JSON.parse(text.slice(at, end + 1)) as string);
          return false;
        });
        expect(seen).toEqual(stringsOf(value));
      }),
    );
  });

  it('stops where the visitor says, and says -1 at the end of the text', () => {
    expect(scanJson('{"a":[1]}', 0, (code) => code === 0x5b)).toBe(5);
    expect(scanJson('{"a":[1]}', 0, () => false)).toBe(-1);
    expect(scanJson('"not closed {', 0, (code) => opensNesting(code))).toBe(-1);
  });
});

describe('firstJsonObject', () => {
  it('finds an object among prose', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('{')),
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })),
        fc.string(),
        (before, object, after) => {
          const json = JSON.stringify(object);
          expect(firstJsonObject(`${before}${json}${after}`)).toBe(json);
        },
      ),
    );
  });

  it('agrees with a search that cuts the text by a regular expression, on any text, from any place', () => {
    fc.assert(
      fc.property(structural, fc.nat({ max: 40 }), (text, from) => {
        expect(firstJsonObject(text, from)).toBe(referenceFirstObject(text, from));
      }),
    );
  });

  it("is the harness SDK's firstJsonObject, which candidate harnesses call inside their sandbox", () => {
    fc.assert(
      fc.property(structural, (text) => {
        expect(sdkFirstJsonObject(text)).toBe(firstJsonObject(text));
      }),
    );
  });

  it('takes hostile nesting in one pass, without recursion', () => {
    const deep = '{"a":'.repeat(200_000);
    expect(firstJsonObject(deep)).toBeNull();
    expect(firstJsonObject(`${deep}1${'}'.repeat(200_000)}`)).toHaveLength(deep.length + 1 + 200_000);
    expect(nestsDeeperThan('['.repeat(1_000_000), 64)).toBe(true);
  });
});
