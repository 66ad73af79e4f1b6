/**
 * The public suite helper: declare a benchmark (tasks × oracle × strategies) in a `*.eval.ts` file
 * and every (task, strategy, trial) becomes one concurrent vitest test, declared with its episode's
 * plan on `task.meta.witnessPlanned` so the reporter accounts for it whatever happens to the test.
 * A test fails only on a harness error (Witness's fault: an oracle crash, an engine, a limit) — or,
 * under strict data (WITNESS_STRICT_DATA, `run.strictData`), on invalid data (an item the dataset
 * makes unposable, which otherwise is recorded, listed and left out of the rates) — never because
 * the model did not solve the task. Its trajectory goes to `task.meta.witness` (read by the
 * reporter, live or after a merge) and to the run store as soon as it finishes.
 *
 * Run plumbing, read from the run's configuration (core/run-config.ts; environment variables set
 * by `witness bench`):
 * WITNESS_RESUME reuses the finished episodes of a run (WITNESS_RERUN=errored|failed redoes some),
 * WITNESS_TRIALS repeats episodes, WITNESS_BUDGET stops the run cleanly once its spending (shared
 * by all worker processes through the run store) reaches the limit: the remaining episodes are
 * skipped with a note the reporter prints, and a resume can finish them. WITNESS_STRATEGIES,
 * WITNESS_TASKS, WITNESS_EXCLUDE_TASKS and WITNESS_LIMIT (or the file's `run` section) run part of
 * the benchmark (core/selection.ts): unreadable items not excluded are reported whatever the selection.
 */
import { afterAll, describe, inject, it } from 'vitest';
import { BUDGET_SKIP_NOTE, BudgetSpentError, describeSpend } from './budget.ts';
import type { WitnessConfig } from './config.ts';
import { attachPricing } from './cost.ts';
import { planEpisode, runEpisode, unrunTrajectory } from './episode.ts';
import { DEFAULT_HARDENING, type HardeningOptions } from './hardening.ts';
import { PLANNED_META_KEY } from './meta.ts';
import { forgetPrepared, preparedOnce } from './prepared.ts';
import { configuredModelInfo, createModel, NO_MODEL_NOTICE } from './models/create.ts';
import type { ChatModel } from './models/model.ts';
import { defineOracle } from './oracle-defaults.ts';
import { type OracleDefinition, type PreparedTask, unposedStatus } from './oracle.ts';
import { loadPrompt, type PromptTemplate } from './prompt.ts';
import { RESUMED_META_KEY } from './resume.ts';
import { runConfig } from './run-config.ts';
import { selectLoaded, selectStrategies } from './selection.ts';
import { openRunSession } from './session.ts';
import { itemsOfPart, partOf, type SuitePart } from './suite-parts.ts';
import type { Strategy } from './strategy.ts';
import { terminalLine, terminalSafe } from './text-safety.ts';
import type { Json, LoadedTasks, Task, Trajectory } from './types.ts';

/** A task as declared in a suite: `benchmark` may be left out (the benchmark's name is used). */
export type TaskInput = Omit<Task, 'benchmark'> & { benchmark?: string };

export interface BenchmarkDefinition<P extends PreparedTask> {
  /** The benchmark's name: the vitest describe block, and every task's `benchmark`. */
  name: string;
  tasks: TaskInput[] | LoadedTasks;
  /** The oracle: a built-in one, or one's own (a name and a check at least; see `defineOracle`). */
  oracle: OracleDefinition<P>;
  /** The strategies to compare (see `strategies/index.ts`: `pickStrategies('zero-shot', 'diagnostic')`, or `buildStrategies(inputs)` for all). */
  strategies: readonly Strategy[];
  /** Path of the seed prompt template (relative to the working directory), or a loaded template. */
  prompt: string | PromptTemplate;
  /** Solve-phase turn budget; defaults to the config's `turns` (4). */
  turns?: number;
  /** Hardening after a success; defaults to the config (on, A-CEGIS budgets). */
  hardening?: boolean | Partial<HardeningOptions>;
  /** Repeats per (task, strategy); defaults to the config's `trials` (WITNESS_TRIALS, 1). */
  trials?: number;
  /** A model to use instead of the configured one. */
  model?: ChatModel;
  /** Configuration to use instead of the run's (core/run-config.ts: loaded once per vitest run). */
  config?: WitnessConfig;
}

let noticePrinted = false;

