import type { FeedbackStrategy } from '../core/strategy.ts';

/** One attempt, no feedback. */
export const zeroShot: FeedbackStrategy = {
  kind: 'feedback',
  name: 'zero-shot',
  turns: () => 1,
  feedback: () => null,
};
