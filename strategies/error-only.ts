import { failingCount, type FeedbackStrategy } from '../core/strategy.ts';

/** Error-only: the execution error, or how many hidden cases fail — never which ones. */
export const errorOnly: FeedbackStrategy = {
  kind: 'feedback',
  name: 'error-only',
  turns: (budget) => budget,
  feedback: (verdict, { render }) => {
    const failing = failingCount(verdict);
    const body = verdict.error ? render.error(verdict.error) : render.failureSummary(verdict);
    return {
      text: `${body}\n\n${render.retry}`,
      disclosed: verdict.error ? { witnesses: [], failing, error: verdict.error } : { witnesses: [], failing },
    };
  },
};
