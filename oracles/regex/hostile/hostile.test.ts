/**
 * The hostile corpus (corpus.ts) through every path a candidate reaches — check, the exact check,
 * hardening probes, the HERO-T observer and the sim's agrees — each answer with its named
 * verdict, in bounded time and memory, and no matching worker left behind.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../core/random.ts';
import type { Dialect } from '../ast.ts';
import { RegexMatcher } from '../matcher.ts';
import { regexOracle } from '../oracle.ts';
import { HOSTILE_ANSWERS, HOSTILE_GOLD } from './corpus.ts';

const matcher = new RegexMatcher();
const DEADLINE_MS = 300;
const oracles = {
  ecmascript: regexOracle({ candidateDialect: 'ecmascript', matcher, deadlineMs: DEADLINE_MS }),
  brics: regexOracle({ candidateDialect: 'brics', matcher, deadlineMs: DEADLINE_MS }),
};
const task = {
  id: 'hostile',
  benchmark: 'hostile',
  description: HOSTILE_GOLD.description,
  gold: HOSTILE_GOLD.gold,
  context: { dialect: HOSTILE_GOLD.dialect },
};
const prepared = oracles.ecmascript.prepare(task);
afterAll(() => matcher.close());

describe('hostile regex answers get named verdicts', () => {
  for (const answer of HOSTILE_ANSWERS) {
    const dialect: Dialect = answer.dialect ?? 'ecmascript';
    it(`${answer.kind}: ${answer.name}`, async () => {
      const oracle = oracles[dialect];
      const task = await prepared;
      const started = performance.now();
      const candidate = oracle.extract(typeof answer.reply === 'function' ? answer.reply(task) : answer.reply);
      if ('noArtifact' in answer.expect) {
        expect(candidate).toBeNull();
        return;
      }
      expect(candidate).not.toBeNull();
      const verdict = await oracle.check(task, candidate!);
      if ('error' in answer.expect) {
        expect({ pass: verdict.pass, error: verdict.error?.kind }).toEqual({ pass: false, error: answer.expect.error });
        expect(verdict.cases.every((c) => !c.pass)).toBe(true);
        // Feedback quotes the message to the model: it must stay short whatever the answer's size.
        expect(oracle.render.error(verdict.error!).length).toBeLessThan(1_000);
      } else {
        expect(verdict.error).toBeUndefined();
        expect(verdict.pass).toBe(answer.expect.pass);
        if (answer.expect.equivalent !== undefined) expect(verdict.detail?.equivalent).toBe(answer.expect.equivalent);
      }

      // Every other path returns a value instead of throwing.
      const exact = await oracle.hardener!.exact!(task, candidate!);
      if ('error' in answer.expect) expect(exact).not.toBe(true);
      else if (answer.expect.equivalent !== undefined) expect(exact).toBe(answer.expect.equivalent ?? 'undecided');
      const probes = await oracle.hardener!.probe(task, candidate!, { rng: new Rng(1), maxProbes: 64, round: 0 });
      expect(probes.probed).toBeLessThanOrEqual(64);
      const seen = await oracle.observer!.observe(task, candidate!);
      if ('error' in answer.expect && answer.expect.error !== 'timeout')
        expect(seen).toMatchObject({ ok: false, error: { kind: answer.expect.error } });
      const agrees = await oracle.simulator.agrees(task, candidate!, {
        kind: 'false-negative',
        label: 'too narrow',
        input: 'a dog',
        expected: true,
        size: 5,
      });
      expect(typeof agrees).toBe('boolean');
      expect(performance.now() - started).toBeLessThan(10_000);
    }, 30_000);
  }

  it('leaves no matching worker behind and stays within a bounded memory', async () => {
    // Timed-out workers are terminated asynchronously; at most the one live worker remains.
    for (let i = 0; i < 50 && matcher.threads > 1; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(matcher.threads).toBeLessThanOrEqual(1);
    await matcher.close();
    expect(matcher.threads).toBe(0);
    expect(process.memoryUsage().rss).toBeLessThan(1024 ** 3);
  });

  it('covers every kind of hostile answer', () => {
    expect(new Set(HOSTILE_ANSWERS.map((a) => a.kind))).toEqual(
      new Set(['huge', 'slow', 'malformed', 'absurd count', 'deep nesting', 'cheat']),
    );
  });
});
