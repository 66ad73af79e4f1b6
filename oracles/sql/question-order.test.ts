import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { longestFirst } from './question-order.ts';

describe('the order of eval bird’s questions', () => {
  it('puts questions without a recorded time first in file order, then the rest longest first, ties in file order', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined })), (times) => {
        const items = times.map((ms, at) => ({ ms, at }));
        const ordered = longestFirst(items, (i) => i.ms);
        expect([...ordered].sort((a, b) => a.at - b.at)).toEqual(items);
        const unknown = ordered.filter((i) => i.ms === undefined);
        expect(ordered.slice(0, unknown.length)).toEqual(items.filter((i) => i.ms === undefined));
        const known = ordered.slice(unknown.length);
        known.slice(1).forEach((item, k) => {
          const before = known[k] as (typeof known)[number];
          expect(before.ms as number).toBeGreaterThanOrEqual(item.ms as number);
          if (before.ms === item.ms) expect(before.at).toBeLessThan(item.at);
        });
      }),
    );
  });

  it('leaves a first run (nothing recorded) in file order', () => {
    expect(longestFirst(['a', 'b', 'c'], () => undefined)).toEqual(['a', 'b', 'c']);
    expect(longestFirst(['a', 'b', 'c'], (x) => ({ a: 1, b: 30, c: 2 })[x])).toEqual(['b', 'c', 'a']);
  });
});
