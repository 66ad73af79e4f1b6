import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heroSplit, type HeroSplit, type SplitItem } from './splits.ts';

/** Tasks with unique ids, each in one of `groups` groups (or none when groups is 0). */
const items = fc
  .tuple(fc.integer({ min: 3, max: 90 }), fc.integer({ min: 0, max: 9 }), fc.nat())
  .map(([n, groups, salt]) =>
    Array.from({ length: n }, (_, i): SplitItem => {
      const id = `q${(i * 7919 + salt) % 100_003}-${i}`;
      return groups ? { id, group: `db${(i * 31 + salt) % groups}` } : { id };
    }),
  );
const seed = fc.nat({ max: 1_000_000 });

const pools = (s: HeroSplit) => [s.diagnosis, s.update, ...(s.sharedSelection ? [] : [s.selection]), s.evaluation];
const groupOf = (list: SplitItem[]) => new Map(list.map((i) => [i.id, i.group]));

describe('heroSplit', () => {
  it('gives disjoint pools and evaluation split that cover the data exactly once', () => {
    fc.assert(
      fc.property(items, seed, (list, s) => {
        const split = heroSplit(list, null, { seed: s });
        const all = pools(split).flat();
        expect(new Set(all).size).toBe(all.length);
        expect(new Set(all)).toEqual(new Set(list.map((i) => i.id)));
        expect(split.sharedSelection ? split.selection : []).toEqual(split.sharedSelection ? split.update : []);
        expect(split.diagnosis.length).toBeGreaterThan(0);
        expect(split.update.length).toBeGreaterThan(0);
      }),
    );
  });

  it('is deterministic by seed and does not depend on the order of the data', () => {
    fc.assert(
      fc.property(items, seed, (list, s) => {
        const split = heroSplit(list, null, { seed: s });
        expect(heroSplit(list, null, { seed: s })).toEqual(split);
        expect(heroSplit([...list].reverse(), null, { seed: s })).toEqual(split);
      }),
    );
    const list = Array.from({ length: 60 }, (_, i) => ({ id: String(i) }));
    expect(heroSplit(list, null, { seed: 1 }).diagnosis).not.toEqual(heroSplit(list, null, { seed: 2 }).diagnosis);
  });

  it('never puts one group (database) in two pools or in a pool and the evaluation split', () => {
    let byGroup = 0;
    fc.assert(
      fc.property(items, seed, (list, s) => {
        fc.pre(new Set(list.map((i) => i.group)).size >= 3 && list[0]!.group !== undefined);
        const split = heroSplit(list, null, { seed: s });
        const group = groupOf(list);
        const owners = new Map<string, number>();
        pools(split).forEach((pool, index) => {
          for (const id of pool) {
            const g = group.get(id) as string;
            if (split.groups) expect(owners.get(g) ?? index, `group ${g}`).toBe(index);
            owners.set(g, owners.get(g) ?? index);
          }
        });
        if (split.groups) byGroup++;
        // The evaluation split shares no group with the optimization pools in any case.
        const evaluationGroups = new Set(split.evaluation.map((id) => group.get(id)));
        for (const id of [...split.diagnosis, ...split.update, ...split.selection])
          expect(evaluationGroups.has(group.get(id))).toBe(false);
      }),
    );
    // Most runs deal whole groups to the pools (the rest have one group left after the hold-out).
    expect(byGroup).toBeGreaterThan(20);
  });

  it('has the documented sizes: thirds by task, balanced within the largest group by group', () => {
    fc.assert(
      fc.property(items, seed, fc.constantFrom(0.25, 0.5, 0.75), (list, s, fraction) => {
        const byTask = list.map((i) => ({ id: i.id }));
        const split = heroSplit(byTask, null, { seed: s, evaluationFraction: fraction });
        const train = Math.max(2, Math.round(list.length * (1 - fraction)));
        expect(split.evaluation).toHaveLength(list.length - train);
        if (train >= 12) {
          expect(split.sharedSelection).toBe(false);
          expect([split.diagnosis.length, split.update.length]).toEqual([Math.floor(train / 3), Math.floor(train / 3)]);
        } else expect(split.sharedSelection).toBe(true);
      }),
    );
    fc.assert(
      fc.property(items, seed, (list, s) => {
        fc.pre(list[0]!.group !== undefined);
        const evaluation = [{ id: 'dev-1', group: 'dev-db' }];
        const split = heroSplit(list, evaluation, { seed: s });
        expect(split.evaluation).toEqual(['dev-1']);
        if (!split.groups) return;
        const sizes = new Map<string, number>();
        for (const i of list) sizes.set(i.group as string, (sizes.get(i.group as string) ?? 0) + 1);
        const largest = Math.max(...sizes.values());
        const lengths = [split.diagnosis, split.update, ...(split.sharedSelection ? [] : [split.selection])].map(
          (p) => p.length,
        );
        expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThanOrEqual(largest);
        expect(split.groups.evaluation).toEqual(['dev-db']);
      }),
    );
  });

  it('uses a given evaluation split whole and deals the databases of the optimization data', () => {
    const train = [
      ...Array.from({ length: 6 }, (_, i) => ({ id: `a${i}`, group: 'alpha' })),
      ...Array.from({ length: 5 }, (_, i) => ({ id: `b${i}`, group: 'beta' })),
      ...Array.from({ length: 4 }, (_, i) => ({ id: `c${i}`, group: 'gamma' })),
    ];
    const dev = [
      { id: '0', group: 'delta' },
      { id: '1', group: 'delta' },
    ];
    const split = heroSplit(train, dev, { seed: 3 });
    expect(split.evaluation).toEqual(['0', '1']);
    expect(split.sharedSelection).toBe(false);
    expect([...split.groups!.diagnosis, ...split.groups!.update, ...split.groups!.selection].sort()).toEqual([
      'alpha',
      'beta',
      'gamma',
    ]);
    // Two databases: one for diagnosis, the other for update and selection.
    const two = heroSplit(train.slice(0, 11), dev, { seed: 3 });
    expect(two.sharedSelection).toBe(true);
    expect(two.groups!.update).toEqual(two.groups!.selection);
    expect(() => heroSplit([{ id: 'x' }, { id: 'x' }, { id: 'y' }], null, { seed: 1 })).toThrow(/"x" appears twice/);
  });
});
