/**
 * Hardening for 200-seed tasks: after a candidate passes, fast-check generates further inputs in
 * the generator's domain — the generator itself under other seeds (fc.integer picks them), and
 * values drawn from arbitraries built from the schema of the reference's 200 inputs — and the
 * candidate must agree with the reference on them. Inputs on which the reference itself raises are
 * outside the domain and ignored. Disagreements become extra cases (`h01`, `h02`, …).
 */
import { BoundedCache } from '../../../core/bounded-cache.ts';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import type { Hardener, ProbeReport } from '../../../core/oracle.ts';
import type { Witness } from '../../../core/types.ts';
import { workerFailure } from '../pool/outcome.ts';
import { sampleInputs } from './arbitrary.ts';
import type { DsPrepared, DsRuntime } from './prepared.ts';
import { checkPhases, interpretCheck, judgeWitness, type InputsMode, type ProbeSpec } from './run.ts';

/** Hardening for DSCodeBench, given the oracle's runtime (pool, settings, probe registry). */
export function createDsCodeBenchHardener(runtime: DsRuntime): Hardener<DsPrepared> {
  const { settings, registry } = runtime;
  // Probing is deterministic for (task, program, inputs), and episodes of one task share their
  // hardening seed across strategies: each distinct probe batch runs once.
  const batches = new BoundedCache<string, Promise<{ probed: number; disagreements: Witness[] }>>({ maxEntries: 256 });

  function probeBatch(prepared: DsPrepared, code: string, inputs: InputsMode, specOf: (i: number) => ProbeSpec) {
    const key = createHash('sha256')
      .update(JSON.stringify([prepared.task.benchmark, prepared.task.id, code, inputs]))
      .digest('hex');
    return batches.rememberPromise(key, () => runBatch(prepared, code, inputs, specOf));
  }

  async function runBatch(
    prepared: DsPrepared,
    code: string,
    inputs: InputsMode,
    specOf: (i: number) => ProbeSpec,
  ): Promise<{ probed: number; disagreements: Witness[] }> {
    const phases = checkPhases(code, prepared.reference, inputs, [], settings, { maxWitnesses: 16 });
    let report;
    try {
      report = interpretCheck(await runtime.pool().run(phases), settings);
    } catch (error) {
      if (workerFailure(error)) return { probed: 0, disagreements: [] };
      throw error;
    }
    const judge = report.judge;
    if (report.referenceFailure || report.candidateFailure || !judge) return { probed: 0, disagreements: [] };
    const outsideDomain = new Set(judge.goldRaised.map((g) => g.index));
    const disagreements = judge.witnesses
      .filter((w) => !outsideDomain.has(w.index) && !w.expected.startsWith('raised '))
      .map((w): Witness => judgeWitness(w, registry.register(specOf(w.index)), `probe #${w.index + 1}`));
    return { probed: judge.total - judge.goldRaisedCount, disagreements };
  }

  return {
    async probe(prepared, candidate, { rng, maxProbes }): Promise<ProbeReport> {
      const fcSeed = rng.nextUint32();
      const half = Math.max(1, Math.floor(maxProbes / 2));
      // 1. The generator itself under a seed fast-check picks (never the task's own seed).
      const [seed] = fc.sample(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }).filter((s) => s !== settings.seed),
        { seed: fcSeed, numRuns: 1 },
      );
      const generated = await probeBatch(
        prepared,
        candidate.source,
        { kind: 'generated', seed: seed as number, n: half },
        (i) => ({
          kind: 'generated',
          seed: seed as number,
          n: half,
          index: i,
        }),
      );
      // 2. Values from the domain schema of the reference's inputs.
      const values = sampleInputs(prepared.schema, fcSeed ^ 0x5f3759df, maxProbes - half);
      const drawn = values.length
        ? await probeBatch(prepared, candidate.source, { kind: 'values', values }, (i) => ({
            kind: 'values',
            value: values[i] ?? null,
          }))
        : { probed: 0, disagreements: [] };
      const disagreements = [...generated.disagreements, ...drawn.disagreements].sort((a, b) => a.size - b.size);
      return { probed: generated.probed + drawn.probed, disagreements };
    },
    extend: (prepared, witnesses) => registry.extendWith(prepared, witnesses),
  };
}