/** This worker's bench part (core/suite-parts.ts); the whole suite outside the bench parts. */
function currentPart(): SuitePart {
  let count = 1;
  try {
    count = inject('witnessSuiteParts') ?? 1;
  } catch {
    count = 1; // not inside a vitest worker with the global setup
  }
  return partOf(process.env.WITNESS_SUITE_PART, count);
}

/** Declares a benchmark as a vitest suite. Call it at the top level of a `*.eval.ts` file. */
export function defineBenchmark<P extends PreparedTask>(definition: BenchmarkDefinition<P>): void {
  const given = Array.isArray(definition.tasks) ? { tasks: definition.tasks, issues: [] } : definition.tasks;
  const all = given.tasks.map((t): Task => ({ ...t, benchmark: definition.name }));
  const ids = new Set<string>();
  for (const t of all) {
    if (ids.has(t.id))
      throw new Error(`benchmark ${definition.name}: task id "${t.id}" appears twice; ids must be unique`);
    ids.add(t.id);
  }
  const names = definition.strategies.map((s) => s.name);
  if (new Set(names).size !== names.length)
    throw new Error(`benchmark ${definition.name}: strategy names must be unique (${names.join(', ')})`);
  const { config, defaultedToSim } = definition.config
    ? { config: definition.config, defaultedToSim: false }
    : runConfig();
  const { run } = config;
  const loaded = selectLoaded({ tasks: all, issues: given.issues }, run, config.seed, definition.name);
  const strategies = selectStrategies(definition.strategies, run.strategies, definition.name);
  if (defaultedToSim && !definition.model && !noticePrinted) {
    noticePrinted = true;
    console.info(NO_MODEL_NOTICE);
  }
  const prompt = typeof definition.prompt === 'string' ? loadPrompt(definition.prompt) : definition.prompt;
  const budget = definition.turns ?? config.turns;
  const hardening = resolveHardening(definition.hardening, config);
  const trials = definition.trials ?? config.trials;
  const oracle = defineOracle(definition.oracle);
  const modelName = definition.model?.info.name ?? config.model.name;
  const session = openRunSession({
    benchmark: definition.name,
    config,
    modelName,
    settings: {
      model: modelName,
      seed: config.seed,
      turns: budget,
      hardening: hardening as unknown as Json,
      promptHash: prompt.hash,
      // Strategies with a prompt of their own (HERO-T's learned prompt) change results when it changes.
      strategyPrompts: Object.fromEntries(strategies.flatMap((s) => (s.prompt ? [[s.name, s.prompt.hash]] : []))),
      oracle: { name: oracle.name, settings: oracle.settings() },
      trials,
    },
    strategies,
    taskIds: loaded.tasks.map((t) => t.id),
    trials,
  });
  const { runId } = session;

  let model: ChatModel | undefined;
  const getModel = () => (model ??= session.meter(definition.model ?? createModel(config)));
  const prepare = (task: Task) => preparedOnce(oracle, task);
  const modelInfo = definition.model?.info ?? configuredModelInfo(config);
  const plan = (task: Pick<Task, 'id' | 'benchmark'>, strategy: Strategy, trial: number) =>
    planEpisode({ runId, task, strategy, model: modelInfo, oracle, prompt, budget, trial, seed: config.seed });
  const strictData = run.strictData === true;

  // No shuffling: a sequential strategy's memory must see the tasks in dataset order.
  describe(definition.name, { shuffle: false }, () => {
    afterAll(async () => {
      await model?.close?.();
      await oracle.dispose?.();
    });

    // Concurrent strategies first; a sequential one (a memory shared across instances) then runs
    // its episodes one at a time in task order, so its memory evolves deterministically.
    // `it.sequential`, not `it`: vitest's `sequence.concurrent` would make a plain `it` concurrent.
    // Each test carries its plan from declaration on, so the reporter can account for it whatever happens.
    const ordered = [...strategies.filter((s) => !s.sequential), ...strategies.filter((s) => s.sequential)];
    // With several bench parts, this worker runs its share (core/suite-parts.ts).
    const part = currentPart();
    let declared = 0;
    // Episodes still to run per task in this worker: its preparation is forgotten after the last.
    const pending = new Map<string, number>();
    const done = (task: Task) => {
      const left = (pending.get(task.id) ?? 1) - 1;
      pending.set(task.id, left);
      if (left === 0) forgetPrepared(oracle, task);
    };
    for (const strategy of ordered) {
      const declare = strategy.sequential ? it.sequential : it.concurrent;
      for (const task of itemsOfPart(loaded.tasks, part, strategy.sequential)) {
        declared++;
        pending.set(task.id, (pending.get(task.id) ?? 0) + trials);
        for (let trial = 0; trial < trials; trial++) {
          const name = testName(task.id, strategy.name, trials > 1 ? trial : null);
          const planned = plan(task, strategy, trial);
          declare(name, { meta: { [PLANNED_META_KEY]: planned } }, async ({ task: test, skip }) => {
            const stored = session.reuse(test.meta, task.id, strategy.name, trial);
            if (stored) {
              test.meta[RESUMED_META_KEY] = true;
              failIfCounted(stored, strictData);
              return;
            }
            const spentNote = session.budgetSpentNote();
            if (spentNote) skip(spentNote);
            const startedAt = new Date();
            let trajectory: Trajectory;
            // Only the task's preparation can say the data is at fault; a failure in the episode is ours.
            let preparing = true;
            try {
              const prepared = await prepare(task);
              preparing = false;
              trajectory = await runEpisode({
                runId,
                oracle,
                strategy,
                model: getModel(),
                prompt,
                budget,
                trial,
                seed: config.seed,
                hardening,
                prepared,
              });
            } catch (error) {
              if (error instanceof BudgetSpentError)
                skip(`${BUDGET_SKIP_NOTE}: ${describeSpend(error.spent, error.budget)}; episode abandoned`);
              const status = preparing ? unposedStatus(error) : 'harness-error';
              trajectory = unrunTrajectory(planned, status, describeError(error), startedAt);
            } finally {
              done(task);
            }
            trajectory = attachPricing(trajectory, config.prices);
            session.record(test.meta, trajectory);
            failIfCounted(trajectory, strictData);
          });
        }
      }
    }

    // Items the loader could not read: one test per strategy, with no model call.
    for (const issue of itemsOfPart(loaded.issues, part, true)) {
      declared++;
      const task = { id: issue.item, benchmark: definition.name };
      for (const strategy of strategies) {
        const planned = plan(task, strategy, 0);
        it.concurrent(
          testName(issue.item, strategy.name, null),
          { meta: { [PLANNED_META_KEY]: planned } },
          ({ task: test }) => {
            const trajectory = unrunTrajectory(
              planned,
              issue.kind ?? 'invalid-data',
              `${issue.item}: ${issue.message}`,
            );
            session.record(test.meta, trajectory);
            failIfCounted(trajectory, strictData);
          },
        );
      }
    }
    // vitest fails a file with no test: a part left with nothing says so.
    if (declared === 0 && part.count > 1)
      it.skip(`part ${part.index} of ${part.count}: no episodes of ${definition.name} fall to it`, () => {});
  });
}

