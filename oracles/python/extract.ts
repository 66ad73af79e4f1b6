/** Finding the Python program in a model reply. */
import { pickCodeBlock } from '../../core/extract.ts';
import type { Candidate } from '../../core/types.ts';

const PYTHON_FENCES = ['python', 'py', 'python3'];

/**
 * The code block to evaluate: DSCodeBench takes the first fenced block (its evaluator's rule),
 * BigCodeBench the last one (models often show a draft first). A reply without fences counts as
 * code when it defines a function.
 */
export function extractPython(reply: string, which: 'first' | 'last'): Candidate | null {
  const block = pickCodeBlock(reply, PYTHON_FENCES, which);
  if (block && block.body.trim() !== '') return { source: block.body, extraction: 'code-block' };
  if (/^\s*(?:async\s+)?def\s+\w+\s*\(/m.test(reply)) return { source: reply.trim(), extraction: 'whole-reply' };
  return null;
}

/** The reply a model would give with this program (sim support). */
export function pythonAnswer(program: string): string {
  return '```python\n' + program.replace(/\s+$/, '') + '\n```';
}
