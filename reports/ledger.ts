/**
 * The ledger of planned episodes. Every benchmark test is declared with the plan of the episode it
 * is to record (`task.meta.witnessPlanned`, core/meta.ts), so the reporter knows each planned
 * (task × strategy × trial × model) whatever became of its test — live, after `--merge-reports`,
 * and on resume. A planned episode is
 * - **recorded**: its test put a usable trajectory on its meta (run now, or taken from the store);
 * - **not run**: the run's budget was spent before it (its test skipped with the budget note). The
 *   user's own limit stopped it, so it fails neither the test nor the run; a resume runs it. It is
 *   listed in the ledger, not given a trajectory, and the gate refuses an incomplete run;
 * - **lost**: its test ended without a trajectory — it failed (a timeout, a store that could not
 *   write), never finished (its worker died), or was skipped otherwise. A harness-error trajectory
 *   that says why stands in for it.
 * So every planned episode is in results.json exactly once: as a trajectory, or as a not-run entry.
 * Tests deselected before they ran (`-t`, `.only` elsewhere, another shard) are not planned by this
 * run. Pure functions: the reporter gathers the facts from vitest's test cases.
 */
import { BUDGET_SKIP_NOTE } from '../core/budget.ts';
import { type EpisodePlan, unrunTrajectory } from '../core/episode.ts';
import type { Trajectory } from '../core/types.ts';
import { trajectoryProblem } from './validate.ts';

/** A planned episode the budget stopped before it ran. */
export interface NotRunEntry {
  benchmark: string;
  model: string;
  strategy: string;
  taskId: string;
  trial: number;
  /** The budget note its test was skipped with. */
  reason: string;
}

/** Planned episodes against what the run recorded (see the module comment). */
export interface Ledger {
  planned: number;
  recorded: number;
  /** Planned episodes whose test ended without a trajectory; a harness-error trajectory stands in for each. */
  lost: number;
  notRun: NotRunEntry[];
}

/** What the reporter knows of one planned episode's test. */
export interface TestFacts {
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** The note of a skipped test. */
  note?: string;
  /** The messages of a failed test's errors. */
  errors: readonly string[];
  /** True when the test put a usable trajectory on its meta. */
  recorded: boolean;
  /** Why the trajectory on its meta cannot be used, when there is one. */
  unusable?: string;
}

export type Fate = { kind: 'recorded' } | { kind: 'not-run'; reason: string } | { kind: 'lost'; reason: string };

