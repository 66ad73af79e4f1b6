/** The PackStream meter against values of known size and depth, fed in pieces split anywhere. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PackstreamMeter, VALUE_BYTES } from './packstream-meter.ts';
import { encode, expectedDepth, expectedSize, type PackValue } from '../../../testing/cypher/packstream.ts';

const { value: packValue } = fc.letrec<{ value: PackValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant<PackValue>({ t: 'null' }),
    fc.boolean().map((v): PackValue => ({ t: 'bool', v })),
    fc.integer({ min: -16, max: 127 }).map((v): PackValue => ({ t: 'int', v: BigInt(v), width: 0 })),
    fc
      .tuple(
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.constantFrom(1, 2, 4, 8) as fc.Arbitrary<1 | 2 | 4 | 8>,
      )
      .map(([v, width]): PackValue => ({ t: 'int', v, width })),
    fc.double().map((v): PackValue => ({ t: 'float', v })),
    fc
      .tuple(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constantFrom(0, 1, 2, 4) as fc.Arbitrary<0 | 1 | 2 | 4>)
      .map(([v, width]): PackValue => ({ t: 'string', v, width })),
    fc
      .tuple(fc.uint8Array({ maxLength: 20 }), fc.constantFrom(1, 2, 4) as fc.Arbitrary<1 | 2 | 4>)
      .map(([v, width]): PackValue => ({ t: 'bytes', v, width })),
    fc
      .tuple(fc.array(tie('value'), { maxLength: 5 }), fc.constantFrom(0, 1, 2, 4) as fc.Arbitrary<0 | 1 | 2 | 4>)
      .map(([v, width]): PackValue => ({ t: 'list', v, width })),
    fc
      .tuple(
        fc.array(fc.tuple(fc.string({ maxLength: 6 }), tie('value')), { maxLength: 4 }),
        fc.constantFrom(0, 1, 2, 4) as fc.Arbitrary<0 | 1 | 2 | 4>,
      )
      .map(([v, width]): PackValue => ({ t: 'map', v, width })),
    fc
      .tuple(fc.integer({ min: 0x40, max: 0x7f }), fc.array(tie('value'), { maxLength: 4 }))
      .map(([signature, v]): PackValue => ({ t: 'struct', signature, v })),
  ),
}));

/** Feeds `bytes` to a new meter in pieces cut at `cuts`. */
function measure(bytes: number[], cuts: number[] = []): PackstreamMeter {
  const meter = new PackstreamMeter();
  const data = Uint8Array.from(bytes);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const to of [...points, bytes.length]) {
    meter.feed(data, from, to);
    from = to;
  }
  return meter;
}

describe('PackstreamMeter', () => {
  it('measures 8 bytes per value plus string bytes, and the nesting depth, however the bytes are split', () => {
    fc.assert(
      fc.property(packValue, fc.array(fc.nat(), { maxLength: 6 }), (value, cuts) => {
        const meter = measure(encode(value), cuts);
        expect(meter.invalid).toBe(false);
        expect(meter.complete).toBe(true);
        expect(meter.bytes).toBe(expectedSize(value));
        expect(meter.maxDepth).toBe(expectedDepth(value));
      }),
      { numRuns: 400 },
    );
  });

  it('is not complete before the last byte of a value', () => {
    fc.assert(
      fc.property(packValue, (value) => {
        const bytes = encode(value);
        for (let n = 0; n < bytes.length; n++) expect(measure(bytes.slice(0, n)).complete).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('charges a container’s elements at its header, before they arrive', () => {
    // LIST_32 with 10,000,000 elements, and STRING_32 of 1 GiB: only the headers are fed.
    expect(measure([0xd6, 0x00, 0x98, 0x96, 0x80]).bytes).toBe(VALUE_BYTES + VALUE_BYTES * 10_000_000);
    expect(measure([0xd2, 0x40, 0x00, 0x00, 0x00]).bytes).toBe(VALUE_BYTES + 2 ** 30);
    // 100 nested tiny lists: the depth is known after 100 bytes.
    expect(measure(Array.from({ length: 100 }, () => 0x91)).maxDepth).toBe(100);
  });

  it('stops at a byte that is not PackStream', () => {
    const meter = measure([0x92, 0x01, 0xc4, 0x01]);
    expect(meter.invalid).toBe(true);
    expect(meter.complete).toBe(false);
  });
});
