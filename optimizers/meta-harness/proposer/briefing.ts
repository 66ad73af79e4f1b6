/** The agent proposer's messages: the iteration's briefing and each observation (pure text builders). */

export interface BriefingInput {
  iteration: number;
  candidateIds: readonly string[];
  /** The agent's step cap; unset for an external command, which writes the files itself. */
  maxSteps?: number;
  /** Shown to an external command: where its instructions are. */
  skillFile?: string;
  /** Store-relative path of the report on the last iteration the agent writes first. */
  reportPath: string;
  /** The store's per-iteration reports and frontier, when they exist (store-relative). */
  previousReport: string | null;
}

/** The task of an iteration: what to write and where; for the agent also how many steps there are. */
export function briefing(input: BriefingInput): string {
  const { iteration, candidateIds, maxSteps, reportPath, previousReport, skillFile } = input;
  const closing =
    maxSteps === undefined
      ? [
          `3. Stop when all of them are written. Write nothing else, anywhere; do not run evaluations.`,
          ...(skillFile ? ['', `Your instructions, the harness SDK and the rules for candidates: ${skillFile}`] : []),
        ]
      : [
          `3. Send {"action":"done"} when all of them are written.`,
          '',
          `You have ${maxSteps} steps (one action per reply, malformed replies included). Reply with exactly one JSON action.`,
        ];
  const folders = candidateIds.map((id) => `- candidates/${id}/harness.ts and candidates/${id}/proposal.json`);
  return [
    `Iteration ${iteration}. The search run's folder is your working directory; every path is relative to it.`,
    `Evaluated candidates, their scores, validation results and traces are under candidates/; evolution.jsonl and frontier.json summarize them${previousReport ? `; the last iteration's short report is ${previousReport}` : ''}.`,
    '',
    `1. First write your report on the last iteration's results to ${reportPath} (what worked, what failed and why, with evidence from the traces).`,
    `2. Then write ${candidateIds.length} new candidate${candidateIds.length === 1 ? '' : 's'}, one mechanism each, here and nowhere else:`,
    ...folders,
    ...closing,
  ].join('\n');
}

/** The user message that carries one observation back to the agent. */
export function observationMessage(step: number, maxSteps: number, observation: string): string {
  const left = maxSteps - step;
  const warning =
    left === 0
      ? ''
      : left <= 3
        ? `\n(${left} step${left === 1 ? '' : 's'} left: write what is missing now, then done)`
        : '';
  return `Observation (step ${step} of ${maxSteps}):\n${observation}${warning}`;
}

/** What a step's observation is replaced by once the conversation exceeds its size budget. */
export const elidedObservation = (step: number) =>
  `Observation (step ${step}): [elided to keep the conversation short; repeat the action to see it again]`;
