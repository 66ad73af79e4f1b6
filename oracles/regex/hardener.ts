/**
 * Hardening for regexes (A-CEGIS): probes beyond the hidden cases, labelled by the gold; the case
 * list extended with disagreements (ids h01, h02, …); and the exact check.
 *
 * The probe pool is probes.ts's (generic strings, literals, samples, transforms); when the exact
 * comparison of gold and candidate is undecided, up to half the budget goes first to probes aimed
 * at the difference (difference-probes.ts). A batch that cannot run (timeout, V8 refusing) probes
 * nothing. `exact` is true / false when the comparison decides, 'undecided' otherwise (also for a
 * candidate that cannot be compiled), so an undecided solution is never robust.
 */
import type { Hardener } from '../../core/oracle.ts';
import { isVerdictError } from './candidate.ts';
import { differenceProbes } from './difference-probes.ts';
import { compareLanguages } from './equivalence.ts';
import { caseWitness, type RegexCase } from './hidden-tests.ts';
import type { RegexPrepared, RegexRuntime } from './prepared.ts';
import { buildProbePool } from './probes.ts';

/** The regex Hardener over the oracle's runtime. */
export function regexHardener(setup: RegexRuntime): Hardener<RegexPrepared> {
  return {
    async probe(prepared, candidate, { rng, maxProbes }) {
      const compiled = setup.compile(candidate);
      if (isVerdictError(compiled)) return { probed: 0, disagreements: [] };
      const known = new Set(prepared.cases.map((c) => c.input));
      const targeted = differenceProbes(
        prepared.gold,
        compiled,
        rng.fork('difference'),
        Math.floor(maxProbes / 2),
      ).filter((p) => !known.has(p));
      const pool = buildProbePool({
        description: prepared.task.description,
        gold: prepared.gold,
        candidate: compiled,
        examples: [...known],
        rng,
        max: maxProbes - targeted.length,
      });
      const probes = [...new Set([...targeted, ...pool])].slice(0, maxProbes);
      const outcome = await setup.matcher().matchAll(compiled, probes, setup.deadlineMs);
      if (!outcome.ok) return { probed: 0, disagreements: [] };
      const goldTest = prepared.gold.test as (s: string) => boolean;
      const disagreements = probes
        .map((input, i) => ({ input, expected: goldTest(input), actual: outcome.results[i] as boolean }))
        .filter((p) => p.expected !== p.actual && !known.has(p.input))
        .sort((a, b) => a.input.length - b.input.length || a.input.localeCompare(b.input))
        .map((p) => caseWitness({ id: '', input: p.input, expected: p.expected }, p.actual));
      return { probed: probes.length, disagreements };
    },
    extend(prepared, witnesses) {
      const start = prepared.cases.filter((c) => c.id.startsWith('h')).length;
      const added: RegexCase[] = witnesses.map((w, i) => ({
        id: `h${String(start + i + 1).padStart(2, '0')}`,
        input: String(w.input),
        expected: w.expected === true,
      }));
      const cases = [...prepared.cases, ...added];
      return { ...prepared, cases, caseIds: cases.map((c) => c.id) };
    },
    async exact(prepared, candidate) {
      const compiled = setup.compile(candidate);
      if (isVerdictError(compiled)) return 'undecided';
      const comparison = compareLanguages(prepared.gold, compiled);
      return comparison.decided ? comparison.equivalent : 'undecided';
    },
  };
}
