/** Every SQL mistake class, applied to the BIRD fixture golds through the real oracle: wrong, or failing to run. */
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../../core/random.ts';
import { BIRD_FIXTURES, loadBird } from './loader.ts';
import { sqlOracle } from './oracle.ts';
import { SQL_STEERING } from './steering.ts';

const oracle = sqlOracle({ ves: false });
afterAll(() => oracle.dispose?.());
const { tasks } = loadBird(BIRD_FIXTURES);

describe('SQL mutateOfClass', () => {
  it.each(SQL_STEERING.classes.map((c) => [c.name, c.failsToRun === true] as const))(
    '%s: applies to some fixture golds, and every mistake fails the check (fails to run: %s)',
    async (cls, failsToRun) => {
      let applied = 0;
      for (const task of tasks) {
        const prepared = await oracle.prepare(task);
        const mutant = oracle.simulator.mutateOfClass!(prepared, task.gold, cls, new Rng(7));
        if (mutant === null) continue;
        applied++;
        const verdict = await oracle.check(prepared, oracle.extract(oracle.simulator.answer(prepared, mutant))!);
        expect(verdict.pass, `${cls} on ${task.id}: ${mutant}`).toBe(false);
        expect(verdict.error !== undefined, `${cls} on ${task.id}: ${mutant}`).toBe(failsToRun);
      }
      expect(applied).toBeGreaterThanOrEqual(2);
    },
  );
});
