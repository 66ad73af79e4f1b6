import { describe, expect, it } from 'vitest';
import { dropOutliers, efficiencyScore, rvesReward, rvesTerm, timeRatio, vesTerm } from './ves.ts';

describe('VES (DAMO-ConvAI evaluation_ves.py)', () => {
  it('drops values outside mean ± 3σ (population σ), strictly', () => {
    const values = [...Array.from({ length: 19 }, () => 1), 100];
    // mean 5.95, σ ≈ 21.57 → upper bound ≈ 70.7: 100 is dropped, the ones stay.
    expect(dropOutliers(values)).toEqual(Array.from({ length: 19 }, () => 1));
    expect(dropOutliers([1, 2, 3])).toEqual([1, 2, 3]);
  });

  it('keeps every value when σ is 0 (BIRD would divide by zero there)', () => {
    expect(dropOutliers([2, 2, 2])).toEqual([2, 2, 2]);
  });

  it('averages gold/predicted ratios of interleaved runs', () => {
    expect(timeRatio([2, 4, 6], [1, 2, 3])).toBe(2);
    expect(timeRatio([1, 1], [2, 2])).toBe(0.5);
    expect(() => timeRatio([1], [1, 2])).toThrow(/as many gold as predicted/);
  });

  it('scores 100 × mean √ratio, wrong answers 0', () => {
    // One correct query 4× faster than gold (√4 = 2), one as fast (1), one wrong (0): (2 + 1 + 0) / 3 × 100.
    expect(efficiencyScore([vesTerm(4), vesTerm(1), vesTerm(0)])).toBeCloseTo(100);
    expect(efficiencyScore([])).toBe(0);
  });
});

describe('R-VES (mini-dev reward buckets)', () => {
  it('buckets the ratio', () => {
    expect([3, 2, 1.5, 1, 0.7, 0.5, 0.3, 0.25, 0.1, 0].map(rvesReward)).toEqual([
      1.25, 1.25, 1, 1, 0.75, 0.75, 0.5, 0.5, 0.25, 0,
    ]);
  });

  it('scores 100 × mean √reward: correct and as fast as gold is 100, the maximum ≈ 111.8', () => {
    expect(efficiencyScore([rvesTerm(1)])).toBe(100);
    expect(efficiencyScore([rvesTerm(10)])).toBeCloseTo(111.8, 1);
    expect(efficiencyScore([rvesTerm(1), rvesTerm(0)])).toBe(50);
  });
});
