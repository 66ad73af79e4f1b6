/**
 * The leaderboard as data (`witness.report`, version 1; JSON Schema in
 * reports/schema/witness.report.schema.json): one section per (benchmark, model[, run]) with the
 * summary rows plus the series the HTML page plots, run totals, merge notes, harness errors, the
 * items of invalid data and the gate's verdict when one ran. Built from trajectories by pure functions.
 */
import type { Trajectory } from '../core/types.ts';
import type { BootstrapOptions } from './bootstrap.ts';
import { convergenceCurve, maxBudget, tauHistogram, type TauHistogram } from './curves.ts';
import type { GateVerdict } from './gate.ts';
import type { Ledger } from './ledger.ts';
import { compareTrajectories } from './merge.ts';
import { groupSpend, type Spend } from './spend.ts';
import {
  type Group,
  groupTrajectories,
  type HarnessErrorEntry,
  type InvalidDataEntry,
  listHarnessErrors,
  listInvalidData,
  sectionTitle,
  summarizeGroup,
  type SummaryRow,
} from './summary.ts';
import { type TrajectoryView, trajectoryView } from './trajectory-view.ts';

export const REPORT_SCHEMA = 'witness.report';
export const REPORT_VERSION = 1;

export interface ReportRow extends SummaryRow {
  /** Share of counted trajectories solved by turn t (index t − 1). */
  curve: (number | null)[];
  /** Time-to-success distribution. */
  tau: TauHistogram;
}

export interface ReportSection {
  benchmark: string;
  model: string;
  variant?: string;
  title: string;
  privileged: boolean;
  /** Largest turn budget in the section (the x axis of the convergence plot). */
  turns: number;
  rows: ReportRow[];
}

export interface RunTotal {
  runId: string;
  trajectories: number;
  spend: Spend;
}

export interface ReportFile {
  schema: typeof REPORT_SCHEMA;
  version: typeof REPORT_VERSION;
  createdAt: string;
  runIds: string[];
  /** Results files the report was made from (empty when written live by the reporter). */
  sources: string[];
  notes: string[];
  sections: ReportSection[];
  runs: RunTotal[];
  harnessErrors: HarnessErrorEntry[];
  /** Items the dataset makes unposable, once each (absent in reports written before invalid data was told apart). */
  invalidData?: InvalidDataEntry[];
  /** Planned episodes against recorded ones, when the run kept its ledger (reports/ledger.ts). */
  ledger?: Ledger;
  gate?: GateVerdict;
}

export interface ReportInput {
  variantOf?: (t: Trajectory) => string | undefined;
  notes?: string[];
  sources?: string[];
  gate?: GateVerdict;
  ledger?: Ledger;
  createdAt?: Date;
  bootstrap?: BootstrapOptions;
  /** False: leave the trajectory views out (the writer builds them itself, from full trajectories). */
  views?: boolean;
}

export interface SectionGroups {
  head: Pick<ReportSection, 'benchmark' | 'model' | 'variant'>;
  groups: Group[];
}

/** The groups of sorted trajectories, section by section (a section's index is the report section's). */
export function sectionGroups(
  sorted: readonly Trajectory[],
  variantOf?: (t: Trajectory) => string | undefined,
): SectionGroups[] {
  const grouped: SectionGroups[] = [];
  for (const group of groupTrajectories(sorted, variantOf)) {
    const last = grouped.at(-1);
    if (
      last &&
      last.head.benchmark === group.benchmark &&
      last.head.model === group.model &&
      last.head.variant === group.variant
    )
      last.groups.push(group);
    else
      grouped.push({
        head: {
          benchmark: group.benchmark,
          model: group.model,
          ...(group.variant === undefined ? {} : { variant: group.variant }),
        },
        groups: [group],
      });
  }
  return grouped;
}

/** The report and the trajectory views the HTML page opens, from trajectories. */
export function buildReport(
  trajectories: readonly Trajectory[],
  input: ReportInput = {},
): { report: ReportFile; views: TrajectoryView[] } {
  const sorted = [...trajectories].sort(compareTrajectories);
  // First the groups of each section, so the curves can span the section's largest turn budget.
  const grouped = sectionGroups(sorted, input.variantOf);
  const views: TrajectoryView[] = [];
  const sections = grouped.map(({ head, groups }, index): ReportSection => {
    const turns = Math.max(...groups.map((g) => maxBudget(g.trajectories)));
    const rows = groups.map((g): ReportRow => ({
      ...summarizeGroup(g, input.bootstrap),
      curve: convergenceCurve(g.trajectories, turns),
      tau: tauHistogram(g.trajectories, turns),
    }));
    if (input.views !== false)
      for (const g of groups) for (const t of g.trajectories) views.push(trajectoryView(t, index));
    return { ...head, title: sectionTitle(head), privileged: rows.some((r) => r.privileged), turns, rows };
  });
  const runIds = [...new Set(sorted.map((t) => t.runId))].sort();
  const report: ReportFile = {
    schema: REPORT_SCHEMA,
    version: REPORT_VERSION,
    createdAt: (input.createdAt ?? new Date()).toISOString(),
    runIds,
    sources: input.sources ?? [],
    notes: input.notes ?? [],
    sections,
    runs: runIds.map((runId) => {
      const own = sorted.filter((t) => t.runId === runId);
      return { runId, trajectories: own.length, spend: groupSpend(own) };
    }),
    harnessErrors: listHarnessErrors(sorted),
    invalidData: listInvalidData(sorted),
    ...(input.ledger ? { ledger: input.ledger } : {}),
    ...(input.gate ? { gate: input.gate } : {}),
  };
  return { report, views };
}
