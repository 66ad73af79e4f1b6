/**
 * Execution without judgement (for HERO-T): import the candidate, check that its entry point is a
 * function, and run the examples of the prompt's docstring, reporting what they print or return —
 * never the hidden tests, never a verdict.
 */
import type { Observation, Observer } from '../../../core/oracle.ts';
import { describeEnvironment, formatModules } from '../environment.ts';
import { runObservedPhase } from '../observe-phase.ts';
import { explainException, refusalFailure, terminationFailure } from '../pool/outcome.ts';
import { oversizedProgram } from '../program-size.ts';
import type { BcbPrepared, BcbRuntime } from './prepared.ts';
import { programFor } from './program.ts';

/** The observer, given the oracle's runtime (pool, limits, calibration). */
export function createBigCodeBenchObserver(
  deps: Pick<BcbRuntime, 'pool' | 'calibrated' | 'limitsFor' | 'maxProgramBytes'>,
): Observer<BcbPrepared> {
  return {
    async observe(prepared, candidate): Promise<Observation> {
      const oversized = oversizedProgram(candidate.source, deps.maxProgramBytes);
      if (oversized) return { ok: false, error: oversized, output: '' };
      const limits = deps.limitsFor(prepared.deadlineMs);
      const payload = {
        program: programFor(candidate.source, prepared.codePrompt, deps.calibrated),
        entryPoint: prepared.entryPoint,
        prompt: prepared.completePrompt,
      };
      const run = await runObservedPhase(deps.pool(), {
        name: 'observe',
        kind: 'bcb.observe',
        payload,
        limits,
        deadlineMs: prepared.deadlineMs,
        capture: true,
      });
      if ('failed' in run) return run.failed;
      const { result } = run;
      const lines: string[] = [];
      let error: Observation['error'];
      let examples = 0;
      for (const event of result.events) {
        if (event.event === 'imported') lines.push(`imported; ${String(event.signature)} is defined`);
        else if (event.event === 'example') {
          examples++;
          const raised = event.raised as { type: string; message: string } | undefined;
          lines.push(`>>> ${String(event.source).replace(/\n/g, '\n... ')}`);
          if (event.output) lines.push(String(event.output).replace(/\n$/, ''));
          if (raised) lines.push(`raised ${raised.type}: ${raised.message}`);
          if (raised && !error)
            error = { kind: 'runtime', message: explainException(raised.type, raised.message, limits) };
        } else if (event.event === 'syntax-error')
          error = { kind: 'syntax', message: `${String(event.type ?? 'SyntaxError')}: ${String(event.message)}` };
        else if (event.event === 'program-error')
          error = {
            kind: 'runtime',
            message: explainException(String(event.type), String(event.message ?? ''), limits),
          };
      }
      const terminated = terminationFailure(result, prepared.deadlineMs, limits) ?? refusalFailure(result);
      if (terminated) error = { kind: terminated.kind, message: terminated.reason };
      const observation: Observation = {
        ok: !error && result.events.some((e) => e.event === 'done'),
        output: lines.join('\n'),
        shape: { rows: examples },
      };
      if (error) observation.error = error;
      return observation;
    },
    async describe(prepared) {
      const environment = await describeEnvironment(deps.pool(), prepared.libs);
      return [
        `Python ${environment.python}; task libraries: ${prepared.libs.length ? formatModules(environment, prepared.libs) : 'standard library only'}`,
        `The program runs with TZ=UTC and OMP_NUM_THREADS=1; ${prepared.entryPoint} is called by a unittest suite.`,
      ].join('\n');
    },
  };
}
