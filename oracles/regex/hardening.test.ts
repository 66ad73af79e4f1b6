/**
 * Hardening with the regex oracle end to end (the real episode loop, the `openai` client over HTTP
 * to the scripted server): an undecided comparison is never `robust`, and the probes of an
 * undecided pair target the difference.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runEpisode } from '../../core/episode.ts';
import { DEFAULT_HARDENING } from '../../core/hardening.ts';
import { startTestModelServer, type TestModelServer, scriptedModel } from '../../testing/model-server.ts';
import { inlinePrompt } from '../../core/prompt.ts';
import { Rng } from '../../core/random.ts';
import type { Task } from '../../core/types.ts';
import { pickStrategies } from '../../strategies/index.ts';
import { compileRegex } from './compile.ts';
import { differenceProbes } from './difference-probes.ts';
import { compareLanguages } from './equivalence.ts';
import { regexOracle } from './oracle.ts';

const oracle = regexOracle();
const prompt = inlinePrompt('--- user ---\nWrite a {{dialect}} regex for: {{description}}');
const servers: TestModelServer[] = [];
afterAll(async () => Promise.all(servers.map((s) => s.close())));

async function episodeAnswering(gold: string, answer: string) {
  const server = await startTestModelServer([{ content: '```regex\n' + answer + '\n```' }]);
  servers.push(server);
  const model = scriptedModel(server, { concurrency: 1 });
  const task: Task = {
    id: 't',
    benchmark: 'hardening-test',
    description: 'only the letter a, any number of times',
    gold,
    context: { dialect: 'ecmascript' },
  };
  return runEpisode({
    runId: 'run',
    oracle,
    prepared: await oracle.prepare(task),
    strategy: pickStrategies('diagnostic')[0]!,
    model,
    prompt,
    budget: 2,
    trial: 0,
    seed: 1,
    hardening: DEFAULT_HARDENING,
  });
}

describe('regex hardening: undecided is never robust', () => {
  it('a candidate that passes every probe but whose equivalence is undecided stays "hardened"', async () => {
    const t = await episodeAnswering('a*', 'a{0,99999}|a{100000,}');
    expect(t.outcome.status).toBe('solved');
    expect(t.turns[0]?.verdict.detail).toMatchObject({
      decided: false,
      equivalent: null,
      undecidedBecause: expect.stringMatching(/lazy product/),
    });
    expect(t.outcome.hardening).toMatchObject({ status: 'hardened', sampledClean: true, exact: null });
  });

  it('a decidably equal candidate is robust, with the exact check recorded', async () => {
    const t = await episodeAnswering('a*', '(?:a|aa)*');
    expect(t.outcome.hardening).toMatchObject({ status: 'robust', exact: true });
    expect(t.turns[0]?.verdict.detail).toMatchObject({ decided: true, equivalent: true });
  });
});

describe('probes that target an undecided difference', () => {
  // The candidate rejects exactly the words of length > 40 whose 41st letter from the end is "a":
  // no DFA within budget (2^41 states), the product outgrows its budget, hidden tests are too short.
  const gold = compileRegex('[ab]*', 'ecmascript');
  const candidate = compileRegex('[ab]*b[ab]{40}|[ab]{0,40}', 'ecmascript');
  const native = new RegExp('^(?:[ab]*b[ab]{40}|[ab]{0,40})$', 's');

  it('the comparison is undecided, and the difference probes contain a word the gold accepts and the candidate rejects', () => {
    expect(candidate.dfa).toBeNull();
    expect(compareLanguages(gold, candidate)).toMatchObject({ decided: false });
    const probes = differenceProbes(gold, candidate, new Rng(1), 64);
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.some((w) => gold.test!(w) && !native.test(w))).toBe(true);
  });

  it("the hardener's final probe pass finds that difference, and exact() says undecided", async () => {
    const prepared = await oracle.prepare({
      id: 'ab',
      benchmark: 'hardening-test',
      description: 'any string of a and b',
      gold: '[ab]*',
      context: { dialect: 'ecmascript' },
    });
    const reply = { source: '[ab]*b[ab]{40}|[ab]{0,40}', extraction: 'code-block' as const };
    expect((await oracle.check(prepared, reply)).pass).toBe(true);
    // With 32 probes the generic pool alone misses this difference (0 of 20 seeds tried); the
    // targeted half finds it.
    const report = await oracle.hardener!.probe(prepared, reply, { rng: new Rng(7), maxProbes: 32, round: 0 });
    expect(report.disagreements.length).toBeGreaterThan(0);
    expect(report.disagreements.every((w) => w.expected === true && !native.test(String(w.input)))).toBe(true);
    expect(await oracle.hardener!.exact!(prepared, reply)).toBe('undecided');
  });
});

describe('probes of golds whose automaton prints as a deep pattern', () => {
  // `~(b(dog){7,}b)`-like golds: a 25-state DFA whose regex form nests 14 groups deep. The probe
  // pool used to sample it with fc.stringMatching over that form, which never finished (a run of
  // NL-RX-Turk stopped there for good); samples now come from fast-check-driven automaton walks.
  for (const gold of ['~(x(cat){6,}x)', '~(q(ab){9,}q)&~(.*zz.*)']) {
    it(`probes ${gold} in bounded time`, async () => {
      const brics = regexOracle({ candidateDialect: 'brics' });
      const prepared = await brics.prepare({
        id: 'deep',
        benchmark: 'hardening-test',
        description: 'lines that are not x, then cat six or more times, then x',
        gold,
        context: { dialect: 'brics' },
      });
      const candidate = { source: gold, extraction: 'code-block' as const };
      const started = performance.now();
      const report = await brics.hardener!.probe(prepared, candidate, { rng: new Rng(1), maxProbes: 320, round: 1 });
      expect(report).toEqual({ probed: 320, disagreements: [] });
      expect(await brics.hardener!.exact!(prepared, candidate)).toBe(true);
      expect(performance.now() - started).toBeLessThan(10_000);
    });
  }
});
