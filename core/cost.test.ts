import { describe, expect, it } from 'vitest';
import { attachPricing, callCost, modelsCalled } from './cost.ts';
import type { Trajectory } from './types.ts';

const trajectory = {
  model: { name: 'gpt-x', privileged: false },
  turns: [
    {
      usage: { promptTokens: 1000, completionTokens: 100 },
      calls: [
        {
          purpose: 'judge',
          model: 'judge-y',
          usage: { promptTokens: 10, completionTokens: 1 },
          latencyMs: 1,
          cached: false,
        },
      ],
    },
    { usage: { promptTokens: 2000, completionTokens: 200 } },
  ],
} as unknown as Trajectory;

describe('costs', () => {
  it('prices a call per million tokens, input and output apart', () => {
    // 1,000 × $0.15/M + 500 × $0.60/M = $0.00015 + $0.0003
    expect(callCost({ input: 0.15, output: 0.6 }, { promptTokens: 1000, completionTokens: 500 })).toBeCloseTo(
      0.00045,
      12,
    );
  });

  it('attaches the prices of the models an episode called, and nothing when none is priced', () => {
    expect(modelsCalled(trajectory)).toEqual(['gpt-x', 'judge-y']);
    expect(
      attachPricing(trajectory, { 'gpt-x': { input: 1, output: 2 }, other: { input: 9, output: 9 } }).pricing,
    ).toEqual({ 'gpt-x': { input: 1, output: 2 } });
    expect(attachPricing(trajectory, { other: { input: 9, output: 9 } })).toBe(trajectory);
  });
});
