/**
 * The evaluation API the Meta-Harness search uses: run one harness module on a list of tasks with
 * a model, each episode in its sandboxed child, and return per task the final program, the
 * oracle's verdict on it (computed on the host after the harness returned), tokens, calls, time,
 * the failure kind if any, and the full trace as a core Trajectory (its refinement log holds every
 * prompt, reply, observation and program). A failing candidate never stops the evaluation.
 */
import { harnessErrorTrajectory, runEpisode } from '../../core/episode.ts';
import type { ChatModel } from '../../core/models/model.ts';
import type { Oracle, PreparedTask } from '../../core/oracle.ts';
import { preparedOnce } from '../../core/prepared.ts';
import { loadPrompt, type PromptTemplate } from '../../core/prompt.ts';
import type { Task, Trajectory } from '../../core/types.ts';
import type { HarnessBudgets, SandboxLimits } from '../../strategies/harness/budgets.ts';
import type { HarnessFailure } from '../../strategies/harness/failure.ts';
import { FAILED_OP, harnessStrategy } from '../../strategies/harness/strategy.ts';

export interface EvaluateHarnessInput<P extends PreparedTask> {
  /** The harness module (TypeScript against the SDK). */
  harnessFile: string;
  oracle: Oracle<P>;
  tasks: readonly Task[];
  model: ChatModel;
  /** The suite's seed prompt (a path or a loaded template): what `ctx.model.answer()` sends. */
  prompt: string | PromptTemplate;
  budgets?: Partial<HarnessBudgets>;
  limits?: Partial<SandboxLimits>;
  /** Episodes at a time (default 2); a harness with `memory: true` runs one at a time in task order. */
  concurrency?: number;
  /** Repeats per task (default 1). */
  trials?: number;
  /** Run seed (default 1); the sim derives its answers from it. */
  seed?: number;
  runId?: string;
  /** Called after each episode, in completion order. */
  onEpisode?: (episode: HarnessEpisode) => void;
}

/** One task's result. */
export interface HarnessEpisode {
  taskId: string;
  trial: number;
  /** The final program (null: none, or the harness failed). */
  program: string | null;
  /** The oracle's verdict on the final program; false whenever the harness failed. */
  pass: boolean;
  /** Every model call's tokens, the answer and the harness's chat calls together. */
  tokens: { prompt: number; completion: number; total: number };
  /** Model calls the harness made. */
  calls: number;
  observes: number;
  durationMs: number;
  /** Why the harness failed, when it did. */
  failure?: HarnessFailure;
  /** Broken input or a Witness error (not the harness's fault): the task could not be run. */
  harnessError?: string;
  trajectory: Trajectory;
}

export interface HarnessEvaluation {
  harnessFile: string;
  /** The strategy name the trajectories carry. */
  strategy: string;
  episodes: HarnessEpisode[];
  summary: HarnessSummary;
}

export interface HarnessSummary {
  episodes: number;
  passed: number;
  /** Share of episodes whose final program passes. */
  passAtFinal: number;
  meanTokens: number;
  meanCalls: number;
  meanMs: number;
  /** Episodes per failure kind. */
  failures: Record<string, number>;
  harnessErrors: number;
}

/** Evaluates one harness on tasks. Throws only when the harness file cannot be read. */
export async function evaluateHarness<P extends PreparedTask>(
  input: EvaluateHarnessInput<P>,
): Promise<HarnessEvaluation> {
  const strategy = harnessStrategy(input.harnessFile, {
    ...(input.budgets ? { budgets: input.budgets } : {}),
    ...(input.limits ? { limits: input.limits } : {}),
  });
  const prompt = typeof input.prompt === 'string' ? loadPrompt(input.prompt) : input.prompt;
  const trials = input.trials ?? 1;
  const jobs = input.tasks.flatMap((task) => Array.from({ length: trials }, (_, trial) => ({ task, trial })));
  const concurrency = strategy.sequential ? 1 : Math.max(1, input.concurrency ?? 2);
  const episodes: HarnessEpisode[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      const { task, trial } = jobs[index] as (typeof jobs)[number];
      const base = {
        runId: input.runId ?? 'meta-harness',
        oracle: input.oracle,
        strategy,
        model: input.model,
        prompt,
        budget: 1,
        trial,
        seed: input.seed ?? 1,
        hardening: null,
      };
      let trajectory: Trajectory;
      try {
        const prepared = await preparedOnce(input.oracle, task);
        trajectory = await runEpisode({ ...base, prepared });
      } catch (error) {
        trajectory = harnessErrorTrajectory({ ...base, task }, (error as Error).message);
      }
      const episode = summarizeEpisode(trajectory);
      episodes[index] = episode;
      input.onEpisode?.(episode);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  return { harnessFile: input.harnessFile, strategy: strategy.name, episodes, summary: summarize(episodes) };
}

/** One episode's figures, read from its trajectory. */
export function summarizeEpisode(trajectory: Trajectory): HarnessEpisode {
  const log = trajectory.refinement?.log ?? [];
  const end = [...log].reverse().find((e) => e.op === FAILED_OP || e.op === 'done');
  const failure: HarnessFailure | undefined =
    end?.op === FAILED_OP ? { kind: end.kind as HarnessFailure['kind'], message: String(end.message) } : undefined;
  const used = (end?.used ?? {}) as { calls?: number; observes?: number };
  let prompt = 0;
  let completion = 0;
  for (const turn of trajectory.turns) {
    prompt += turn.usage.promptTokens;
    completion += turn.usage.completionTokens;
    for (const call of turn.calls ?? []) {
      prompt += call.usage.promptTokens;
      completion += call.usage.completionTokens;
    }
  }
  const last = trajectory.turns.filter((t) => t.phase === 'solve').at(-1);
  const harnessError =
    trajectory.outcome.status === 'harness-error' ? (trajectory.outcome.error ?? 'harness error') : undefined;
  return {
    taskId: trajectory.taskId,
    trial: trajectory.trial,
    program: failure ? null : (last?.candidate?.source ?? null),
    pass: !failure && !harnessError && last?.verdict.pass === true,
    tokens: { prompt, completion, total: prompt + completion },
    calls: used.calls ?? 0,
    observes: used.observes ?? 0,
    durationMs: trajectory.durationMs,
    ...(failure ? { failure } : {}),
    ...(harnessError ? { harnessError } : {}),
    trajectory,
  };
}

/** Pass@final, mean tokens, calls and time, and failures by kind. */
export function summarize(episodes: readonly HarnessEpisode[]): HarnessSummary {
  const n = episodes.length;
  const mean = (pick: (e: HarnessEpisode) => number) => (n === 0 ? 0 : episodes.reduce((s, e) => s + pick(e), 0) / n);
  const failures: Record<string, number> = {};
  for (const e of episodes) if (e.failure) failures[e.failure.kind] = (failures[e.failure.kind] ?? 0) + 1;
  const passed = episodes.filter((e) => e.pass).length;
  return {
    episodes: n,
    passed,
    passAtFinal: n === 0 ? 0 : passed / n,
    meanTokens: mean((e) => e.tokens.total),
    meanCalls: mean((e) => e.calls),
    meanMs: mean((e) => e.durationMs),
    failures,
    harnessErrors: episodes.filter((e) => e.harnessError).length,
  };
}
