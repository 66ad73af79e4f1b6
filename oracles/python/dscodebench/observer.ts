/**
 * Execution without judgement (for HERO-T): run a candidate on the first few generated inputs and
 * report what it returned or raised — never the reference's outputs, never a verdict.
 */
import type { Observation, Observer } from '../../../core/oracle.ts';
import { describeEnvironment, formatModules, moduleForLibrary } from '../environment.ts';
import { runObservedPhase } from '../observe-phase.ts';
import { explainException, findEvent, refusalFailure, terminationFailure } from '../pool/outcome.ts';
import { oversizedProgram } from '../program-size.ts';
import type { DsPrepared, DsRuntime } from './prepared.ts';

/** How many of the first generated inputs `observe` runs. */
export const OBSERVED_INPUTS = 3;

/** The observer, given the oracle's runtime (pool and settings). */
export function createDsCodeBenchObserver(runtime: Pick<DsRuntime, 'pool' | 'settings'>): Observer<DsPrepared> {
  const { settings } = runtime;
  return {
    async observe(prepared, candidate): Promise<Observation> {
      const oversized = oversizedProgram(candidate.source, settings.maxProgramBytes);
      if (oversized) return { ok: false, error: oversized, output: '' };
      const payload = {
        maxResultBytes: settings.maxResultBytes,
        code: candidate.source,
        testScript: prepared.reference.testScript,
        inputs: { kind: 'generated', seed: settings.seed, n: settings.cases },
        seed: settings.seed,
        forceRandomState: settings.forceRandomState,
        observe: OBSERVED_INPUTS,
      };
      const run = await runObservedPhase(runtime.pool(), {
        name: 'observe',
        kind: 'ds.run',
        payload,
        limits: settings.limits,
        deadlineMs: settings.candidateDeadlineMs,
        capture: true,
      });
      if ('failed' in run) return run.failed;
      const { result } = run;
      const lines: string[] = [];
      let firstError: Observation['error'];
      for (const event of result.events) {
        if (event.event === 'observed') {
          const raised = event.raised as { type: string; message: string } | undefined;
          lines.push(
            `${String(event.input)} -> ${raised ? `raised ${raised.type}: ${raised.message}` : String(event.output)}`,
          );
          if (raised && !firstError)
            firstError = { kind: 'runtime', message: explainException(raised.type, raised.message, settings.limits) };
        } else if (event.event === 'syntax-error') {
          firstError = { kind: 'syntax', message: `${String(event.type ?? 'SyntaxError')}: ${String(event.message)}` };
        } else if (event.event === 'program-error' || event.event === 'task-error') {
          firstError = {
            kind: 'runtime',
            message: explainException(String(event.type ?? 'Error'), String(event.message ?? ''), settings.limits),
          };
        }
      }
      const stopped =
        terminationFailure(result, settings.candidateDeadlineMs, settings.limits) ?? refusalFailure(result);
      if (stopped) firstError = { kind: stopped.kind, message: stopped.reason };
      const printed = result.stdoutTail?.trim() ? `\nprinted:\n${result.stdoutTail.trim()}` : '';
      const observation: Observation = {
        ok: !firstError && findEvent(result, 'done') !== undefined,
        output: `${lines.join('\n')}${printed}`,
        shape: { rows: lines.length },
      };
      if (firstError) observation.error = firstError;
      return observation;
    },
    async describe(prepared) {
      const module = moduleForLibrary(prepared.library);
      const names = ['numpy', 'pandas', ...(module && !['numpy', 'pandas'].includes(module) ? [module] : [])];
      const environment = await describeEnvironment(runtime.pool(), names);
      return [
        `Python ${environment.python}; ${formatModules(environment, names)}`,
        `Task library: ${prepared.library || 'standard library'}. The function called is the last top-level function of your code, ` +
          `with one argument per generated input (f(case) for one parameter, else f(*case)); every random generator is seeded with ${settings.seed}.`,
      ].join('\n');
    },
  };
}
