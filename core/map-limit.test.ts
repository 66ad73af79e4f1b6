import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapLimit } from './map-limit.ts';

describe('mapLimit', () => {
  it('gives every result in the items’ order, never more than `limit` calls in flight, starting items in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(5), { maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        async (delays, limit) => {
          let inFlight = 0;
          let most = 0;
          const started: number[] = [];
          const out = await mapLimit(
            delays.map((d, i) => ({ d, i })),
            limit,
            async ({ d, i }) => {
              started.push(i);
              most = Math.max(most, ++inFlight);
              await new Promise((resolve) => setTimeout(resolve, d));
              inFlight--;
              return i * 2;
            },
          );
          expect(out).toEqual(delays.map((_, i) => i * 2));
          expect(most).toBeLessThanOrEqual(Math.min(limit, Math.max(1, delays.length)));
          if (delays.length >= limit) expect(most).toBe(limit);
          expect(started).toEqual(delays.map((_, i) => i));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('rejects with the first failure', async () => {
    await expect(mapLimit([1, 2, 3], 2, async (n) => (n === 2 ? Promise.reject(new Error('two')) : n))).rejects.toThrow(
      'two',
    );
  });
});
