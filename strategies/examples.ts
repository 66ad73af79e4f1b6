import { selectWitnesses, type FeedbackStrategy } from '../core/strategy.ts';

/** Counterexample feedback with a fixed number of failing examples, shortest first, both directions mixed. */
export function withExamples(name: string, count: number): FeedbackStrategy {
  return {
    kind: 'feedback',
    name,
    turns: (budget) => budget,
    feedback: (verdict, { render }) => {
      if (verdict.error) {
        return {
          text: `${render.error(verdict.error)}\n\n${render.retry}`,
          disclosed: { witnesses: [], error: verdict.error },
        };
      }
      const shown = selectWitnesses(verdict.witnesses, count, count);
      const heading =
        shown.length === 1 ? 'Here is a case your answer gets wrong:' : 'Here are cases your answer gets wrong:';
      const lines = shown.map((w) => `- ${render.witness(w)}`);
      const body = shown.length ? `${heading}\n${lines.join('\n')}` : render.failureSummary(verdict);
      return { text: `${body}\n\n${render.retry}`, disclosed: { witnesses: shown } };
    },
  };
}

/** Minimal A-CEGIS: one failing example. */
export const oneExample = withExamples('one-example', 1);
/** Three-example A-CEGIS: three failing examples. */
export const threeExample = withExamples('three-example', 3);
