import { describe, expect, it } from 'vitest';
import { TaskInputError } from '../../core/oracle.ts';
import { Rng } from '../../core/random.ts';
import type { Candidate, Task } from '../../core/types.ts';
import { compileRegex } from './compile.ts';
import { compareLanguages } from './equivalence.ts';
import { regexOracle, type RegexPrepared } from './oracle.ts';

const oracle = regexOracle();
const task = (gold: string, dialect: 'brics' | 'ecmascript' = 'brics', id = 't1'): Task => ({
  id,
  benchmark: 'test',
  description: "lines containing the string 'dog'",
  gold,
  context: { dialect },
});
const reply = (source: string): Candidate => ({ source, extraction: 'code-block' });

describe('regex oracle: hidden tests', () => {
  it('generates 12 positives the gold accepts and 12 negatives it rejects, deterministically', async () => {
    const prepared = await oracle.prepare(task('.*dog.*'));
    const gold = compileRegex('.*dog.*', 'brics');
    const positives = prepared.cases.filter((c) => c.expected);
    const negatives = prepared.cases.filter((c) => !c.expected);
    expect(positives).toHaveLength(12);
    expect(negatives).toHaveLength(12);
    expect(positives.every((c) => gold.test?.(c.input) === true)).toBe(true);
    expect(negatives.every((c) => gold.test?.(c.input) === false)).toBe(true);
    expect(new Set(prepared.cases.map((c) => c.input)).size).toBe(24);
    expect(prepared.caseIds).toEqual([...positives.map((c) => c.id), ...negatives.map((c) => c.id)]);
    expect(prepared.caseIds.slice(0, 2)).toEqual(['p01', 'p02']);
    const again = await regexOracle().prepare(task('.*dog.*'));
    expect(again.cases).toEqual(prepared.cases);
    const otherSeed = await regexOracle({ seed: 9 }).prepare(task('.*dog.*'));
    expect(otherSeed.cases).not.toEqual(prepared.cases);
  });

  it('takes fewer positives when the language is small', async () => {
    const prepared = await oracle.prepare(task('dog|truck'));
    expect(
      prepared.cases
        .filter((c) => c.expected)
        .map((c) => c.input)
        .sort(),
    ).toEqual(['dog', 'truck']);
    expect(prepared.cases.filter((c) => !c.expected)).toHaveLength(12);
  });

  it('rejects broken golds with an error naming the task: invalid data, or a harness error for what Witness cannot pose', async () => {
    await expect(oracle.prepare(task('(dog', 'brics', 'line-7'))).rejects.toThrow(TaskInputError);
    await expect(oracle.prepare(task('(dog', 'brics', 'line-7'))).rejects.toThrow(
      /task line-7: the gold regex "\(dog" is not valid dk\.brics/,
    );
    const empty = await oracle.prepare(task('.*(dog)&([AEIOUaeiou])&(.).*')).catch((e) => e);
    expect(empty).toBeInstanceOf(TaskInputError);
    expect((empty as Error).message).toMatch(/denotes the empty language/);
    // No automaton for a back-reference: Witness's limit, not the data's fault.
    const nonRegular = await oracle.prepare(task('(a*)b\\1', 'ecmascript')).catch((e) => e);
    expect(nonRegular).not.toBeInstanceOf(TaskInputError);
    expect((nonRegular as Error).message).toMatch(/^task t1: the gold regex .* has no automaton/);
  });
});

