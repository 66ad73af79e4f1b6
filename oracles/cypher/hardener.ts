/**
 * Hardening for Cypher: fast-check draws small variants of the graph around what the gold and
 * candidate queries touch (perturb.ts); gold and candidate run on each inside a rolled-back
 * transaction, and every variant where they disagree becomes a witness (the shortest differing
 * row, or the candidate's error) that can be added to the task as a new case.
 */
import fc from 'fast-check';
import { BoundedCache } from '../../core/bounded-cache.ts';
import type { Hardener } from '../../core/oracle.ts';
import type { Candidate, Witness } from '../../core/types.ts';
import {
  buildPools,
  variantArbitrary,
  variantFromJson,
  variantJson,
  variantKey,
  type GraphVariant,
  type Pools,
} from './perturb.ts';
import type { CypherPrepared, CypherRuntime } from './prepared.ts';
import { judge, rowWitnesses } from './verdict.ts';

/** The witness for a variant on which the candidate fails while the gold runs. */
export function failingVariantWitness(variant: GraphVariant, message: string): Witness {
  return {
    kind: 'failing-variant',
    label: 'fails on a variant of the graph',
    input: { variant: variantJson(variant), message },
    size: message.length,
  };
}

/** The Cypher Hardener over the oracle's runtime. */
export function cypherHardener(setup: CypherRuntime): Hardener<CypherPrepared> {
  const pools = new BoundedCache<string, Promise<Pools>>({ maxEntries: 500 });
  const poolsFor = (gold: string, candidate: string) =>
    pools.remember(`${gold}\u0000${candidate}`, () =>
      buildPools(setup.runner.driver, [gold, candidate], { database: setup.runner.options.database }),
    );

  return {
    async probe(prepared: CypherPrepared, candidate: Candidate, { rng, maxProbes }) {
      // The gold's own text gives the gold's results on every variant: nothing to find.
      if (candidate.source === prepared.task.gold) return { probed: 0, disagreements: [] };
      const guard = await setup.runner.guard(candidate.source);
      if (!guard.ok) return { probed: 0, disagreements: [] };
      const arbitrary = variantArbitrary(await poolsFor(prepared.task.gold, candidate.source));
      if (!arbitrary) return { probed: 0, disagreements: [] };
      const known = new Set(prepared.variants.map((v) => variantKey(v.variant)));
      const drawn = fc.sample(arbitrary, {
        seed: rng.int(2 ** 31),
        numRuns: Math.min(maxProbes, setup.variantsPerRound),
      });
      const variants = drawn.filter(
        (v, i) =>
          v.ops.length > 0 &&
          !known.has(variantKey(v)) &&
          drawn.findIndex((x) => variantKey(x) === variantKey(v)) === i,
      );
      let probed = 0;
      const found: { witness: Witness; ops: number }[] = [];
      for (const variant of variants) {
        const [gold, run] = await setup.runner.runOnVariant(variant, [
          { query: prepared.task.gold, role: 'gold' },
          { query: candidate.source, role: 'candidate' },
        ]);
        if (!gold?.ok || !run) continue;
        probed++;
        if (!run.ok) {
          found.push({ witness: failingVariantWitness(variant, run.error.message), ops: variant.ops.length });
          continue;
        }
        const judgement = judge(gold.table, run.table, { orderMatters: prepared.orderMatters, ...setup.comparison });
        if (judgement.error)
          found.push({ witness: failingVariantWitness(variant, judgement.error.message), ops: variant.ops.length });
        else if (judgement.outcome?.equal === false) {
          const [first] = rowWitnesses(judgement, variant).sort((a, b) => a.size - b.size);
          if (first) found.push({ witness: first, ops: variant.ops.length });
        }
      }
      found.sort((a, b) => a.ops - b.ops || a.witness.size - b.witness.size);
      return { probed, disagreements: found.map((f) => f.witness) };
    },

    extend(prepared, witnesses) {
      const variants = [...prepared.variants];
      const keys = new Set(variants.map((v) => variantKey(v.variant)));
      for (const w of witnesses) {
        const variant =
          typeof w.input === 'object' && w.input !== null && !Array.isArray(w.input)
            ? variantFromJson(w.input.variant)
            : null;
        if (!variant || keys.has(variantKey(variant))) continue;
        keys.add(variantKey(variant));
        variants.push({ id: `variant-${variants.length + 1}`, variant });
      }
      const base = prepared.caseIds.filter((id) => !id.startsWith('variant-'));
      return { ...prepared, variants, caseIds: [...base, ...variants.map((v) => v.id)] };
    },
  };
}
