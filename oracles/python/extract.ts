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
  if (definesFunction(reply)) return { source: reply.trim(), extraction: 'whole-reply' };
  return null;
}

const DEF_AT = /(?:async\s+)?def\s+\w+\s*\(/y;
const LINE_START = /(?:^|[\n\r\u2028\u2029])\s*/g;

/**
 * Whether a line (after whitespace, which may span lines) starts `def name(` or `async def
 * name(`. Each line start's whitespace ends at the same place as the blank lines after it, so
 * every such place is tried once: linear in the reply.
 */
function definesFunction(reply: string): boolean {
  let tried = -1;
  for (const start of reply.matchAll(LINE_START)) {
    const at = (start.index as number) + start[0].length;
    if (at === tried) continue;
    tried = at;
    DEF_AT.lastIndex = at;
    if (DEF_AT.test(reply)) return true;
  }
  return false;
}

/** The reply a model would give with this program (sim support). */
export function pythonAnswer(program: string): string {
  return '```python\n' + program.trimEnd() + '\n```';
}
