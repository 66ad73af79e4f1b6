/**
 * The run plumbing of one benchmark in one vitest worker: which run it belongs to, what a resume
 * reuses from the run store (and what it must redo), and the run-wide budget. core/suite.ts asks
 * it before each episode; the policies themselves live in resume.ts and budget.ts.
 */
import { BUDGET_SKIP_NOTE, budgetSpent, describeSpend, hasLimit, meteredModel, SpendLedger } from './budget.ts';
import type { TaskMeta } from '@vitest/runner';
import { ConfigError, type WitnessConfig } from './config.ts';
import { compactTrajectory, type StoredRef } from './meta.ts';
import type { ChatModel } from './models/model.ts';
import { ResumePlan, settingsConflict } from './resume.ts';
import { newRunId, RunStore, type StoredAt } from './store.ts';
import type { Json, Trajectory } from './types.ts';

export interface SessionInput {
  benchmark: string;
  config: WitnessConfig;
  /** Name of the model under test (part of every store key). */
  modelName: string;
  /** What the benchmark runs with; a resume must match it (trials may grow). */
  settings: Record<string, Json>;
  /** Strategies of the benchmark; a sequential one carries a memory from task to task. */
  strategies: readonly { name: string; sequential?: boolean }[];
  taskIds: readonly string[];
  trials: number;
}

export interface RunSession {
  readonly runId: string;
  readonly store: RunStore;
  /** The stored trajectory a resume reuses for this episode, or undefined when it must run. */
  reusable(taskId: string, strategy: string, trial: number): Trajectory | undefined;
  /** Puts the reusable stored episode on a test's meta (compact copy + store reference) and returns it, or undefined when it must run. */
  reuse(meta: TaskMeta, taskId: string, strategy: string, trial: number): Trajectory | undefined;
  /** Appends a finished trajectory to the run store and puts its compact copy and store reference on the test's meta; throws, saying so, when the store cannot write it. */
  record(meta: TaskMeta, trajectory: Trajectory): void;
  /** The model, with the budget check and spend ledger when a budget is set. */
  meter(model: ChatModel): ChatModel;
  /** The skip note when the run's budget is spent, else null. */
  budgetSpentNote(): string | null;
}

/** Opens the session: reads a resumed run's store and checks its settings, or records a new run's. */
export function openRunSession(input: SessionInput): RunSession {
  const { benchmark, config, modelName, settings } = input;
  const runId = config.run.resume ?? config.run.id ?? newRunId();
  const store = new RunStore(config.storeDir, runId);
  const keyOf = (taskId: string, strategy: string, trial: number) =>
    RunStore.key({ benchmark, model: { name: modelName }, taskId, strategy, trial });

  const plan = config.run.resume ? ResumePlan.load(store, config.run.rerun) : undefined;
  const stored = plan ? store.readSettings(benchmark) : undefined;
  const conflict = stored && settingsConflict(runId, benchmark, stored, settings);
  if (conflict) throw new ConfigError(conflict);
  if (!stored) store.writeSettings(benchmark, settings);
  for (const problem of plan?.unreadable ?? []) console.warn(`witness: resume: ${problem} (that episode runs again)`);
  for (const note of plan?.torn ?? []) console.info(`witness: resume: ${note} (that episode runs again)`);

  // A sequential strategy carries a memory from one instance to the next, so its stored episodes
  // can be reused only when all of them are: an interrupted sequence is redone from its first task.
  const restarted = new Set<string>();
  for (const strategy of plan ? input.strategies.filter((s) => s.sequential) : []) {
    const keys = input.taskIds.flatMap((taskId) =>
      Array.from({ length: input.trials }, (_, trial) => keyOf(taskId, strategy.name, trial)),
    );
    const reusable = keys.filter((k) => plan?.reusable(k) !== undefined).length;
    if (reusable > 0 && reusable < keys.length) {
      restarted.add(strategy.name);
      console.info(
        `witness: resume: ${benchmark} · ${strategy.name} runs in task order with a memory and was not finished: its ${reusable} stored episodes are redone in order`,
      );
    }
  }

  const budget = config.budget;
  if (budget.usd !== undefined && !config.prices[modelName]) {
    throw new ConfigError(
      `a budget in USD needs a price for model '${modelName}': add "prices": { "${modelName}": { "input": …, "output": … } } (USD per million tokens) to witness.config.json`,
    );
  }
  const ledger = hasLimit(budget) ? new SpendLedger(store.spendDir) : undefined;

  const reusableAt = (taskId: string, strategy: string, trial: number): StoredAt | undefined =>
    restarted.has(strategy) ? undefined : plan?.reusableAt(keyOf(taskId, strategy, trial));
  const put = (meta: TaskMeta, trajectory: Trajectory, at: StoredAt) => {
    const ref: StoredRef = { storeDir: config.storeDir, runId, ...at };
    meta.witness = compactTrajectory(trajectory);
    meta.witnessStored = ref;
  };

  return {
    runId,
    store,
    reusable: (taskId, strategy, trial) => {
      const at = reusableAt(taskId, strategy, trial);
      return at && store.read(at);
    },
    reuse(meta, taskId, strategy, trial) {
      const at = reusableAt(taskId, strategy, trial);
      if (!at) return undefined;
      const stored = store.read(at);
      put(meta, stored, at);
      return stored;
    },
    record(meta, trajectory) {
      let at: StoredAt;
      try {
        at = store.save(trajectory);
      } catch (error) {
        throw new Error(`the run store could not write the trajectory: ${(error as Error).message}`);
      }
      put(meta, trajectory, at);
    },
    meter(model) {
      if (!ledger) return model;
      const price = config.prices[model.info.name];
      return meteredModel(model, { ledger, budget, ...(price ? { price } : {}) });
    },
    budgetSpentNote() {
      if (!ledger) return null;
      const spent = ledger.total();
      return budgetSpent(spent, budget)
        ? `${BUDGET_SKIP_NOTE}: ${describeSpend(spent, budget)}; episode not run`
        : null;
    },
  };
}
