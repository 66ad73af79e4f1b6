import type { Strategy } from '../core/strategy.ts';

/** One attempt, no feedback. */
export const zeroShot: Strategy = {
  name: 'zero-shot',
  turns: () => 1,
  feedback: () => null,
};