/** Longest error message quoted in a lost episode's reason. */
const MAX_MESSAGE = 500;
/** The first line of an error message, clipped. */
const clip = (text: string) => {
  const line = text.split('\n', 1)[0] as string;
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE)}…` : line;
};

/** What became of a planned episode, given its test's facts and the run's unhandled errors (a worker that died says so there). */
export function fateOf(facts: TestFacts, runErrors: readonly string[]): Fate {
  if (facts.recorded) return { kind: 'recorded' };
  if (facts.state === 'skipped' && facts.note?.startsWith(BUDGET_SKIP_NOTE))
    return { kind: 'not-run', reason: facts.note };
  if (facts.unusable) return { kind: 'lost', reason: `its test recorded an unusable trajectory: ${facts.unusable}` };
  switch (facts.state) {
    case 'failed':
      return {
        kind: 'lost',
        reason: `its test failed without recording the episode: ${facts.errors.map(clip).join('; ') || 'no error given'}`,
      };
    case 'pending': {
      const why = runErrors.length > 0 ? runErrors.slice(0, 3).map(clip).join('; ') : 'the run was interrupted';
      return { kind: 'lost', reason: `its test never finished: its vitest worker ended before it (${why})` };
    }
    case 'skipped':
      return {
        kind: 'lost',
        reason: `its test was skipped without recording the episode${facts.note ? ` (${facts.note})` : ''}`,
      };
    case 'passed':
      return { kind: 'lost', reason: 'its test passed without recording the episode' };
  }
}

/** A planned episode's plan from task meta, or undefined when it is missing or malformed. */
export function planOf(value: unknown): EpisodePlan | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  // A plan is a trajectory without turns: check it as one.
  return trajectoryProblem(unrunTrajectory(value as EpisodePlan, 'harness-error', '')) === null
    ? (value as EpisodePlan)
    : undefined;
}

/** The ledger of planned episodes and the harness-error trajectories that stand in for the lost ones. */
export function tallyLedger(
  episodes: readonly { plan: EpisodePlan; fate: Fate }[],
  now = new Date(),
): {
  ledger: Ledger;
  standIns: Trajectory[];
} {
  const ledger: Ledger = { planned: episodes.length, recorded: 0, lost: 0, notRun: [] };
  const standIns: Trajectory[] = [];
  for (const { plan, fate } of episodes) {
    if (fate.kind === 'recorded') ledger.recorded++;
    else if (fate.kind === 'not-run')
      ledger.notRun.push({
        benchmark: plan.benchmark,
        model: plan.model.name,
        strategy: plan.strategy,
        taskId: plan.taskId,
        trial: plan.trial,
        reason: fate.reason,
      });
    else {
      ledger.lost++;
      standIns.push(unrunTrajectory(plan, 'harness-error', `episode lost: ${fate.reason}`, now));
    }
  }
  return { ledger, standIns };
}

/** Planned episodes without a trajectory of their own (lost or not run), or 0. */
export function missingEpisodes(ledger: Ledger): number {
  return ledger.lost + ledger.notRun.length;
}

/** "Episodes: 120 planned, 118 recorded, 1 lost (…), 1 not run (…)". */
export function ledgerLine(ledger: Ledger): string {
  const parts = [`${ledger.planned} planned`, `${ledger.recorded} recorded`];
  if (ledger.lost > 0) parts.push(`${ledger.lost} lost (a harness-error trajectory says why for each)`);
  if (ledger.notRun.length > 0) parts.push(`${ledger.notRun.length} not run (budget spent; a resume runs them)`);
  return `Episodes: ${parts.join(', ')}`;
}

/** Why a gate must not judge a run with this ledger, or null when every planned episode has its trajectory. */
export function ledgerGap(ledger: Ledger): string | null {
  const missing = missingEpisodes(ledger);
  if (missing === 0) return null;
  const parts = [
    ...(ledger.lost > 0 ? [`${ledger.lost} lost`] : []),
    ...(ledger.notRun.length > 0 ? [`${ledger.notRun.length} not run (budget spent)`] : []),
  ];
  return `${missing} of ${ledger.planned} planned episodes have no trajectory of their own (${parts.join(', ')}): the run is incomplete`;
}

/** The ledger of several results files: counts added, not-run entries once each. Undefined when any file has none. */
export function mergeLedgers(ledgers: readonly (Ledger | undefined)[]): Ledger | undefined {
  if (ledgers.length === 0 || ledgers.some((l) => l === undefined)) return undefined;
  // The same file given twice counts once.
  const distinct = [...new Map((ledgers as Ledger[]).map((l) => [JSON.stringify(l), l])).values()];
  const notRun = new Map<string, NotRunEntry>();
  for (const l of distinct)
    for (const e of l.notRun) notRun.set(JSON.stringify([e.benchmark, e.model, e.strategy, e.taskId, e.trial]), e);
  return {
    planned: distinct.reduce((n, l) => n + l.planned, 0),
    recorded: distinct.reduce((n, l) => n + l.recorded, 0),
    lost: distinct.reduce((n, l) => n + l.lost, 0),
    notRun: [...notRun.values()],
  };
}

const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

/** The first problem that keeps `value` from being read as a Ledger, or null. */
export function ledgerProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const v = value as Record<string, unknown>;
  for (const field of ['planned', 'recorded', 'lost'] as const)
    if (!isCount(v[field])) return `field "${field}" must be a non-negative integer`;
  if (!Array.isArray(v.notRun)) return 'field "notRun" must be an array';
  for (const [i, e] of v.notRun.entries()) {
    const entry = e as Record<string, unknown> | null;
    if (
      typeof entry !== 'object' ||
      entry === null ||
      !['benchmark', 'model', 'strategy', 'taskId', 'reason'].every((k) => typeof entry[k] === 'string') ||
      !isCount(entry.trial)
    )
      return `notRun[${i}] must have string benchmark, model, strategy, taskId, reason and an integer trial`;
  }
  if ((v.planned as number) !== (v.recorded as number) + (v.lost as number) + v.notRun.length)
    return 'planned must equal recorded + lost + the not-run entries';
  return null;
}
