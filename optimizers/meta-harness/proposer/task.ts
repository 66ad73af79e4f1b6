/** The task of one proposer iteration as text, read off the store (shared by the agent and an external command). */
import { existsSync } from 'node:fs';
import type { ProposeInput } from './contract.ts';
import { briefing } from './briefing.ts';

/** The file a proposer writes its report on the last iteration to (store-relative). */
export const reportPath = (iteration: number) => `proposer/${iteration}/report.md`;

/** The briefing of `input`'s iteration; with `maxSteps` for the agent, without for an external command. */
export function iterationBriefing(input: ProposeInput, maxSteps?: number): string {
  const { store, iteration, candidateIds } = input;
  const previous =
    iteration > 1 && existsSync(store.reportFile(iteration - 1)) ? `reports/iteration-${iteration - 1}.md` : null;
  return briefing({
    iteration,
    candidateIds,
    reportPath: reportPath(iteration),
    previousReport: previous,
    ...(maxSteps === undefined ? { skillFile: input.skillFile } : { maxSteps }),
  });
}
