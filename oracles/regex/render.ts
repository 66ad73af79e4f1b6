/** How regex verdicts read in feedback messages. */
import type { FeedbackRenderer } from '../../core/oracle.ts';
import type { VerdictError, Witness } from '../../core/types.ts';

export function regexRenderer(options: { dialectName: string; deadlineMs: number }): FeedbackRenderer {
  return {
    witness: (w: Witness) =>
      w.expected === true
        ? `${JSON.stringify(w.input)} should match but does not (too narrow)`
        : `${JSON.stringify(w.input)} should not match but does (too broad)`,
    failureSummary: (verdict) => {
      const failed = verdict.cases.filter((c) => !c.pass).length;
      return `Your regex fails ${failed} of ${verdict.cases.length} hidden tests.`;
    },
    error: (e: VerdictError) => {
      switch (e.kind) {
        case 'syntax':
          return `Your regex is not valid ${options.dialectName}: ${e.message}`;
        case 'timeout':
          return `Matching your regex did not finish within ${options.deadlineMs} ms (catastrophic backtracking?).`;
        case 'no-artifact':
          return 'I could not find a regular expression in your reply.';
        case 'too-complex':
          return `Your regex is too large or complex to run: ${e.message}. Write a shorter, simpler regular expression.`;
        case 'too-large':
          return `Running your regex produced more than the oracle accepts: ${e.message}.`;
        default:
          return `Your regex could not be checked: ${e.message}`;
      }
    },
    retry: 'Reply with the corrected regular expression alone in a ```regex code block.',
  };
}
