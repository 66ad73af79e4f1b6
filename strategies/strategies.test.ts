import { describe, expect, it } from 'vitest';
import type { FeedbackRenderer } from '../core/oracle.ts';
import { selectWitnesses } from '../core/strategy.ts';
import type { PublicTask, Verdict, Witness } from '../core/types.ts';
import { FEEDBACK_STRATEGY_NAMES } from '../core/strategy-names.ts';
import { ALL_STRATEGY_NAMES, buildStrategies, pickStrategies, STRATEGIES, STRATEGY_NAMES } from './index.ts';

const render: FeedbackRenderer = {
  witness: (w) => `${JSON.stringify(w.input)} [${w.label}]`,
  failureSummary: (v) => `${v.cases.filter((c) => !c.pass).length} of ${v.cases.length} fail`,
  error: (e) => `error ${e.kind}: ${e.message}`,
  retry: 'Try again in a block.',
};
const task: PublicTask = { id: 't', benchmark: 'b', description: 'd' };
const ctx = { task, render, turn: 1, phase: 'solve' as const };

const fn = (input: string): Witness => ({
  kind: 'false-negative',
  label: 'too narrow',
  input,
  expected: true,
  actual: false,
  size: input.length,
});
const fp = (input: string): Witness => ({
  kind: 'false-positive',
  label: 'too broad',
  input,
  expected: false,
  actual: true,
  size: input.length,
});

const failing: Verdict = {
  pass: false,
  cases: [
    { id: 'p01', pass: false },
    { id: 'p02', pass: false },
    { id: 'p03', pass: false },
    { id: 'n01', pass: false },
    { id: 'n02', pass: false },
    { id: 'n03', pass: true },
  ],
  witnesses: [fn('dogdog'), fn('dog'), fn('xdogx'), fp('cat'), fp('a')],
  timings: { totalMs: 1 },
};
const syntaxError: Verdict = { ...failing, witnesses: [], error: { kind: 'syntax', message: 'Unterminated group' } };

describe('selectWitnesses', () => {
  it('takes the shortest of each kind, interleaving kinds, within the total', () => {
    expect(selectWitnesses(failing.witnesses, 2, 4).map((w) => w.input)).toEqual(['a', 'dog', 'cat', 'xdogx']);
    expect(selectWitnesses(failing.witnesses, 3, 1).map((w) => w.input)).toEqual(['a']);
    expect(selectWitnesses([fn('dog'), fn('do'), fn('d')], 2, 4).map((w) => w.input)).toEqual(['d', 'do']);
    expect(selectWitnesses([], 2, 4)).toEqual([]);
  });
});

describe('the ablation-grid strategies', () => {
  it('has the six strategies of the A-CEGIS grid in order', () => {
    expect(STRATEGY_NAMES).toEqual([
      'zero-shot',
      'generic',
      'error-only',
      'one-example',
      'three-example',
      'diagnostic',
    ]);
    // The one list of names (which the reports' order and the CLI's checks read) is what is built.
    expect(STRATEGY_NAMES).toEqual(FEEDBACK_STRATEGY_NAMES);
    expect(pickStrategies('diagnostic', 'generic').map((s) => s.name)).toEqual(['diagnostic', 'generic']);
    expect(() => pickStrategies('nope')).toThrow(/unknown strategy "nope" \(known: zero-shot, generic/);
  });

  it('zero-shot takes one turn and gives no feedback', () => {
    expect(STRATEGIES['zero-shot'].turns(4)).toBe(1);
    expect(STRATEGIES['zero-shot'].feedback(failing, ctx)).toBeNull();
  });

  it('generic says only that it is wrong', () => {
    const f = STRATEGIES.generic.feedback(failing, ctx);
    expect(f?.text).toBe('That is not right. Try again.\n\nTry again in a block.');
    expect(f?.disclosed).toEqual({ witnesses: [], bare: true });
  });

  it('error-only gives the failure count, or the error, and never an example', () => {
    const f = STRATEGIES['error-only'].feedback(failing, ctx);
    expect(f?.text).toContain('5 of 6 fail');
    expect(f?.text).not.toContain('dog');
    expect(f?.disclosed).toEqual({ witnesses: [], failing: { failed: 5, total: 6 } });
    const e = STRATEGIES['error-only'].feedback(syntaxError, ctx);
    expect(e?.text).toContain('error syntax: Unterminated group');
    expect(e?.disclosed.error?.message).toBe('Unterminated group');
  });

  it('one-example and three-example disclose exactly that many witnesses, shortest first', () => {
    const one = STRATEGIES['one-example'].feedback(failing, ctx);
    expect(one?.disclosed.witnesses.map((w) => w.input)).toEqual(['a']);
    expect(one?.text).toContain('"a" [too broad]');
    const three = STRATEGIES['three-example'].feedback(failing, ctx);
    expect(three?.disclosed.witnesses.map((w) => w.input)).toEqual(['a', 'dog', 'cat']);
  });

  it('diagnostic gives the count and up to 2 witnesses per direction, labelled', () => {
    const f = STRATEGIES.diagnostic.feedback(failing, ctx);
    expect(f?.disclosed.witnesses.map((w) => w.input)).toEqual(['a', 'dog', 'cat', 'xdogx']);
    expect(f?.disclosed.failing).toEqual({ failed: 5, total: 6 });
    expect(f?.text).toContain('"dog" [too narrow]');
    expect(f?.text).toContain('"cat" [too broad]');
    expect(f?.text).not.toContain('dogdog');
    const e = STRATEGIES.diagnostic.feedback(syntaxError, ctx);
    expect(e?.text).toContain('Unterminated group');
    expect(e?.disclosed.witnesses).toEqual([]);
  });

  it("every strategy ends its feedback with the oracle's retry instruction", () => {
    for (const name of STRATEGY_NAMES.filter((n) => n !== 'zero-shot')) {
      expect(STRATEGIES[name].feedback(failing, ctx)?.text.endsWith('Try again in a block.')).toBe(true);
    }
  });
});

describe('the strategy registry', () => {
  it('knows the refining strategies too, built from the inputs given, in one order after the grid', () => {
    expect(ALL_STRATEGY_NAMES).toEqual([...STRATEGY_NAMES, 'hero-t', 'react', 'cheatsheet']);
    expect(buildStrategies({}).map((s) => [s.name, s.kind])).toEqual([
      ...STRATEGY_NAMES.map((name) => [name, 'feedback']),
      ['hero-t', 'refining'],
      ['react', 'refining'],
      ['cheatsheet', 'refining'],
    ]);
    const [heroT, cheatsheet] = pickStrategies('hero-t', 'cheatsheet');
    expect([heroT?.kind, heroT?.name, cheatsheet?.sequential]).toEqual(['refining', 'hero-t', true]);
    // A cheatsheet's memory belongs to one strategy instance: two picks, two memories.
    expect(pickStrategies('cheatsheet')[0]).not.toBe(cheatsheet);
    expect(() => buildStrategies({}, ['hero-t', 'nope'])).toThrow(
      /unknown strategy "nope" \(known: zero-shot, .*, diagnostic, hero-t, react, cheatsheet\)/,
    );
  });

  it('builds HERO-T from a HERO-O report when one is given', () => {
    const [fromReport] = buildStrategies({ heroReport: 'no/such/hero-report.json' }, ['hero-t']);
    expect(fromReport?.prompt).toBeUndefined(); // the file does not exist: the suite's seed prompt is used
  });
});
