import { describe, expect, it } from 'vitest';
import { drawPools } from './pools.ts';
import { ExampleIndex } from './retrieve.ts';

const tasks = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `t${i}` }));

describe('drawPools', () => {
  it('splits train/test and three disjoint pools, deterministically by seed and independent of input order', () => {
    const pools = drawPools(tasks(40), { seed: 7 });
    expect(pools.sharedSelection).toBe(false);
    expect(pools.test).toHaveLength(20);
    const all = [...pools.diagnosis, ...pools.update, ...pools.selection, ...pools.test].map((t) => t.id);
    expect(new Set(all).size).toBe(40);
    expect(pools.diagnosis.length).toBeGreaterThanOrEqual(6);
    expect(drawPools([...tasks(40)].reverse(), { seed: 7 })).toEqual(pools);
    expect(drawPools(tasks(40), { seed: 8 }).diagnosis).not.toEqual(pools.diagnosis);
  });

  it('lets update double as selection when the train part is too small, and says so', () => {
    const pools = drawPools(tasks(12), { seed: 1 });
    expect(pools.sharedSelection).toBe(true);
    expect(pools.selection).toBe(pools.update);
    expect(pools.diagnosis.length + pools.update.length + pools.test.length).toBe(12);
    expect(() => drawPools(tasks(2), { seed: 1 })).toThrow(/at least 3 tasks/);
    expect(() => drawPools([{ id: 'a' }, { id: 'a' }, { id: 'b' }], { seed: 1 })).toThrow(/appears twice/);
  });
});

describe('example retrieval', () => {
  const index = new ExampleIndex([
    { taskId: '1', statement: "lines containing the string 'dog' and a number", program: '.*dog.*' },
    { taskId: '2', statement: 'lines starting with a capital letter', program: '[A-Z].*' },
    { taskId: '3', statement: "lines ending with 'truck'", program: '.*truck' },
  ]);

  it('ranks by TF-IDF similarity of statements and can exclude the task itself', () => {
    const hits = index.search("lines with 'dog' followed by a number", 2);
    expect(hits.map((r) => r.example.taskId)).toEqual(['1', '2']); // '2' and '3' tie at 0: by id
    expect(hits[0]!.similarity).toBeGreaterThan(0.3);
    expect(hits[1]!.similarity).toBe(0);
    expect(index.search('a capital letter first', 1)[0]?.example.taskId).toBe('2');
    expect(index.search("containing 'dog'", 3, '1').map((r) => r.example.taskId)).not.toContain('1');
  });
});
