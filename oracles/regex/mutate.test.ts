import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/random.ts';
import { printBrics, printEcmascript, type RegexNode } from './ast.ts';
import { parseBrics } from './brics.ts';
import { compileRegex } from './compile.ts';
import { compareLanguages } from './equivalence.ts';
import { RegexTooComplexError } from './errors.ts';
import { MUTATION_OPERATORS, mutateRegex } from './mutate.ts';
import { findNlRxTurk, NLRX_TURK_SETTING } from './loader.ts';
import { runConfig } from '../../core/run-config.ts';

const TURK = findNlRxTurk(runConfig().config.suites['nl-rx'].data);
const TARG = TURK ? join(TURK, 'targ.txt') : NLRX_TURK_SETTING;
const targLines = existsSync(TARG) ? readFileSync(TARG, 'utf8').split('\n') : null;
if (!targLines) console.warn(`NL-RX-Turk targ.txt not found at ${TARG}: its tests are skipped`);

function isValid(node: RegexNode): boolean {
  switch (node.type) {
    case 'chars':
      return typeof node.text === 'string' && node.set.maximum === 0xffff;
    case 'seq':
      return node.items.every(isValid);
    case 'alt':
      return node.options.every(isValid);
    case 'repeat':
      return Number.isInteger(node.min) && node.min >= 0 && node.min <= node.max && isValid(node.node);
    case 'and':
      return isValid(node.left) && isValid(node.right);
    case 'not':
      return isValid(node.node);
    default:
      return true;
  }
}

/** The mutant prints, re-parses in both dialects, and (unless too big) compiles. */
function checkMutant(original: RegexNode, mutant: RegexNode): void {
  expect(isValid(mutant)).toBe(true);
  const printed = printBrics(mutant);
  expect(printed).not.toBe(printBrics(original));
  try {
    expect(compileRegex(printed, 'brics').dfa).not.toBeNull();
    if (!/[&~]/.test(printed)) expect(compileRegex(printEcmascript(mutant), 'ecmascript').dfa).not.toBeNull();
  } catch (error) {
    if (!(error instanceof RegexTooComplexError)) throw error;
  }
}

describe('mutation operators', () => {
  it('have unique names', () => {
    const names = MUTATION_OPERATORS.map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each([
    ['quantifier-change', '(dog){4,}', ['(dog){3,}', '(dog){5,}']],
    ['quantifier-change', 'a*', ['a+', 'a?']],
    ['quantifier-drop', '.*dog', ['.dog']],
    ['class-swap', '[0-9]', ['[A-Z]', '[a-z]', '[A-Za-z]', '[AEIOUaeiou]', '.']],
    ['word-replace', '.*dog.*', ['.*truck.*', '.*ring.*', '.*lake.*']],
    ['and-to-or', '(dog)&(.*)', ['dog|.*']],
    ['not-unwrap', '~(dog)', ['dog']],
    ['alt-drop', 'dog|truck', ['dog', 'truck']],
  ])('%s on %s', (name, source, expected) => {
    const op = MUTATION_OPERATORS.find((o) => o.name === name);
    expect(op).toBeDefined();
    const seen = new Set<string>();
    for (let seed = 0; seed < 30; seed++) {
      const mutant = op?.apply(parseBrics(source), new Rng(seed));
      if (mutant) seen.add(printBrics(mutant));
    }
    expect([...seen].sort()).toEqual([...expected].sort());
  });

  it('return null where nothing applies', () => {
    const rng = new Rng(1);
    const byName = (name: string) => MUTATION_OPERATORS.find((o) => o.name === name);
    expect(byName('and-to-or')?.apply(parseBrics('dog'), rng)).toBeNull();
    expect(byName('or-to-and')?.apply(parseBrics('dog'), rng)).toBeNull();
    expect(byName('not-unwrap')?.apply(parseBrics('dog'), rng)).toBeNull();
    expect(byName('quantifier-drop')?.apply(parseBrics('dog'), rng)).toBeNull();
  });

  it('mutateRegex is deterministic and names its operator', () => {
    const node = parseBrics('((dog)|(truck)){5,}.*[A-Z]');
    const a = mutateRegex(node, new Rng(9));
    const b = mutateRegex(node, new Rng(9));
    expect(a).not.toBeNull();
    expect(a && printBrics(a.node)).toBe(b && printBrics(b.node));
    expect(MUTATION_OPERATORS.map((op) => op.name)).toContain(a?.operator);
  });

  it('the ecmascript dialect never introduces & or ~', () => {
    const node = compileRegex('(dog|truck)+[0-9]', 'ecmascript').node as RegexNode;
    for (let seed = 0; seed < 200; seed++) {
      const result = mutateRegex(node, new Rng(seed), { dialect: 'ecmascript' });
      expect(result && /[&~]/.test(printBrics(result.node))).toBe(false);
    }
  });

  it('distinctLanguage rejects mutants with the same language', () => {
    const node = parseBrics('.*dog.*');
    const original = compileRegex('.*dog.*', 'brics');
    for (let seed = 0; seed < 40; seed++) {
      const result = mutateRegex(node, new Rng(seed), { distinctLanguage: true });
      expect(result).not.toBeNull();
      const mutant = compileRegex(printBrics((result as { node: RegexNode }).node), 'brics');
      expect(compareLanguages(original, mutant)).toMatchObject({ decided: true, equivalent: false });
    }
  });

  it('returns null when no mutation changes the printed form', () => {
    expect(mutateRegex({ type: 'none' }, new Rng(1), { dialect: 'ecmascript' })).toBeNull();
  });
});

describe.skipIf(!targLines)('mutations over NL-RX-Turk targ.txt', () => {
  it('every operator applies somewhere; mutants are valid, compile, and differ', () => {
    const rng = new Rng(2024);
    const used = new Map<string, number>();
    const lines = (targLines ?? []).filter((_, i) => i % 5 === 0);
    for (const line of lines) {
      const original = parseBrics(line);
      const result = mutateRegex(original, rng);
      expect(result, line).not.toBeNull();
      if (!result) continue;
      used.set(result.operator, (used.get(result.operator) ?? 0) + 1);
      checkMutant(original, result.node);
    }
    console.info(`mutations over ${lines.length} targ.txt lines: ${JSON.stringify(Object.fromEntries(used))}`);
    expect([...used.keys()].sort()).toEqual(MUTATION_OPERATORS.map((op) => op.name).sort());
  });
});
