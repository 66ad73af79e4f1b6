/** Hand-built trajectories for the reports tests. Not a test file itself. */
import type { HardeningRecord, OutcomeStatus, Trajectory, Turn, TurnPhase } from '../../core/types.ts';

export interface TurnSpec {
  /** Candidate source; null = no artifact / model failure. */
  source: string | null;
  /** Ids of the passing cases; other `caseIds` fail. Omit `cases` entirely with `ranNothing`. */
  pass?: string[];
  ranNothing?: boolean;
  phase?: TurnPhase;
  syntaxError?: string;
  modelError?: string;
  estimated?: boolean;
}

export interface TrajectorySpec {
  taskId: string;
  strategy?: string;
  benchmark?: string;
  model?: string;
  privileged?: boolean;
  trial?: number;
  runId?: string;
  oracle?: string;
  settings?: Trajectory['oracle']['settings'];
  promptHash?: string;
  caseIds?: string[];
  turns: TurnSpec[];
  status?: OutcomeStatus;
  /** Defaults to the first solve turn whose cases all pass. */
  solvedAtTurn?: number | null;
  hardening?: Partial<HardeningRecord> & { status: HardeningRecord['status'] };
  error?: string;
  tokens?: { prompt: number; completion: number; estimated?: boolean };
  cache?: { hits: number; misses: number };
}

export const CASES = ['p1', 'p2', 'n1', 'n2'];

function makeTurn(spec: TurnSpec, index: number, caseIds: string[]): Turn {
  const passing = new Set(spec.pass ?? []);
  const cases = spec.ranNothing ? [] : caseIds.map((id) => ({ id, pass: passing.has(id) }));
  const pass = cases.length > 0 && cases.every((c) => c.pass) && !spec.syntaxError;
  return {
    index,
    phase: spec.phase ?? 'solve',
    messages: [{ role: 'user', content: `turn ${index}` }],
    reply: spec.modelError ? null : spec.source ?? 'no code here',
    candidate: spec.source === null ? null : { source: spec.source, extraction: 'code-block' },
    verdict: {
      pass,
      cases,
      witnesses: [],
      ...(spec.syntaxError ? { error: { kind: 'syntax' as const, message: spec.syntaxError } } : {}),
      timings: { totalMs: 1 },
    },
    usage: { promptTokens: 10, completionTokens: 5, ...(spec.estimated ? { estimated: true } : {}) },
    latencyMs: 3,
    cached: false,
    ...(spec.modelError ? { modelError: spec.modelError } : {}),
  };
}

export function makeTrajectory(spec: TrajectorySpec): Trajectory {
  const caseIds = spec.caseIds ?? CASES;
  const turns = spec.turns.map((t, i) => makeTurn(t, i + 1, caseIds));
  const firstPass = turns.find((t) => t.phase === 'solve' && t.verdict.pass);
  const solvedAtTurn = spec.solvedAtTurn !== undefined ? spec.solvedAtTurn : firstPass ? firstPass.index : null;
  const status = spec.status ?? (solvedAtTurn !== null ? 'solved' : 'unsolved');
  const hardening: HardeningRecord | undefined = spec.hardening && {
    cycles: 1,
    probesRun: 100,
    probesAdded: 0,
    repairs: 0,
    sampledClean: true,
    exact: null,
    added: [],
    ...spec.hardening,
  };
  const tokens = spec.tokens ?? { prompt: 10 * turns.length, completion: 5 * turns.length };
  return {
    schema: 'witness.trajectory',
    version: 1,
    runId: spec.runId ?? 'run-1',
    benchmark: spec.benchmark ?? 'nlrx-turk',
    taskId: spec.taskId,
    strategy: spec.strategy ?? 'diagnostic',
    model: { name: spec.model ?? 'sim', privileged: spec.privileged ?? false },
    trial: spec.trial ?? 0,
    seed: 1,
    promptHash: spec.promptHash ?? '0123456789abcdef',
    oracle: { name: spec.oracle ?? 'regex', settings: spec.settings ?? { dialect: 'python', match: 'full' } },
    budget: 4,
    caseIds,
    turns,
    outcome: {
      status,
      solvedAtTurn,
      ...(hardening ? { hardening } : {}),
      ...(spec.error ? { error: spec.error } : {}),
    },
    tokens: {
      prompt: tokens.prompt,
      completion: tokens.completion,
      total: tokens.prompt + tokens.completion,
      estimated: tokens.estimated ?? false,
    },
    cache: spec.cache ?? { hits: 0, misses: turns.length },
    startedAt: '2026-07-01T00:00:00.000Z',
    durationMs: 42,
  };
}