describe('regex oracle: checking candidates', () => {
  it('passes an equivalent candidate and says the languages are equal', async () => {
    const prepared = await oracle.prepare(task('.*dog.*'));
    const verdict = await oracle.check(prepared, reply('^.*(?:dog).*$'));
    expect(verdict.pass).toBe(true);
    expect(verdict.cases).toHaveLength(24);
    expect(verdict.witnesses).toEqual([]);
    expect(verdict.detail).toMatchObject({ engine: 'dfa', equivalent: true });
  });

  it('labels failures too narrow / too broad, shortest first, with the shortest counterexample', async () => {
    const prepared = await oracle.prepare(task('.*[0-9].*'));
    const narrow = await oracle.check(prepared, reply('[0-9]+'));
    expect(narrow.pass).toBe(false);
    expect(narrow.witnesses.length).toBeGreaterThan(0);
    expect(
      narrow.witnesses.every((w) => w.kind === 'false-negative' && w.label === 'too narrow' && w.expected === true),
    ).toBe(true);
    const sizes = narrow.witnesses.map((w) => w.size);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(narrow.detail).toMatchObject({ equivalent: false, falsePositive: null });
    expect(String(narrow.detail?.falseNegative)).toMatch(/^.{2}$/);

    const broad = await oracle.check(prepared, reply('.*'));
    expect(broad.witnesses.every((w) => w.kind === 'false-positive' && w.label === 'too broad')).toBe(true);
    expect(broad.detail).toMatchObject({ equivalent: false, falsePositive: '', falseNegative: null });
    expect(oracle.render.witness(broad.witnesses[0]!)).toMatch(/should not match but does \(too broad\)$/);
    expect(oracle.render.failureSummary(broad)).toBe(`Your regex fails ${broad.witnesses.length} of 24 hidden tests.`);
  });

  it('gives a syntax verdict with the engine message for an invalid candidate', async () => {
    const prepared = await oracle.prepare(task('dog.*'));
    const verdict = await oracle.check(prepared, reply('dog(.*'));
    expect(verdict.pass).toBe(false);
    expect(verdict.error?.kind).toBe('syntax');
    expect(verdict.error?.message).toMatch(/Unterminated group/);
    expect(verdict.cases.every((c) => !c.pass)).toBe(true);
    expect(oracle.render.error(verdict.error!)).toMatch(/^Your regex is not valid ECMAScript/);
  });

  it('reads /…/flags literals', async () => {
    const prepared = await oracle.prepare(task('[Dd][Oo][Gg]'));
    const verdict = await oracle.check(prepared, { source: '/dog/i', extraction: 'literal' });
    expect(verdict.pass).toBe(true);
  });

  it('times out a catastrophically backtracking candidate within about a second and keeps going', async () => {
    const base = await oracle.prepare(task('a+!', 'ecmascript'));
    const adversarial = oracle.hardener!.extend(base, [
      { kind: 'false-negative', label: 'too narrow', input: `${'a'.repeat(40)}!`, expected: true, size: 41 },
    ]);
    const started = performance.now();
    const verdict = await oracle.check(adversarial, reply('(a+)+\\1b'));
    const elapsed = performance.now() - started;
    expect(verdict.error?.kind).toBe('timeout');
    expect(elapsed).toBeLessThan(2500);
    const next = await oracle.check(adversarial, reply('a+!'));
    expect(next.pass).toBe(true);
  });

  it('matches non-regular candidates on V8 and leaves equivalence undecided', async () => {
    const prepared = await oracle.prepare(task('.*dog.*'));
    const verdict = await oracle.check(prepared, reply('(.*)dog\\1'));
    expect(verdict.detail).toMatchObject({ engine: 'v8', equivalent: null });
    // "xdogx" matches (.*)dog\1 with \1 = "x"; "xdog" does not.
    expect(
      await oracle.simulator.agrees(prepared, reply('(.*)dog\\1'), {
        kind: 'false-negative',
        label: '',
        input: 'xdogx',
        expected: true,
        size: 5,
      }),
    ).toBe(true);
    expect(
      await oracle.simulator.agrees(prepared, reply('(.*)dog\\1'), {
        kind: 'false-negative',
        label: '',
        input: 'xdog',
        expected: true,
        size: 4,
      }),
    ).toBe(false);
  });

  it('passes a candidate that agrees on the hidden tests but differs beyond them, and the exact check says so', async () => {
    const prepared = await oracle.prepare(task('[a-z]*'));
    const verdict = await oracle.check(prepared, reply('[a-z]{0,40}'));
    expect(verdict.pass).toBe(true);
    expect(verdict.detail).toMatchObject({ equivalent: false, falsePositive: null });
    expect(String(verdict.detail?.falseNegative)).toHaveLength(41);
    expect(await oracle.hardener!.exact!(prepared, reply('[a-z]{0,40}'))).toBe(false);
    expect(await oracle.hardener!.exact!(prepared, reply('[a-z]*'))).toBe(true);
  });
});

