/** Feedback for a Python program's verdict error, shared by BigCodeBench and DSCodeBench. */
import type { VerdictError } from '../../core/types.ts';

/** The phrases the two benchmarks word differently: a run that did not finish, and any other failure. */
export interface ErrorWording {
  timeout: string;
  failed: string;
}

/** What the model is told of a verdict's error kind, with the engine's message. */
export function pythonErrorFeedback(e: VerdictError, wording: ErrorWording): string {
  switch (e.kind) {
    case 'syntax':
      return `Your code is not valid Python: ${e.message}`;
    case 'timeout':
      return `${wording.timeout}: ${e.message}`;
    case 'unsafe':
      return `Your code was refused: ${e.message}`;
    case 'no-artifact':
      return 'I could not find Python code in your reply.';
    case 'too-complex':
      return `Your code is too big or too deeply nested to run: ${e.message}. Write a shorter, flatter program.`;
    case 'too-large':
      return `Your code produced too much output: ${e.message}. Do not print or return huge amounts of data.`;
    default:
      return `${wording.failed}: ${e.message}`;
  }
}

/** The request for a corrected program after feedback. */
export const PYTHON_RETRY =
  'Reply with the complete corrected Python code (imports and the function) in a ```python code block.';
