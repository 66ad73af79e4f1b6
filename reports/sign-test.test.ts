import { describe, expect, it } from 'vitest';
import { binomialUpperTail, signTest } from './sign-test.ts';

describe('exact binomial tail and sign test (hand-computed)', () => {
  it('computes P(X ≥ x) for X ~ Bin(n, 1/2) exactly', () => {
    expect(binomialUpperTail(5, 5)).toBeCloseTo(1 / 32, 15);
    expect(binomialUpperTail(5, 4)).toBeCloseTo(6 / 32, 15);
    expect(binomialUpperTail(10, 8)).toBeCloseTo((45 + 10 + 1) / 1024, 15);
    expect(binomialUpperTail(5, 0)).toBe(1);
    expect(binomialUpperTail(5, 6)).toBe(0);
    expect(binomialUpperTail(0, 0)).toBe(1);
  });

  it('stays accurate for thousands of items (log space)', () => {
    // P(X ≥ n) = 2^-n underflows a plain product long before n = 2000.
    expect(Math.log2(binomialUpperTail(1000, 1000))).toBeCloseTo(-1000, 6);
    // P(X ≥ 1000 | n = 2000) = 1/2 + C(2000,1000)/2^2001 ≈ 0.5 + 0.0178399/2
    expect(binomialUpperTail(2000, 1000)).toBeCloseTo(0.5 + 0.0178399 / 2, 6);
  });

  it('gives one- and two-sided exact McNemar p-values', () => {
    const s = signTest(0, 5);
    expect([s.n, s.fixes, s.breaks, s.pBetter]).toEqual([5, 0, 5, 1]);
    expect(s.pWorse).toBeCloseTo(1 / 32, 15);
    expect(s.pTwoSided).toBeCloseTo(1 / 16, 15);
    const t = signTest(2, 8);
    expect(t.pWorse).toBeCloseTo(56 / 1024, 15);
    expect(t.pBetter).toBeCloseTo(1013 / 1024, 15);
    expect(t.pTwoSided).toBeCloseTo(112 / 1024, 15);
    expect(signTest(0, 0)).toEqual({ n: 0, fixes: 0, breaks: 0, pWorse: 1, pBetter: 1, pTwoSided: 1 });
    expect(signTest(3, 3).pTwoSided).toBe(1);
  });
});
