/**
 * The seed-harness checks, one suite at a time (seeds-regex.test.ts, seeds-sql.test.ts): each seed
 * validates (compiles, typechecks against the SDK, imports only the SDK, holds no literals of the
 * pool, smoke-runs cleanly) and then runs the suite's tasks with the sim and no harness failure,
 * each episode in its sandboxed child, its trace in the trajectory, its verdict the oracle's.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createSimModel } from '../../core/models/sim.ts';
import type { Oracle, PreparedTask } from '../../core/oracle.ts';
import type { Task } from '../../core/types.ts';
import { evaluateHarness } from '../../optimizers/meta-harness/evaluate.ts';
import { SEED_NAMES, seedHarnessFile } from '../../optimizers/meta-harness/seeds.ts';
import { validateHarness } from '../../optimizers/meta-harness/validate.ts';

export interface SeedSuite {
  name: string;
  oracle: Oracle<PreparedTask>;
  /** The pool: the first two are the smoke tasks, the others are evaluated. */
  tasks: Task[];
  prompt: string;
}

/** Declares the checks of every seed on one suite. */
export function describeSeedChecks(suite: SeedSuite): void {
  afterAll(() => suite.oracle.dispose?.());
  describe(`the seed harnesses on ${suite.name} with the sim`, () => {
    it.each(SEED_NAMES)(
      '%s validates, then runs every task without a harness failure',
      async (seed) => {
        const file = seedHarnessFile(seed);
        const model = createSimModel({ seed: 7 });
        const validation = await validateHarness({
          harnessFile: file,
          oracle: suite.oracle,
          pool: suite.tasks,
          model,
          prompt: suite.prompt,
        });
        expect(validation.problems).toEqual([]);
        expect(validation.valid).toBe(true);
        expect(validation.checks.smoke.ran).toBe(true);
        expect(validation.checks.smoke.episodes).toHaveLength(2);
        expect(JSON.parse(JSON.stringify(validation))).toEqual(validation);

        const seen: string[] = [];
        const evaluation = await evaluateHarness({
          harnessFile: file,
          oracle: suite.oracle,
          tasks: suite.tasks.slice(2),
          model,
          prompt: suite.prompt,
          concurrency: 2,
          onEpisode: (e) => seen.push(e.taskId),
        });
        expect(evaluation.strategy).toBe(`harness:${seed}`);
        expect(evaluation.summary.episodes).toBe(2);
        expect(evaluation.summary.failures).toEqual({});
        expect(evaluation.summary.harnessErrors).toBe(0);
        expect(seen.sort()).toEqual(
          suite.tasks
            .slice(2)
            .map((t) => t.id)
            .sort(),
        );
        for (const episode of evaluation.episodes) {
          const log = episode.trajectory.refinement?.log ?? [];
          expect(log[0]).toMatchObject({ op: 'answer' });
          expect(log.at(-1)).toMatchObject({ op: 'done', name: seed });
          expect(episode.calls).toBeGreaterThanOrEqual(1);
          expect(episode.tokens.total).toBeGreaterThan(0);
          // The verdict is the oracle's on the final program, recomputed here.
          const prepared = await suite.oracle.prepare(suite.tasks.find((t) => t.id === episode.taskId) as Task);
          const verdict = await suite.oracle.check(prepared, {
            source: episode.program ?? '',
            extraction: 'code-block',
          });
          expect(episode.pass).toBe(verdict.pass);
        }
        if (seed === 'zero-shot')
          expect(evaluation.episodes.every((e) => e.calls === 1 && e.observes === 0)).toBe(true);
        if (seed === 'self-verify' || seed === 'cheatsheet')
          expect(evaluation.episodes.every((e) => e.observes >= 1)).toBe(true);
        if (seed === 'react' || seed === 'hero-t') expect(evaluation.episodes.every((e) => e.calls >= 2)).toBe(true);
      },
      60_000,
    );
  });
}
