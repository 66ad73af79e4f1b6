/**
 * Hardening for BigCodeBench: the calls to the entry point with literal arguments in the task's
 * own TestCases are perturbed (seeded, types kept: py/bcb_derive.py) into new calls; the reference
 * and the candidate run on each in the sandbox under the task's limits. A call on which both return
 * different results, or only the candidate raises (or the candidate's run stops), is a
 * disagreement; calls on which the reference raises, stops, or disagrees with itself are outside
 * the domain and dropped. Disagreements become extra cases (`h01`, `h02`, …). There is no exact
 * check: equivalence of Python programs is undecidable, the final probe pass decides robustness.
 */
import { createHash } from 'node:crypto';
import { BoundedCache } from '../../../core/bounded-cache.ts';
import type { Hardener, ProbeReport } from '../../../core/oracle.ts';
import type { Witness } from '../../../core/types.ts';
import { workerFailure } from '../pool/outcome.ts';
import { oversizedProgram } from '../program-size.ts';
import type { BcbPrepared, BcbRuntime } from './prepared.ts';
import {
  actualOf,
  derivedCalls,
  derivePhase,
  witnessLabel,
  type CallOutcome,
  type ProbeRunReport,
} from './probe-run.ts';

/** The outcomes of a probe run that count as disagreements: differing calls, and the call a stopped run was on. */
function disagreeing(report: ProbeRunReport): { index: number; outcome: CallOutcome }[] {
  const found: { index: number; outcome: CallOutcome }[] = [];
  let stopped = false;
  report.outcomes.forEach((outcome, index) => {
    if (outcome.status === 'differ') found.push({ index, outcome });
    else if (outcome.status === 'candidate-stopped' && !stopped) {
      stopped = true;
      found.push({ index, outcome });
    }
  });
  return found;
}

/** Hardening for BigCodeBench, given the oracle's runtime (pool, limits, probe cache and registry). */
export function createBigCodeBenchHardener(runtime: BcbRuntime): Hardener<BcbPrepared> {
  // Deriving is deterministic for (test module, seed, count): each distinct derivation runs once.
  const derivations = new BoundedCache<string, Promise<string[]>>({ maxEntries: 256 });

  function derive(prepared: BcbPrepared, seed: number, max: number): Promise<string[]> {
    const key = createHash('sha256')
      .update(
        JSON.stringify([prepared.task.benchmark, prepared.task.id, prepared.test, prepared.entryPoint, seed, max]),
      )
      .digest('hex');
    return derivations.rememberPromise(key, () => {
      const phase = derivePhase(prepared.test, prepared.entryPoint, seed, max, runtime.limitsFor(prepared.deadlineMs));
      return runtime
        .pool()
        .run([phase])
        .then(([result]) => derivedCalls(result));
    });
  }

  return {
    async probe(prepared, candidate, { rng, maxProbes }): Promise<ProbeReport> {
      const seed = rng.nextUint32();
      if (oversizedProgram(candidate.source, runtime.maxProgramBytes)) return { probed: 0, disagreements: [] };
      let report: ProbeRunReport;
      try {
        const calls = await derive(prepared, seed, Math.min(maxProbes, runtime.maxProbeCalls));
        if (calls.length === 0) return { probed: 0, disagreements: [] };
        report = await runtime.cachedProbe(prepared, candidate.source, calls);
        const disagreements = disagreeing(report)
          .map(({ index, outcome }): Witness => {
            const call = calls[index] as string;
            return {
              kind: 'failing-input',
              label: witnessLabel(outcome),
              input: call,
              expected: outcome.expected ?? '',
              actual: actualOf(outcome, report.candidateFailure),
              size: call.length,
              caseId: runtime.registry.register(call),
            };
          })
          .sort((a, b) => a.size - b.size);
        const probed = report.outcomes.filter((o) => o.status === 'same').length + disagreements.length;
        return { probed, disagreements };
      } catch (error) {
        if (workerFailure(error)) return { probed: 0, disagreements: [] };
        throw error;
      }
    },
    extend: (prepared, witnesses) => runtime.registry.extendWith(prepared, witnesses),
  };
}