/**
 * Fails the episode's test when it must fail the run: a harness error (Witness's fault) always,
 * invalid data only under strict data. A model that did not solve the task never fails it.
 */
function failIfCounted(trajectory: Trajectory, strictData: boolean): void {
  const { status, error } = trajectory.outcome;
  if (status === 'harness-error') throw harnessError(error);
  if (status === 'invalid-data' && strictData) throw harnessError(`invalid data (strict data): ${error}`);
}

function resolveHardening(
  option: BenchmarkDefinition<PreparedTask>['hardening'],
  config: WitnessConfig,
): HardeningOptions | null {
  if (option === false) return null;
  if (option === undefined && !config.hardening.enabled) return null;
  const fromConfig: HardeningOptions = {
    maxCycles: config.hardening.maxCycles,
    maxProbes: config.hardening.maxProbes,
    maxAdded: config.hardening.maxAdded,
  };
  return { ...DEFAULT_HARDENING, ...fromConfig, ...(typeof option === 'object' ? option : {}) };
}

/** A test's name: task id and strategy (outside text) on one line without terminal controls; vitest prints it. */
function testName(taskId: string, strategy: string, trial: number | null): string {
  return terminalLine(`${taskId} · ${strategy}${trial === null ? '' : ` · trial ${trial}`}`);
}

/** The error a failing test throws for a harness error: its message as the terminal may show it (the trajectory keeps it whole). */
function harnessError(message: string | undefined): Error {
  return new Error(terminalSafe(message ?? ''));
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
