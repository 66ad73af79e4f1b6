/** How BigCodeBench turns a sample into the program it runs (benchmarks.md §3.3). */
import { jsonKind } from '../jsonl.ts';

/**
 * Calibrated (the default): code_prompt + "\n    pass\n" + the solution — the prompt's imports and
 * a stub def come first, and a solution that redefines the function overrides the stub, while a
 * solution that is only a body completes it. Uncalibrated: the solution as it is.
 */
export function programFor(solution: string, codePrompt: string, calibrated: boolean): string {
  return calibrated ? `${codePrompt}\n    pass\n${solution}` : solution;
}

/**
 * A samples-file entry as the official evaluator reads it: `solution`, or complete_prompt +
 * `completion`; else what is wrong with the entry (it is scored as a failed sample).
 */
export function sampleSolution(
  sample: { solution?: unknown; completion?: unknown },
  completePrompt: string,
): string | { problem: string } {
  if (typeof sample.solution === 'string') return sample.solution;
  if (typeof sample.completion === 'string') return completePrompt + sample.completion;
  if (sample.solution !== undefined)
    return { problem: `has a "solution" that is ${jsonKind(sample.solution)}, not a string` };
  if (sample.completion !== undefined)
    return { problem: `has a "completion" that is ${jsonKind(sample.completion)}, not a string` };
  return { problem: 'has no "solution" or "completion" string' };
}
