import { describe, expect, it } from 'vitest';
import { passAtK, passAtKTable } from './pass-at-k.ts';

describe('pass@k', () => {
  it('matches hand-computed values of 1 − C(n−c, k) / C(n, k)', () => {
    expect(passAtK(1, 1, 1)).toBe(1);
    expect(passAtK(1, 0, 1)).toBe(0);
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 12);
    // C(8,2)/C(10,2) = 28/45
    expect(passAtK(10, 2, 2)).toBeCloseTo(1 - 28 / 45, 12);
    expect(passAtK(5, 4, 2)).toBe(1);
    expect(() => passAtK(3, 1, 4)).toThrow(/pass@k needs/);
  });

  it('averages over tasks and reports only the k every task has samples for', () => {
    expect(
      passAtKTable([
        { n: 1, c: 1 },
        { n: 1, c: 0 },
      ]),
    ).toEqual({ 'pass@1': 0.5 });
    const table = passAtKTable([
      { n: 5, c: 1 },
      { n: 6, c: 6 },
    ]);
    expect(Object.keys(table)).toEqual(['pass@1', 'pass@5']);
    expect(table['pass@5']).toBeCloseTo(1, 12);
    expect(passAtKTable([])).toEqual({});
  });
});