describe('regex oracle: hardening probes', () => {
  it('finds inputs beyond the hidden tests where candidate and gold disagree, labelled by the gold', async () => {
    const prepared = await oracle.prepare(task('(.*dog.*)&(.*[0-9].*)'));
    // Agrees with the gold except on lines where the number comes after the dog.
    const candidate = reply('.*[0-9].*dog.*');
    const report = await oracle.hardener!.probe(prepared, candidate, { rng: new Rng(3), maxProbes: 320, round: 1 });
    expect(report.probed).toBeLessThanOrEqual(320);
    expect(report.probed).toBeGreaterThan(100);
    expect(report.disagreements.length).toBeGreaterThan(0);
    const gold = compileRegex('(.*dog.*)&(.*[0-9].*)', 'brics');
    for (const w of report.disagreements) {
      expect(w.expected).toBe(gold.test!(String(w.input)));
      expect(w.kind).toBe(w.expected ? 'false-negative' : 'false-positive');
    }
    const extended: RegexPrepared = oracle.hardener!.extend(prepared, report.disagreements.slice(0, 4));
    expect(extended.caseIds.slice(-1)[0]).toMatch(/^h0\d$/);
    expect(extended.cases).toHaveLength(prepared.cases.length + Math.min(4, report.disagreements.length));
    const verdict = await oracle.check(extended, candidate);
    expect(verdict.pass).toBe(false);
  });

  it('is deterministic for a seed and finds nothing for an equivalent candidate', async () => {
    const prepared = await oracle.prepare(task('.*dog.*'));
    const a = await oracle.hardener!.probe(prepared, reply('.*dog.*'), { rng: new Rng(5), maxProbes: 320, round: 1 });
    const b = await oracle.hardener!.probe(prepared, reply('.*dog.*'), { rng: new Rng(5), maxProbes: 320, round: 1 });
    expect(a).toEqual(b);
    expect(a.disagreements).toEqual([]);
  });
});

describe('regex oracle: sim support', () => {
  it('mutates in the gold dialect and answers in the candidate dialect with the same language', async () => {
    const prepared = await oracle.prepare(task('(.*lake.*)&(~(.*ring.*))'));
    const rng = new Rng(11);
    for (let i = 0; i < 20; i++) {
      const mutated = oracle.simulator.mutate(prepared, prepared.task.gold, rng);
      expect(mutated).not.toBeNull();
      expect(mutated).not.toBe(prepared.task.gold);
      const answer = oracle.simulator.answer(prepared, mutated!);
      const candidate = oracle.extract(answer)!;
      const comparison = compareLanguages(
        compileRegex(mutated!, 'brics'),
        compileRegex(candidate.source, 'ecmascript'),
      );
      expect(comparison).toEqual({ decided: true, equivalent: true });
    }
  });

  it('agrees() checks a candidate against a witness by running it', async () => {
    const prepared = await oracle.prepare(task('.*dog.*'));
    const fn = { kind: 'false-negative', label: 'too narrow', input: 'xdog', expected: true, size: 4 };
    expect(await oracle.simulator.agrees(prepared, reply('.*dog.*'), fn)).toBe(true);
    expect(await oracle.simulator.agrees(prepared, reply('dog.*'), fn)).toBe(false);
    expect(await oracle.simulator.agrees(prepared, reply('(('), fn)).toBe(false);
  });
});

describe('regex oracle: brics candidates', () => {
  it('reports a candidate whose automaton is too large (no other engine runs brics) as too-complex, not a crash', async () => {
    const bricsOracle = regexOracle({ candidateDialect: 'brics' });
    const prepared = await bricsOracle.prepare(task('.*a.*'));
    const verdict = await bricsOracle.check(prepared, reply('.*a.{20}'));
    expect(verdict.error?.kind).toBe('too-complex');
    expect(bricsOracle.render.error(verdict.error!)).toMatch(
      /^Your regex is too large or complex to run: .*Write a shorter, simpler regular expression\.$/,
    );
    expect(verdict.error?.message).toMatch(/./);
    expect(verdict.pass).toBe(false);
    expect((await bricsOracle.check(prepared, reply('.*(a).*'))).pass).toBe(true);
  });
});

describe('regex oracle: observer (execution without judgement)', () => {
  it('shows what a candidate matches on inputs derived from the statement and the candidate, never the gold', async () => {
    const prepared = await oracle.prepare(task('.*dog.*'));
    const seen = await oracle.observer!.observe(prepared, reply('dog[0-9]'));
    expect(seen.ok).toBe(true);
    expect(seen.output).toMatch(/^matches: .*"dog\d"/);
    expect(seen.output).toMatch(/does not match: .*"dog"/);
    // The same candidate observed for a task with another gold shows exactly the same thing.
    const other = await oracle.prepare({ ...task('[a-z]*'), description: prepared.task.description });
    expect(await oracle.observer!.observe(other, reply('dog[0-9]'))).toEqual(seen);
    const broken = await oracle.observer!.observe(prepared, reply('dog('));
    expect(broken).toMatchObject({ ok: false, error: { kind: 'syntax' } });
    expect(await oracle.observer!.describe(prepared)).toMatch(/Full-match semantics/);
  });
});
