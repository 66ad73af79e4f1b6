/** How DSCodeBench verdicts read in feedback messages. */
import type { FeedbackRenderer } from '../../../core/oracle.ts';
import type { Verdict, VerdictError, Witness } from '../../../core/types.ts';
import { PYTHON_RETRY, pythonErrorFeedback } from '../error-feedback.ts';

export function dsCodeBenchRenderer(): FeedbackRenderer {
  return {
    witness: (w: Witness) => {
      const call = `for the input ${String(w.input)}`;
      const expected = w.expected === undefined ? '' : ` the expected output is ${String(w.expected)},`;
      const reason = w.label && w.label !== 'wrong output' ? ` (${w.label})` : '';
      return `${call}${expected} your function gives ${String(w.actual)}${reason}`;
    },
    failureSummary: (verdict: Verdict) => {
      const failed = verdict.cases.filter((c) => !c.pass).length;
      return `Your function's output differs from the reference on ${failed} of ${verdict.cases.length} generated inputs.`;
    },
    error: (e: VerdictError) =>
      pythonErrorFeedback(e, { timeout: 'Your code did not finish', failed: 'Running your code failed' }),
    retry: PYTHON_RETRY,
  };
}
