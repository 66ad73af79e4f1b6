/** Every regex mistake class, applied to the fixture golds through the real oracle: a different language, or a compile error. */
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../../core/random.ts';
import { loadNlRx } from './loader.ts';
import { regexOracle } from './oracle.ts';
import { REGEX_STEERING } from './steering.ts';

const oracle = regexOracle();
afterAll(() => oracle.dispose?.());
const { tasks } = loadNlRx(new URL('../../fixtures/nl-rx', import.meta.url).pathname);

describe('regex mutateOfClass', () => {
  it.each(REGEX_STEERING.classes.map((c) => [c.name, c.failsToRun === true] as const))(
    '%s: applies to some fixture golds, and every mistake changes the language or fails to compile (%s)',
    async (cls, failsToRun) => {
      let applied = 0;
      for (const task of tasks) {
        const prepared = await oracle.prepare(task);
        const mutant = oracle.simulator.mutateOfClass!(prepared, task.gold, cls, new Rng(7));
        if (mutant === null) continue;
        applied++;
        const candidate = oracle.extract(oracle.simulator.answer(prepared, mutant))!;
        const verdict = await oracle.check(prepared, candidate);
        expect(verdict.error?.kind === 'syntax', `${cls} on ${task.gold}: ${mutant}`).toBe(failsToRun);
        // A language-changing mistake may still pass the hidden cases; the exact check (minimal DFAs) tells it apart.
        if (!failsToRun) expect(await oracle.hardener!.exact!(prepared, candidate), `${cls}: ${mutant}`).toBe(false);
      }
      expect(applied).toBeGreaterThanOrEqual(3);
    },
  );

  it('has no mistake of an unknown class', async () => {
    const prepared = await oracle.prepare(tasks[0]!);
    expect(oracle.simulator.mutateOfClass!(prepared, tasks[0]!.gold, 'no-such-class', new Rng(1))).toBeNull();
  });
});
