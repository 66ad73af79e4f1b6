import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIdLines, parseNameList, selectLoaded, selectStrategies, selectTasks } from './selection.ts';

const tasks = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i + 1) }));
const ids = (list: { id: string }[]) => list.map((t) => t.id);

describe('parsing a selection', () => {
  it('reads comma lists and id files without blanks or repeats, and refuses empty ones naming the source', () => {
    expect(parseNameList(' zero-shot, diagnostic,,zero-shot ', '--strategies')).toEqual(['zero-shot', 'diagnostic']);
    expect(() => parseNameList(' , ', '--strategies')).toThrow(/--strategies: expected a comma-separated list/);
    expect(parseIdLines('# picked by hand\n3\n\n1\r\n3\n', 'ids.txt')).toEqual(['3', '1']);
    expect(() => parseIdLines('# nothing\n\n', 'ids.txt')).toThrow(/ids\.txt: no task ids/);
  });
});

describe('selectStrategies', () => {
  const suite = [{ name: 'zero-shot' }, { name: 'generic' }, { name: 'diagnostic' }];
  it("keeps the benchmark's order and names the benchmark's strategies for an unknown one", () => {
    expect(selectStrategies(suite, undefined, 'b')).toEqual(suite);
    expect(selectStrategies(suite, ['diagnostic', 'zero-shot'], 'b').map((s) => s.name)).toEqual([
      'zero-shot',
      'diagnostic',
    ]);
    expect(() => selectStrategies(suite, ['zero-shot', 'hero', 'x'], 'nl-rx')).toThrow(
      'benchmark nl-rx: unknown strategies "hero", "x" (its strategies: zero-shot, generic, diagnostic)',
    );
  });
});

describe('selectTasks', () => {
  it('keeps the listed ids in dataset order and names unknown ones', () => {
    expect(ids(selectTasks(tasks(10), { tasks: ['7', '2'] }, 1, 'b'))).toEqual(['2', '7']);
    expect(() => selectTasks(tasks(10), { tasks: ['2', '11', '12'] }, 1, 'bird')).toThrow(
      /benchmark bird: unknown task ids "11", "12" \(it has 10 tasks: 1, 2, 3/,
    );
  });

  it('samples limit tasks, in dataset order, the same for the same seed and task set whatever their order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 70 }), fc.nat(), (n, limit, seed) => {
        const all = tasks(n);
        const sample = selectTasks(all, { limit }, seed, 'nl-rx');
        expect(sample).toHaveLength(Math.min(n, limit));
        // Dataset order: positions increase.
        const positions = sample.map((t) => Number(t.id));
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        expect(selectTasks(all, { limit }, seed, 'nl-rx')).toEqual(sample);
        const reversed = selectTasks([...all].reverse(), { limit }, seed, 'nl-rx');
        expect(new Set(ids(reversed))).toEqual(new Set(ids(sample)));
      }),
    );
  });

  it('draws different samples for different seeds and benchmarks, and samples among the listed ids', () => {
    const all = tasks(200);
    const a = ids(selectTasks(all, { limit: 10 }, 1, 'nl-rx'));
    expect(ids(selectTasks(all, { limit: 10 }, 2, 'nl-rx'))).not.toEqual(a);
    expect(ids(selectTasks(all, { limit: 10 }, 1, 'bird'))).not.toEqual(a);
    const listed = ['5', '6', '7', '8', '9', '10'];
    const sample = ids(selectTasks(all, { tasks: listed, limit: 3 }, 1, 'nl-rx'));
    expect(sample).toHaveLength(3);
    for (const id of sample) expect(listed).toContain(id);
  });
});

describe('selectLoaded', () => {
  const loaded = {
    tasks: tasks(6).map((t) => ({ ...t, benchmark: 'b', description: '', gold: '' })),
    issues: [{ item: 'targ.txt:7', message: 'empty regex' }],
  };
  it('leaves excluded tasks and unreadable items out before the sample, and names ids it does not know', () => {
    const kept = selectLoaded(loaded, { excludeTasks: ['2', 'targ.txt:7'] }, 1, 'b');
    expect(ids(kept.tasks)).toEqual(['1', '3', '4', '5', '6']);
    expect(kept.issues).toEqual([]);
    // The sample is drawn from what is left, so no excluded id can come back through it.
    for (let seed = 0; seed < 20; seed++)
      expect(ids(selectLoaded(loaded, { excludeTasks: ['2'], limit: 3 }, seed, 'b').tasks)).not.toContain('2');
    // Listed and excluded: the listed id is known, and left out.
    expect(ids(selectLoaded(loaded, { tasks: ['2', '3'], excludeTasks: ['2'] }, 1, 'b').tasks)).toEqual(['3']);
    expect(selectLoaded(loaded, {}, 1, 'b')).toEqual(loaded);
    expect(() => selectLoaded(loaded, { excludeTasks: ['9', '2'] }, 1, 'nl-rx')).toThrow(
      'benchmark nl-rx: cannot exclude unknown task id "9" (is the list of another benchmark, split or data folder?)',
    );
  });

  it('takes an empty exclusion file as nothing to exclude', () => {
    expect(parseIdLines('# no invalid items\n', 'invalid.txt', true)).toEqual([]);
  });
});
