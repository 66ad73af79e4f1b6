import { describe, expect, it } from 'vitest';
import { Rng, deriveSeed, hash32 } from './random.ts';

describe('Rng', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const c = new Rng(43);
    const seqA = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.nextUint32())).not.toEqual(seqA);
  });

  it('keeps int() within bounds and reaches every value', () => {
    const rng = new Rng(7);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) {
      const v = rng.int(5);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(5);
      seen.add(v);
    }
    expect(seen.size).toBe(5);
    expect(() => rng.int(0)).toThrow(RangeError);
  });

  it('shuffles into a permutation without touching the input', () => {
    const items = [1, 2, 3, 4, 5, 6];
    const out = new Rng(1).shuffle(items);
    expect(items).toEqual([1, 2, 3, 4, 5, 6]);
    expect([...out].sort()).toEqual(items);
  });

  it('derives distinct stable seeds from labels', () => {
    expect(deriveSeed(1, 'task', 'a')).toBe(deriveSeed(1, 'task', 'a'));
    expect(deriveSeed(1, 'task', 'a')).not.toBe(deriveSeed(1, 'task', 'b'));
    expect(deriveSeed(1, 'ab', 'c')).not.toBe(deriveSeed(1, 'a', 'bc'));
    expect(hash32('')).toBe(0x811c9dc5);
  });
});
