import { describe, expect, it } from 'vitest';
import { benchPartName, isBenchPart, itemsOfPart, partOf } from './suite-parts.ts';

describe('suite parts', () => {
  const items = ['a', 'b', 'c', 'd', 'e'];

  it('share the items of a concurrent strategy, each once', () => {
    const parts = [1, 2].map((index) => itemsOfPart(items, { index, count: 2 }));
    expect(parts).toEqual([
      ['a', 'c', 'e'],
      ['b', 'd'],
    ]);
    const three = [1, 2, 3].flatMap((index) => itemsOfPart(items, { index, count: 3 }));
    expect(three.sort()).toEqual(items);
  });

  it('keep a sequential strategy whole, in part 1', () => {
    expect(itemsOfPart(items, { index: 1, count: 2 }, true)).toEqual(items);
    expect(itemsOfPart(items, { index: 2, count: 2 }, true)).toEqual([]);
  });

  it('run everything in one part when the run selected one, or the variable names no part', () => {
    expect(partOf('2', 1)).toEqual({ index: 1, count: 1 });
    expect(partOf(undefined, 2)).toEqual({ index: 1, count: 2 });
    expect(partOf('x', 2)).toEqual({ index: 1, count: 1 });
    expect(partOf('2', 2)).toEqual({ index: 2, count: 2 });
  });

  it('are the projects bench, bench-2, …', () => {
    expect([1, 2, 3].map(benchPartName)).toEqual(['bench', 'bench-2', 'bench-3']);
    expect(['bench', 'bench-2', 'unit', 'bench-x', 'benchmark'].map(isBenchPart)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
