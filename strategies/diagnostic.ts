import { failingCount, selectWitnesses, type FeedbackStrategy } from '../core/strategy.ts';

/**
 * Diagnostic A-CEGIS: the failure count, then up to 2 witnesses of each kind (regex: 2 false
 * negatives "too narrow" and 2 false positives "too broad"; SQL: 2 missing and 2 unexpected rows),
 * shortest first and labelled; an execution error is shown with the engine's message.
 */
export const diagnostic: FeedbackStrategy = {
  kind: 'feedback',
  name: 'diagnostic',
  turns: (budget) => budget,
  feedback: (verdict, { render }) => {
    const failing = failingCount(verdict);
    if (verdict.error) {
      return {
        text: `${render.error(verdict.error)}\n\n${render.retry}`,
        disclosed: { witnesses: [], failing, error: verdict.error },
      };
    }
    const shown = selectWitnesses(verdict.witnesses, 2, 4);
    const lines = shown.map((w) => `- ${render.witness(w)}`);
    const body = [render.failureSummary(verdict), ...(lines.length ? ['Counterexamples:', ...lines] : [])].join('\n');
    return { text: `${body}\n\n${render.retry}`, disclosed: { witnesses: shown, failing } };
  },
};
