/** How DSCodeBench verdicts read in feedback messages. */
import type { FeedbackRenderer } from '../../../core/oracle.ts';
import type { Verdict, VerdictError, Witness } from '../../../core/types.ts';

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
    error: (e: VerdictError) => {
      switch (e.kind) {
        case 'syntax':
          return `Your code is not valid Python: ${e.message}`;
        case 'timeout':
          return `Your code did not finish: ${e.message}`;
        case 'unsafe':
          return `Your code was refused: ${e.message}`;
        case 'no-artifact':
          return 'I could not find Python code in your reply.';
        case 'too-complex':
          return `Your code is too big or too deeply nested to run: ${e.message}. Write a shorter, flatter program.`;
        case 'too-large':
          return `Your code produced too much output: ${e.message}. Do not print or return huge amounts of data.`;
        default:
          return `Running your code failed: ${e.message}`;
      }
    },
    retry: 'Reply with the complete corrected Python code (imports and the function) in a ```python code block.',
  };
}
