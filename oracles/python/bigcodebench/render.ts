/**
 * How BigCodeBench verdicts read in feedback messages. The failure summary (what error-only
 * feedback shows) names the exception types only — assertion messages, which carry the expected
 * values, are withheld, as HERO does; a witness (what diagnostic feedback shows) is a failing
 * test's name, its assertion message and the tail of its traceback; a hardening witness is a
 * derived call with what the reference returned and what the program did.
 */
import type { FeedbackRenderer } from '../../../core/oracle.ts';
import type { Verdict, VerdictError, Witness } from '../../../core/types.ts';
import { PYTHON_RETRY, pythonErrorFeedback } from '../error-feedback.ts';

export interface TestProblem {
  type: string;
  message: string;
  traceback?: string;
}

function exceptionTypes(verdict: Verdict): string {
  const types = verdict.detail?.exceptionTypes;
  if (!types || typeof types !== 'object' || Array.isArray(types)) return '';
  const parts = Object.entries(types as Record<string, number>).map(([type, n]) => (n > 1 ? `${type} ×${n}` : type));
  return parts.length ? ` (${parts.join(', ')})` : '';
}

export function bigCodeBenchRenderer(): FeedbackRenderer {
  return {
    witness: (w: Witness) => {
      if (w.kind === 'failing-input')
        return `${String(w.input)} should return ${String(w.expected)}, but your code ${w.label === 'wrong output' ? 'returned ' : ''}${String(w.actual)}`;
      const problem = w.actual as unknown as TestProblem;
      const head = `${String(w.input)} ${w.label === 'error' ? 'raised an error' : 'failed'}: ${problem.type}${problem.message ? `: ${problem.message}` : ''}`;
      return problem.traceback ? `${head}\n${problem.traceback.replace(/^/gm, '    ')}` : head;
    },
    failureSummary: (verdict: Verdict) => {
      const failed = verdict.cases.filter((c) => !c.pass).length;
      return `${failed} of ${verdict.cases.length} tests fail${exceptionTypes(verdict)}.`;
    },
    error: (e: VerdictError) =>
      pythonErrorFeedback(e, {
        timeout: 'The tests did not finish',
        failed: 'Your code failed before the tests could run',
      }),
    retry: PYTHON_RETRY,
  };
}
