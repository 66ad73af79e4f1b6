import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REGEX_STEERING } from '../oracles/regex/steering.ts';
import { SQL_STEERING } from '../oracles/sql/steering.ts';
import { carriesKeywords, catalogProblems, classRate, steeringOf } from './steering.ts';

const prompt = (name: string) => readFileSync(new URL(`../prompts/${name}.md`, import.meta.url), 'utf8');

describe('steering catalogs', () => {
  it.each([
    ['regex', REGEX_STEERING],
    ['sql', SQL_STEERING],
  ])('%s: every rule carries its own keywords and no other rule, harmful rules carry no helpful one', (_n, catalog) => {
    expect(catalogProblems(catalog)).toEqual([]);
    for (const c of catalog.classes) expect(steeringOf(catalog, c.rule)).toEqual({ addressed: [c.name], provoked: [] });
  });

  it('the seed prompts carry no rule, so a better prompt exists', () => {
    expect(steeringOf(REGEX_STEERING, prompt('nl-rx'))).toEqual({ addressed: [], provoked: [] });
    expect(steeringOf(SQL_STEERING, prompt('bird'))).toEqual({ addressed: [], provoked: [] });
  });

  it('matches keywords at word starts, case-insensitively, needing every group', () => {
    const groups = [['quantif'], ['exact', 'count']];
    expect(carriesKeywords('Check QUANTIFIERS: count them.', groups)).toBe(true);
    expect(carriesKeywords('Check quantifiers.', groups)).toBe(false);
    expect(carriesKeywords('unquantified and inexact', groups)).toBe(false);
    expect(carriesKeywords('anything', [])).toBe(false);
  });

  it('names the problems of a broken catalog', () => {
    const broken = {
      classes: [
        { name: 'a', summary: '', rule: 'nothing here', keywords: [['zebra']] },
        { name: 'a', summary: '', rule: 'zebra', keywords: [['zebra']] },
      ],
      harmful: [{ name: 'h', text: 'a zebra', keywords: [['zebra']], provokes: 'b' }],
    };
    expect(catalogProblems(broken)).toEqual([
      'class a: its rule text does not carry its keywords',
      'class a is listed twice',
      'harmful rule h provokes an unknown class b',
      'harmful rule h also carries the rule of a',
      'harmful rule h also carries the rule of a',
    ]);
  });

  it('scales a class rate down by its rule, up by a harmful rule, capped at 1', () => {
    const rates = { mistakeRate: 0.4, ruleFactor: 0.1, harmFactor: 3 };
    expect(classRate('x', { addressed: [], provoked: [] }, rates)).toBe(0.4);
    expect(classRate('x', { addressed: ['x'], provoked: [] }, rates)).toBeCloseTo(0.04);
    expect(classRate('x', { addressed: [], provoked: ['x'] }, rates)).toBe(1);
    expect(classRate('x', { addressed: ['x'], provoked: ['x'] }, rates)).toBeCloseTo(0.12);
  });
});
