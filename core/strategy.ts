/** The strategy contract: how much of a verdict the model is told before its next attempt, or how it refines a program without one. */
import type { FeedbackRenderer } from './oracle.ts';
import type { PromptTemplate } from './prompt.ts';
import type { RefinementSession } from './refinement.ts';
import type { Feedback, PublicTask, Verdict, Witness } from './types.ts';

export interface StrategyContext {
  task: PublicTask;
  render: FeedbackRenderer;
  /** 1-based index of the turn that produced the verdict. */
  turn: number;
  phase: 'solve' | 'hardening';
}

/** What every strategy has: a name, and how the suite runs its episodes. */
interface StrategyBase {
  readonly name: string;
  /** Run this strategy's episodes one at a time in task order (a memory shared across instances). */
  readonly sequential?: boolean;
  /** A prompt to use instead of the suite's seed prompt (e.g. HERO-O's learned prompt). */
  readonly prompt?: PromptTemplate;
}

/**
 * A feedback strategy (the A-CEGIS grid): the episode loops over turns, and after each failed
 * verdict the strategy decides how much of it the model is told. Its feedback also drives the
 * repair attempts of hardening.
 */
export interface FeedbackStrategy extends StrategyBase {
  readonly kind: 'feedback';
  /** Solve-phase turns this strategy uses within a budget (zero-shot: always 1). */
  turns(budget: number): number;
  /** Feedback on a failed verdict, or null when the strategy gives none (the episode then stops). */
  feedback(verdict: Verdict, context: StrategyContext): Feedback | null;
}

/**
 * A refining strategy (HERO-T and its baselines): the episode hands control to `refine`, which
 * never sees a verdict (see core/refinement.ts). It makes no hardening repairs.
 */
export interface RefiningStrategy extends StrategyBase {
  readonly kind: 'refining';
  refine(session: RefinementSession): Promise<void>;
}

/** How an episode is run: a feedback loop, or test-time refinement. */
export type Strategy = FeedbackStrategy | RefiningStrategy;

/**
 * Witnesses to disclose: at most `perKind` of each kind and `total` overall, shortest first, kinds
 * taken in rounds (the shortest of every kind before the second of any) so both directions
 * (too narrow / too broad) appear when both exist.
 */
export function selectWitnesses(witnesses: readonly Witness[], perKind: number, total: number): Witness[] {
  const byKind = new Map<string, Witness[]>();
  for (const w of witnesses) {
    const list = byKind.get(w.kind) ?? [];
    list.push(w);
    byKind.set(w.kind, list);
  }
  const queues = [...byKind.values()].map((list) =>
    [...list]
      .sort((a, b) => a.size - b.size || JSON.stringify(a.input).localeCompare(JSON.stringify(b.input)))
      .slice(0, perKind),
  );
  const picked: Witness[] = [];
  const depth = Math.max(0, ...queues.map((q) => q.length));
  for (let round = 0; round < depth && picked.length < total; round++) {
    const level = queues.flatMap((q) => (q[round] ? [q[round] as Witness] : [])).sort((a, b) => a.size - b.size);
    picked.push(...level.slice(0, total - picked.length));
  }
  return picked.sort((a, b) => a.size - b.size);
}

/** Counts failing cases of a verdict. */
export function failingCount(verdict: Verdict): { failed: number; total: number } {
  return { failed: verdict.cases.filter((c) => !c.pass).length, total: verdict.cases.length };
}
