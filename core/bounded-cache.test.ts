import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache.ts';

type Op =
  | { op: 'set'; key: number; weight: number }
  | { op: 'get'; key: number }
  | { op: 'delete'; key: number }
  | { op: 'weigh'; key: number; weight: number };

const ops = fc.array(
  fc.oneof(
    fc.record({ op: fc.constant('set' as const), key: fc.nat(7), weight: fc.nat(5) }),
    fc.record({ op: fc.constant('get' as const), key: fc.nat(7) }),
    fc.record({ op: fc.constant('delete' as const), key: fc.nat(7) }),
    fc.record({ op: fc.constant('weigh' as const), key: fc.nat(7), weight: fc.nat(5) }),
  ),
  { maxLength: 60 },
);

/** The reference: a plain list of [key, weight] from oldest to newest, trimmed from the front. */
function model(operations: Op[], maxEntries: number, maxWeight: number, lru: boolean): [number, number][] {
  let list: [number, number][] = [];
  const total = () => list.reduce((n, [, w]) => n + w, 0);
  const trim = () => {
    while (list.length > maxEntries || (list.length > 0 && total() > maxWeight)) list.shift();
  };
  for (const o of operations) {
    const at = list.findIndex(([k]) => k === o.key);
    if (o.op === 'set') {
      if (at >= 0 && !lru) list[at] = [o.key, o.weight];
      else list = [...list.filter(([k]) => k !== o.key), [o.key, o.weight]];
      trim();
    } else if (o.op === 'get') {
      if (at >= 0 && lru) list = [...list.filter(([k]) => k !== o.key), list[at]!];
    } else if (o.op === 'delete') {
      list = list.filter(([k]) => k !== o.key);
    } else if (at >= 0) {
      list[at] = [o.key, o.weight];
      trim();
    }
  }
  return list;
}

function run(operations: Op[], cache: BoundedCache<number, string>): void {
  for (const o of operations) {
    if (o.op === 'set') cache.set(o.key, `v${o.key}`, o.weight);
    else if (o.op === 'get') cache.get(o.key);
    else if (o.op === 'delete') cache.delete(o.key);
    else cache.weigh(o.key, o.weight);
  }
}

describe('BoundedCache', () => {
  it('forgets the oldest entries first (by insertion or by last use), within both budgets, as a plain list would', () => {
    fc.assert(
      fc.property(
        ops,
        fc.integer({ min: 1, max: 5 }),
        fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
        fc.boolean(),
        (operations, maxEntries, maxWeight, lru) => {
          const cache = new BoundedCache<number, string>({
            maxEntries,
            ...(maxWeight === undefined ? {} : { maxWeight }),
            order: lru ? 'lru' : 'insertion',
          });
          run(operations, cache);
          const expected = model(operations, maxEntries, maxWeight ?? Infinity, lru);
          expect(cache.keys()).toEqual(expected.map(([k]) => k));
          expect(cache.weight).toBe(expected.reduce((n, [, w]) => n + w, 0));
          expect(cache.size).toBeLessThanOrEqual(maxEntries);
          for (const [k] of expected) expect(cache.peek(k)).toBe(`v${k}`);
        },
      ),
    );
  });

  it('keeps insertion order on a hit unless it is an LRU', () => {
    const fifo = new BoundedCache<string, number>({ maxEntries: 2 });
    fifo.set('a', 1);
    fifo.set('b', 2);
    expect(fifo.get('a')).toBe(1);
    fifo.set('c', 3);
    expect(fifo.keys()).toEqual(['b', 'c']);

    const lru = new BoundedCache<string, number>({ maxEntries: 2, order: 'lru' });
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.keys()).toEqual(['a', 'c']);
    expect(lru.peek('a')).toBe(1);
    lru.set('d', 4);
    expect(lru.keys()).toEqual(['c', 'd']);
  });

  it('remembers: makes a value once per key, and evicts only when a new key comes', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 2 });
    let made = 0;
    const make = () => ++made;
    expect(cache.remember('a', make)).toBe(1);
    expect(cache.remember('a', make)).toBe(1);
    expect(cache.remember('b', make)).toBe(2);
    expect(cache.remember('c', make)).toBe(3);
    expect(cache.has('a')).toBe(false);
    expect(cache.remember('a', make)).toBe(4);
    expect(cache.keys()).toEqual(['c', 'a']);
  });

  it('weighs an entry later and then trims by weight; clear forgets everything', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 10, maxWeight: 100 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.weigh('a', 60);
    cache.weigh('b', 30);
    cache.weigh('missing', 1000);
    expect(cache.weight).toBe(90);
    cache.set('c', 3, 20);
    expect(cache.keys()).toEqual(['b', 'c']);
    expect(cache.weight).toBe(50);
    expect(cache.delete('b')).toBe(true);
    expect(cache.delete('b')).toBe(false);
    expect(cache.weight).toBe(20);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.weight).toBe(0);
  });

  it('remembers promises until they reject: a failed one is made again, a kept one is shared', async () => {
    const cache = new BoundedCache<string, Promise<number>>({ maxEntries: 2 });
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new Error('no'));
    };
    await expect(cache.rememberPromise('a', failing)).rejects.toThrow('no');
    expect(cache.has('a')).toBe(false);
    await expect(cache.rememberPromise('a', failing)).rejects.toThrow('no');
    expect(calls).toBe(2);
    const first = cache.rememberPromise('b', () => Promise.resolve(1));
    expect(cache.rememberPromise('b', () => Promise.resolve(2))).toBe(first);
    await expect(first).resolves.toBe(1);
    cache.rememberPromise('c', () => Promise.resolve(3));
    cache.rememberPromise('d', () => Promise.resolve(4));
    expect(cache.keys()).toEqual(['c', 'd']);
  });
});
