/**
 * One conformance suite every oracle family runs (in the spirit of evalite's `testAllStorage`): the
 * gold passes, a mutant of it fails with witnesses that describe the gold, hostile answers get a
 * named verdict, the observer never reveals the gold, hardening is deterministic by seed, and
 * everything the oracle returns is JSON-safe. Each family calls `describeOracleConformance` once
 * from its own `conformance.test.ts` with a setup built on its fixtures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Oracle, PreparedTask, ProbeReport, Simulator } from '../core/oracle.ts';
import { Rng } from '../core/random.ts';
import { ERROR_KINDS, type Candidate, type Task, type Verdict } from '../core/types.ts';

/** What a family gives the suite: an oracle on its fixtures and the inputs the suite cannot invent. */
export interface ConformanceSetup<P extends PreparedTask> {
  oracle: Oracle<P>;
  /** A few tasks from the family's fixtures, loaded with its loader. */
  tasks: Task[];
  /** Answers no engine should run: one beyond the family's documented size cap, one syntactically broken. */
  hostile: { huge: string; broken: string };
  /** A wrong candidate whose observation cannot show the gold's results (e.g. one that returns nothing useful). */
  wrongCandidate(prepared: P): string;
  /** Strings only the gold's results (or hidden cases) contain, which the wrong candidate's observation must not show. */
  goldOnlyMarkers(prepared: P): Promise<string[]> | string[];
  /** Probes per hardening call (small: the suite must stay quick). */
  maxProbes: number;
  /** Longest a hostile answer's verdict may take. */
  hostileMs: number;
  /** Releases what the setup started besides the oracle (a sandbox pool). */
  teardown?(): Promise<void>;
}

export interface ConformanceOptions {
  /** Timeout of the setup and of the preparation of every task. */
  setupTimeoutMs?: number;
  /** Timeout of each check. */
  testTimeoutMs?: number;
  /** Seed of mutation and probing. */
  seed?: number;
  /**
   * The optional capabilities the oracle offers (default: all, as every built-in oracle does). The
   * suite checks each one offered, and that an oracle without the sim's hooks still fails a wrong
   * candidate (the setup's `wrongCandidate`) with a witness or a named error.
   */
  offers?: { simulator?: boolean; hardener?: boolean; observer?: boolean };
}

/** Mutants tried per task before the suite gives up finding one that fails. */
const MUTATION_ATTEMPTS = 25;

const code = (source: string): Candidate => ({ source, extraction: 'code-block' });

const WORD = /[\p{L}\p{N}_.]/u;
/** Where `text` shows `secret` as a whole (not inside a longer word or number: "999" is not in "1999-07-06"), or -1. */
export function wholeOccurrence(text: string, secret: string): number {
  for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1)) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + secret.length] ?? ' ';
    if (!WORD.test(before) && !WORD.test(after)) return at;
  }
  return -1;
}

/** Asserts a value survives JSON unchanged (no undefined fields, NaN, Infinity, class instances). */
export function expectJsonSafe(value: unknown, what: string): void {
  expect(JSON.parse(JSON.stringify(value)), `${what} is not JSON-safe`).toStrictEqual(value);
}

