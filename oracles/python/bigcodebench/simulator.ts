/** The sim-only part of the BigCodeBench oracle: mutations, answers, and whether a candidate agrees with a witness. */
import type { Simulator } from '../../../core/oracle.ts';
import { pythonAnswer } from '../extract.ts';
import { oversizedProgram } from '../program-size.ts';
import { mutatePython } from '../sim/mutate.ts';
import type { BcbPrepared, BcbRuntime } from './prepared.ts';
import { disagrees } from './probe-run.ts';

export function createBigCodeBenchSimulator(runtime: BcbRuntime): Simulator<BcbPrepared> {
  const { maxProgramBytes, cachedRun, cachedProbe, registry } = runtime;
  return {
    mutate: (_prepared, program, rng) => mutatePython(program, rng)?.program ?? null,
    answer: (_prepared, program) => pythonAnswer(program),
    async agrees(prepared, candidate, witness) {
      if (oversizedProgram(candidate.source, maxProgramBytes)) return false;
      // A hardening witness stands for a derived call, not a test method.
      const id = witness.caseId;
      const call = id === undefined ? undefined : (prepared.extra.find((e) => e.id === id)?.spec ?? registry.spec(id));
      if (call !== undefined) {
        const probe = await cachedProbe(prepared, candidate.source, [call]);
        return probe.outcomes[0] !== undefined && !disagrees(probe.outcomes[0]);
      }
      const report = await cachedRun(prepared, candidate.source);
      if (report.failure || witness.caseId === undefined) return false;
      const outcome = report.results.get(witness.caseId)?.outcome;
      return outcome === 'pass' || outcome === 'skip';
    },
  };
}
