import type { FeedbackStrategy } from '../core/strategy.ts';

/** Generic self-correction: the model only learns that its answer was wrong. */
export const generic: FeedbackStrategy = {
  kind: 'feedback',
  name: 'generic',
  turns: (budget) => budget,
  feedback: (_verdict, { render }) => ({
    text: `That is not right. Try again.\n\n${render.retry}`,
    disclosed: { witnesses: [], bare: true },
  }),
};