/** Declares the conformance suite for one oracle family. */
export function describeOracleConformance<P extends PreparedTask>(
  name: string,
  setup: () => Promise<ConformanceSetup<P>>,
  options: ConformanceOptions = {},
): void {
  const setupTimeoutMs = options.setupTimeoutMs ?? 120_000;
  const testTimeoutMs = options.testTimeoutMs ?? 60_000;
  const seed = options.seed ?? 7;
  const offers = { simulator: true, hardener: true, observer: true, ...options.offers };

  describe(`${name} oracle conformance`, () => {
    let s: ConformanceSetup<P>;
    let prepared: P[] = [];
    /** The gold as the sim would answer it, extracted: the candidate that must pass. */
    const golds = new Map<string, Candidate>();
    /** A failing mutant of the gold per task, found by the mutation test. */
    const mutants = new Map<string, { candidate: Candidate; verdict: Verdict }>();

    beforeAll(async () => {
      s = await setup();
      expect(s.tasks.length, 'the setup gives at least one task').toBeGreaterThan(0);
      prepared = await Promise.all(s.tasks.map((task) => s.oracle.prepare(task)));
      expect(s.oracle.simulator !== undefined, `${name} offers the sim's hooks`).toBe(offers.simulator);
      expect(s.oracle.hardener !== undefined, `${name} offers a hardener`).toBe(offers.hardener);
      expect(s.oracle.observer !== undefined, `${name} offers an observer`).toBe(offers.observer);
      for (const p of prepared) {
        const extracted = s.oracle.simulator
          ? s.oracle.extract(s.oracle.simulator.answer(p, p.task.gold))
          : code(p.task.gold);
        expect(extracted, `task ${p.task.id}: the sim's answer for the gold has a program`).not.toBeNull();
        golds.set(p.task.id, extracted!);
      }
    }, setupTimeoutMs);

    afterAll(async () => {
      await s?.teardown?.();
    }, setupTimeoutMs);

    const gold = (p: P) => golds.get(p.task.id)!;
    const simulator = (): Simulator<P> => s.oracle.simulator!;

    it('settings() are JSON-safe; extract finds no program in a reply without one', () => {
      expectJsonSafe(s.oracle.settings(), 'settings()');
      for (const reply of ['', '   \n\n  '])
        expect(s.oracle.extract(reply), `extract(${JSON.stringify(reply)})`).toBeNull();
    });

    it(
      'passes the gold on every task, over the stable case list',
      async () => {
        for (const p of prepared) {
          const verdict = await s.oracle.check(p, gold(p));
          expect(
            verdict.pass,
            `task ${p.task.id}: the gold fails (${verdict.error?.message ?? JSON.stringify(verdict.witnesses.slice(0, 2))})`,
          ).toBe(true);
          expect(verdict.error).toBeUndefined();
          expect(
            verdict.cases.map((c) => c.id),
            `task ${p.task.id}: case ids`,
          ).toEqual(p.caseIds);
          expectJsonSafe(verdict, `task ${p.task.id}: the gold's verdict`);
        }
      },
      testTimeoutMs,
    );

    /** A failing candidate: a mutant of the gold by the sim's hooks, else the setup's wrong candidate. */
    async function failing(p: P): Promise<{ candidate: Candidate; verdict: Verdict } | undefined> {
      if (!offers.simulator) {
        const candidate = code(s.wrongCandidate(p));
        const verdict = await s.oracle.check(p, candidate);
        return verdict.pass ? undefined : { candidate, verdict };
      }
      const rng = new Rng(seed).fork(p.task.id);
      for (let attempt = 0; attempt < MUTATION_ATTEMPTS; attempt++) {
        const mutant = simulator().mutate(p, p.task.gold, rng);
        if (mutant === null) continue;
        const candidate = s.oracle.extract(simulator().answer(p, mutant));
        if (!candidate) continue;
        const verdict = await s.oracle.check(p, candidate);
        if (!verdict.pass) return { candidate, verdict };
      }
      return undefined;
    }

    it(
      offers.simulator
        ? 'fails a mutant of the gold with a witness or a named error; the witnesses describe the gold'
        : 'fails a wrong candidate with a witness or a named error',
      async () => {
        for (const p of prepared) {
          const found = await failing(p);
          expect(found, `task ${p.task.id}: no failing mutant in ${MUTATION_ATTEMPTS} attempts`).toBeDefined();
          const { verdict } = found!;
          mutants.set(p.task.id, found!);
          expectJsonSafe(verdict, `task ${p.task.id}: the mutant's verdict`);
          expect(
            verdict.cases.map((c) => c.id),
            `task ${p.task.id}: case ids`,
          ).toEqual(p.caseIds);
          const named = verdict.error !== undefined && ERROR_KINDS.includes(verdict.error.kind);
          expect(
            verdict.witnesses.length > 0 || named,
            `task ${p.task.id}: the mutant's verdict has neither a witness nor a named error: ${JSON.stringify(verdict)}`,
          ).toBe(true);
          for (const witness of verdict.witnesses) {
            // Witness.caseId is optional in the contract; when given it must name one of the task's cases.
            if (witness.caseId !== undefined)
              expect(
                p.caseIds,
                `task ${p.task.id}: witness ${JSON.stringify(witness)} names a case the task does not have`,
              ).toContain(witness.caseId);
            if (offers.simulator)
              expect(
                await simulator().agrees(p, gold(p), witness),
                `task ${p.task.id}: the gold disagrees with witness ${JSON.stringify(witness)}`,
              ).toBe(true);
          }
        }
      },
      testTimeoutMs,
    );

    it(
      'gives a huge answer and a broken one a failed verdict with a named error kind, in bounded time',
      async () => {
        const p = prepared[0]!;
        for (const [which, source] of Object.entries(s.hostile)) {
          const started = performance.now();
          const verdict = await s.oracle.check(p, code(source));
          const elapsed = performance.now() - started;
          expect(verdict.pass, `the ${which} answer passes`).toBe(false);
          expect(ERROR_KINDS, `the ${which} answer's error kind`).toContain(verdict.error?.kind);
          expect(elapsed, `the ${which} answer's verdict took ${Math.round(elapsed)} ms`).toBeLessThan(s.hostileMs);
          expectJsonSafe(verdict, `the ${which} answer's verdict`);
        }
      },
      testTimeoutMs,
    );

    if (offers.observer)
      it(
        'observes and describes without revealing the gold or a verdict',
        async () => {
          const observer = s.oracle.observer!;
          for (const p of prepared) {
            const observation = await observer.observe(p, code(s.wrongCandidate(p)));
            const description = await observer.describe(p);
            expectJsonSafe(observation, `task ${p.task.id}: the observation`);
            expect(
              Object.keys(observation).filter((key) => !['ok', 'error', 'output', 'shape'].includes(key)),
              `task ${p.task.id}: verdict-like fields`,
            ).toEqual([]);
            const secrets = [p.task.gold, gold(p).source, ...(await s.goldOnlyMarkers(p))];
            for (const secret of secrets) {
              expect(
                wholeOccurrence(observation.output, secret),
                `task ${p.task.id}: the observation shows ${JSON.stringify(secret)}: ${observation.output}`,
              ).toBe(-1);
              expect(
                wholeOccurrence(description, secret),
                `task ${p.task.id}: the description shows ${JSON.stringify(secret)}`,
              ).toBe(-1);
            }
          }
        },
        testTimeoutMs,
      );

    if (offers.hardener)
      it(
        'has a hardener whose probes are deterministic by seed and never disagree with the gold',
        async () => {
          const hardener = s.oracle.hardener;
          for (const p of prepared) {
            const probe = (candidate: Candidate): Promise<ProbeReport> =>
              hardener!.probe(p, candidate, { rng: new Rng(seed), maxProbes: s.maxProbes, round: 1 });
            const first = await probe(gold(p));
            expect(first.disagreements, `task ${p.task.id}: probes disagree with the gold`).toEqual([]);
            expect(await probe(gold(p))).toStrictEqual(first);
            expectJsonSafe(first, `task ${p.task.id}: the gold's probe report`);
            const mutant = mutants.get(p.task.id);
            if (!mutant) continue;
            const report = await probe(mutant.candidate);
            expect(
              await probe(mutant.candidate),
              `task ${p.task.id}: a second probe of the mutant with the same seed`,
            ).toStrictEqual(report);
            expectJsonSafe(report, `task ${p.task.id}: the mutant's probe report`);
            for (const witness of report.disagreements) {
              if (offers.simulator)
                expect(
                  await simulator().agrees(p, gold(p), witness),
                  `task ${p.task.id}: probe witness ${JSON.stringify(witness)} is not labelled by the gold`,
                ).toBe(true);
            }
          }
        },
        testTimeoutMs,
      );

    it(
      'can be disposed',
      async () => {
        await expect(Promise.resolve(s.oracle.dispose?.())).resolves.toBeUndefined();
      },
      testTimeoutMs,
    );
  });
}
