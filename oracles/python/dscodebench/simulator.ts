/** The sim-only part of the DSCodeBench oracle: mutations, answers, and whether a candidate agrees with a witness. */
import type { Simulator } from '../../../core/oracle.ts';
import { pythonAnswer } from '../extract.ts';
import { oversizedProgram } from '../program-size.ts';
import { mutatePython } from '../sim/mutate.ts';
import type { DsPrepared, DsRuntime } from './prepared.ts';

export function createDsCodeBenchSimulator(runtime: DsRuntime): Simulator<DsPrepared> {
  const { settings, registry, cachedRun } = runtime;
  return {
    mutate(_prepared, program, rng) {
      return mutatePython(program, rng)?.program ?? null;
    },
    answer: (_prepared, program) => pythonAnswer(program),
    async agrees(prepared, candidate, witness) {
      // Per case, as the witness describes one input: an exception elsewhere does not count here.
      const id = witness.caseId;
      if (id === undefined || oversizedProgram(candidate.source, settings.maxProgramBytes)) return false;
      const known = prepared.caseIds.includes(id);
      const target = known ? prepared : registry.extendWith(prepared, [witness]);
      if (!known && target.extra.length === prepared.extra.length) return false;
      const index = target.caseIds.indexOf(known ? id : (target.caseIds.at(-1) as string));
      const report = await cachedRun(target, candidate.source);
      return !report.candidateFailure && report.judge?.pass[index] === true;
    },
  };
}
