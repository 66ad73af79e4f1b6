/** Test support: phase results as the worker reports them, for the pure readers of their outcome. */
import type { PhaseResult } from './protocol.ts';

/** A phase that exited normally after a millisecond, with no events, changed by `overrides`. */
export function phaseResult(overrides: Partial<PhaseResult> = {}): PhaseResult {
  return {
    name: 'p',
    exitCode: 0,
    signal: null,
    deadline: false,
    outputCap: false,
    wallMs: 1,
    cpuMs: 1,
    maxRssKb: 1,
    events: [],
    ...overrides,
  };
}
