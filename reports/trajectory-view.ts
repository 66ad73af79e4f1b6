/**
 * A compact, display-ready view of a trajectory for the HTML report: each turn's candidate,
 * verdict, witnesses, feedback, tokens and cost — long texts clipped, so a page with thousands of
 * episodes stays light. The full record stays in results.json.
 */
import { COMPACT_CASES } from '../core/meta.ts';
import type { Json, Trajectory, Turn } from '../core/types.ts';
import { trajectorySpend, turnSpend } from './spend.ts';

const MAX_TEXT = 2000;
const MAX_WITNESSES = 8;
const MAX_VALUE = 240;

/** Clips long text, saying how much was left out. */
export function clip(text: string, max = MAX_TEXT): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters)`;
}

function show(value: Json | undefined): string | undefined {
  if (value === undefined) return undefined;
  return clip(JSON.stringify(value), MAX_VALUE);
}

export interface WitnessView {
  label: string;
  input: string;
  expected?: string;
  actual?: string;
}

export interface TurnView {
  index: number;
  phase: string;
  candidate: string | null;
  pass: boolean;
  failed: number;
  total: number;
  error?: string;
  witnesses: WitnessView[];
  /** Witnesses not shown. */
  moreWitnesses: number;
  feedback?: string;
  tokens: number;
  usd: number | null;
  latencyMs: number;
  cached: boolean;
  modelError?: string;
  /** Auxiliary calls: purpose and tokens. */
  calls: { purpose: string; tokens: number }[];
}

export interface TrajectoryView {
  /** Index into the report's sections. */
  section: number;
  benchmark: string;
  model: string;
  strategy: string;
  taskId: string;
  trial: number;
  runId: string;
  status: string;
  tau: number | null;
  hardening: string | null;
  error?: string;
  /** The first prompt the model saw (the task statement in context). */
  prompt: string;
  tokens: number;
  usd: number | null;
  turns: TurnView[];
}

function turnView(t: Trajectory, turn: Turn): TurnView {
  const spend = turnSpend(t, turn);
  // A compact copy (core/meta.ts) keeps only the passing cases, and the counts in its detail.
  const counts = turn.verdict.detail?.[COMPACT_CASES];
  const compact = Array.isArray(counts) && typeof counts[0] === 'number' && typeof counts[1] === 'number';
  const failed = compact ? (counts[0] as number) : turn.verdict.cases.filter((c) => !c.pass).length;
  return {
    index: turn.index,
    phase: turn.phase,
    candidate: turn.candidate ? clip(turn.candidate.source) : null,
    pass: turn.verdict.pass,
    failed,
    total: compact ? (counts[1] as number) : turn.verdict.cases.length,
    ...(turn.verdict.error ? { error: clip(`${turn.verdict.error.kind}: ${turn.verdict.error.message}`, 600) } : {}),
    witnesses: turn.verdict.witnesses.slice(0, MAX_WITNESSES).map((w) => {
      const expected = show(w.expected);
      const actual = show(w.actual);
      return {
        label: w.label,
        input: show(w.input) ?? '',
        ...(expected === undefined ? {} : { expected }),
        ...(actual === undefined ? {} : { actual }),
      };
    }),
    moreWitnesses: Math.max(0, turn.verdict.witnesses.length - MAX_WITNESSES),
    ...(turn.feedback ? { feedback: clip(turn.feedback.text) } : {}),
    tokens: spend.tokens,
    usd: spend.usd,
    latencyMs: Math.round(turn.latencyMs),
    cached: turn.cached,
    ...(turn.modelError ? { modelError: clip(turn.modelError, 600) } : {}),
    calls: (turn.calls ?? []).map((c) => ({
      purpose: c.purpose,
      tokens: c.usage.promptTokens + c.usage.completionTokens,
    })),
  };
}

/** The view of one trajectory, placed in report section `section`. */
export function trajectoryView(t: Trajectory, section: number): TrajectoryView {
  const spend = trajectorySpend(t);
  const firstUser =
    t.turns[0]?.messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content)
      .join('\n\n') ?? '';
  return {
    section,
    benchmark: t.benchmark,
    model: t.model.name,
    strategy: t.strategy,
    taskId: t.taskId,
    trial: t.trial,
    runId: t.runId,
    status: t.outcome.status,
    tau: t.outcome.status === 'model-error' ? null : t.outcome.solvedAtTurn,
    hardening: t.outcome.hardening?.status ?? null,
    ...(t.outcome.error ? { error: clip(t.outcome.error, 600) } : {}),
    prompt: clip(firstUser),
    tokens: spend.tokens,
    usd: spend.usd,
    turns: t.turns.map((turn) => turnView(t, turn)),
  };
}
