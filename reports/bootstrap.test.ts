import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bootstrapInterval, bootstrapMeans, mean, quantile } from './bootstrap.ts';

describe('bootstrapInterval', () => {
  it('returns null for no data and a point for one value', () => {
    expect(bootstrapInterval([], mean)).toBeNull();
    expect(bootstrapInterval([0.4], mean)).toEqual({ low: 0.4, high: 0.4 });
  });

  it('gives a zero-width interval for all-equal data', () => {
    const values = [1 / 3, 1 / 3, 1 / 3, 1 / 3];
    const ci = bootstrapInterval(values, mean);
    expect(ci).not.toBeNull();
    expect(ci?.low).toBe(ci?.high);
    expect(ci?.low).toBe(mean(values));
  });

  it('is deterministic for a seed and contains the point estimate on a known case', () => {
    // 10 successes in 20: p̂ = 0.5, SE = √(0.25/20) ≈ 0.112, so the 95% interval is ≈ 0.5 ± 0.22.
    const values = [...Array<number>(10).fill(1), ...Array<number>(10).fill(0)];
    const a = bootstrapInterval(values, mean);
    const b = bootstrapInterval(values, mean);
    expect(a).toEqual(b);
    expect(a!.low).toBeGreaterThanOrEqual(0.25);
    expect(a!.low).toBeLessThanOrEqual(0.35);
    expect(a!.high).toBeGreaterThanOrEqual(0.65);
    expect(a!.high).toBeLessThanOrEqual(0.75);
    expect(a!.low).toBeLessThanOrEqual(0.5);
    expect(a!.high).toBeGreaterThanOrEqual(0.5);
    expect(bootstrapInterval(values, mean, { seed: 7 })).not.toEqual(a);
  });

  it('supports any statistic and rejects bad options', () => {
    const max = (s: readonly number[]) => Math.max(...s);
    const ci = bootstrapInterval([1, 2, 3], max, { resamples: 500 });
    expect(ci!.high).toBe(3);
    expect(ci!.low).toBeGreaterThanOrEqual(1);
    expect(() => bootstrapInterval([1], mean, { resamples: 0 })).toThrow(RangeError);
    expect(() => bootstrapInterval([1], mean, { level: 1 })).toThrow(RangeError);
  });
});

describe('quantile', () => {
  it('interpolates linearly between order statistics', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0)).toBe(1);
    expect(quantile([1, 2, 3, 4], 1)).toBe(4);
    expect(quantile([0, 10], 0.25)).toBe(2.5);
  });
});

describe('bootstrapMeans', () => {
  it('gives each list exactly the interval bootstrapInterval(list, mean) gives (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }).chain((n) =>
          fc.array(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }), {
            minLength: 1,
            maxLength: 4,
          }),
        ),
        fc.integer({ min: 1, max: 300 }),
        fc.integer(),
        (lists, resamples, seed) => {
          const options = { resamples, seed };
          expect(bootstrapMeans(lists, options)).toEqual(lists.map((l) => bootstrapInterval(l, mean, options)));
        },
      ),
      { numRuns: 80 },
    );
    expect(() => bootstrapMeans([[1], [1, 2]])).toThrow(/same length/);
  });
});
