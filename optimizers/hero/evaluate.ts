/**
 * Running a prompt on training tasks for HERO-O: one zero-shot turn per task (the prompt is what is
 * being judged), checked by the oracle — offline, where labels are allowed. Results are memoized
 * by (prompt hash, task), so the current prompt is evaluated once per instance across rounds.
 */
import { publicView, runEpisode } from '../../core/episode.ts';
import type { ChatModel } from '../../core/models/model.ts';
import type { Oracle, PreparedTask } from '../../core/oracle.ts';
import { preparedOnce } from '../../core/prepared.ts';
import type { PromptTemplate } from '../../core/prompt.ts';
import type { Task } from '../../core/types.ts';
import { diagnostic } from '../../strategies/diagnostic.ts';
import { zeroShot } from '../../strategies/zero-shot.ts';

export interface InstanceResult {
  taskId: string;
  statement: string;
  pass: boolean;
  /** The program the model wrote, or null when it wrote none. */
  program: string | null;
  /** What execution showed (diagnostic-level feedback: witnesses or the error). */
  feedback: string;
  tokens: number;
}

export class PromptEvaluator {
  private readonly memo = new Map<string, Promise<InstanceResult>>();
  /** Task-model tokens spent evaluating prompts. */
  tokens = 0;
  calls = 0;

  constructor(
    private readonly oracle: Oracle<PreparedTask>,
    private readonly model: ChatModel,
    private readonly seed: number,
  ) {}

  prepare(task: Task): Promise<PreparedTask> {
    return preparedOnce(this.oracle, task);
  }

  evaluate(prompt: PromptTemplate, task: Task): Promise<InstanceResult> {
    const key = `${prompt.hash}\u0000${task.id}`;
    let result = this.memo.get(key);
    if (!result) {
      result = this.run(prompt, task);
      this.memo.set(key, result);
    }
    return result;
  }

  evaluateAll(prompt: PromptTemplate, tasks: readonly Task[]): Promise<InstanceResult[]> {
    return Promise.all(tasks.map((task) => this.evaluate(prompt, task)));
  }

  private async run(prompt: PromptTemplate, task: Task): Promise<InstanceResult> {
    const prepared = await this.prepare(task);
    const trajectory = await runEpisode({
      runId: 'hero-o',
      oracle: this.oracle,
      prepared,
      strategy: zeroShot,
      model: this.model,
      prompt,
      budget: 1,
      trial: 0,
      seed: this.seed,
      hardening: null,
    });
    const turn = trajectory.turns[0];
    this.tokens += trajectory.tokens.total;
    this.calls += trajectory.turns.length;
    const verdict = turn?.verdict;
    const shown =
      verdict && !verdict.pass
        ? diagnostic.feedback(verdict, { task: publicView(task), render: this.oracle.render, turn: 1, phase: 'solve' })
        : null;
    return {
      taskId: task.id,
      statement: task.description,
      pass: verdict?.pass === true,
      program: turn?.candidate?.source ?? null,
      feedback: verdict?.pass ? 'passed' : (shown?.text.replace(this.oracle.render.retry, '').trim() ?? 'no program'),
      tokens: trajectory.tokens.total,
    };
  }
}

/** Evidence for the reflector: up to `perSide` successes and failures, each with program and feedback. */
export function renderEvidence(
  results: readonly InstanceResult[],
  perSide: number,
  language: string,
): { text: string; successes: number; failures: number } {
  const successes = results.filter((r) => r.pass).slice(0, perSide);
  const failures = results.filter((r) => !r.pass).slice(0, perSide);
  const item = (r: InstanceResult) =>
    [
      `### ${r.pass ? 'PASSED' : 'FAILED'}: ${r.statement}`,
      r.program === null ? '(no program)' : '```' + language + '\n' + r.program + '\n```',
      r.pass ? '' : `Execution feedback: ${r.feedback}`,
    ]
      .filter(Boolean)
      .join('\n');
  return {
    text: [...failures, ...successes].map(item).join('\n\n'),
    successes: successes.length,
    failures: failures.length,
  };
}
