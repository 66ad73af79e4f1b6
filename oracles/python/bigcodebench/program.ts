/** How BigCodeBench turns a sample into the program it runs (benchmarks.md §3.3). */

/**
 * Calibrated (the default): code_prompt + "\n    pass\n" + the solution — the prompt's imports and
 * a stub def come first, and a solution that redefines the function overrides the stub, while a
 * solution that is only a body completes it. Uncalibrated: the solution as it is.
 */
export function programFor(solution: string, codePrompt: string, calibrated: boolean): string {
  return calibrated ? `${codePrompt}\n    pass\n${solution}` : solution;
}

/** A samples-file entry as the official evaluator reads it: `solution`, or complete_prompt + `completion`. */
export function sampleSolution(sample: { solution?: unknown; completion?: unknown }, completePrompt: string): string | null {
  if (typeof sample.solution === 'string') return sample.solution;
  if (typeof sample.completion === 'string') return completePrompt + sample.completion;
  return null;
}
