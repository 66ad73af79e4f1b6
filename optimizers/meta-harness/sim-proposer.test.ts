/**
 * The sim proposer's parts: the diagnosis reads symptoms from failed traces (statement, program,
 * verdict), every recipe renders to a module that typechecks against the SDK and imports only it,
 * and the recipe line round-trips, so a later iteration reads back what an earlier one wrote.
 */
import { describe, expect, it } from 'vitest';
import { importFindings } from './imports.ts';
import { rankSymptoms, symptomOf, viewTrace, type TraceView } from './sim-diagnosis.ts';
import { EMPTY_RECIPE, readRecipe, recipeKey, renderHarness, type Recipe } from './sim-recipe.ts';
import { typecheckHarness } from './typecheck.ts';

const view = (statement: string, program: string | null, error: string | null = null): TraceView => ({
  taskId: 't',
  statement: `Write a regular expression in ECMAScript syntax for: ${statement}\n\nThe regex is checked …`,
  program,
  pass: false,
  error,
  witnessLabels: [],
});

describe('sim diagnosis', () => {
  it('names the symptom a reader of the trace can see', () => {
    expect(symptomOf(view("lines with the string 'dog'", '.*dgo.*'), 'regex')).toBe('literal');
    expect(symptomOf(view("lines with the string 'dog'", '(.*dog.*', 'unbalanced parenthesis'), 'regex')).toBe(
      'does-not-run',
    );
    expect(symptomOf(view('lines with at least 3 letters', '.*[A-Za-z]{4,}.*'), 'regex')).toBe('count');
    expect(symptomOf(view('lines with a vowel', '.*[a-z].*'), 'regex')).toBe('char-class');
    expect(symptomOf(view('lines with a letter and a number', '.*[A-Za-z].*|.*[0-9].*'), 'regex')).toBe('logic');
    expect(symptomOf(view('lines with a letter before a number', '.*[0-9].*[A-Za-z].*'), 'regex')).toBe('structure');
    expect(symptomOf(view('how many schools?', 'SELECT 1'), 'other')).toBe('wrong-result');
  });

  it('ranks symptoms by count and skips passing traces', () => {
    const views = [
      view("the string 'dog'", '.*dgo.*'),
      view("the string 'cat'", '.*cta.*'),
      view('a vowel', '.*[a-z].*'),
      { ...view("the string 'ox'", 'ox'), pass: true },
    ];
    expect(rankSymptoms(views, 'regex')).toEqual([
      { symptom: 'literal', count: 2 },
      { symptom: 'char-class', count: 1 },
    ]);
  });

  it('reads a stored trajectory: the first user message, the last solve turn, the verdict error', () => {
    const trace = {
      taskId: 'x1',
      turns: [
        {
          phase: 'solve',
          messages: [
            { role: 'system', content: 's' },
            { role: 'user', content: 'for: lines' },
          ],
          candidate: { source: '(a' },
          verdict: {
            pass: false,
            error: { kind: 'compile', message: 'unbalanced' },
            witnesses: [{ label: 'too broad' }],
          },
        },
      ],
    };
    expect(viewTrace(trace)).toEqual({
      taskId: 'x1',
      statement: 'for: lines',
      program: '(a',
      pass: false,
      error: 'unbalanced',
      witnessLabels: ['too broad'],
    });
    expect(viewTrace({ not: 'a trace' })).toBeNull();
  });
});

describe('sim recipes', () => {
  const recipes: Recipe[] = [
    EMPTY_RECIPE,
    { rules: ['literal', 'count'], repairs: 0, retrieve: false, notes: false },
    { rules: ['does-not-run'], repairs: 2, retrieve: false, notes: false },
    { rules: [], repairs: 1, retrieve: true, notes: true },
  ];

  it('every mechanism renders to a module that typechecks against the SDK and imports only it', async () => {
    for (const [i, recipe] of recipes.entries()) {
      const source = renderHarness(`r${i}`, recipe);
      expect(readRecipe(source)).toEqual(recipe);
      expect(importFindings(source)).toEqual([]);
      const checked = await typecheckHarness(source, `/virtual/r${i}.ts`);
      expect(checked.errors).toEqual([]);
      expect(checked.ok).toBe(true);
    }
  }, 60_000);

  it('keys recipes by content (rule order does not matter) and rejects a foreign first line', () => {
    expect(recipeKey({ ...EMPTY_RECIPE, rules: ['count', 'literal'] })).toBe(
      recipeKey({ ...EMPTY_RECIPE, rules: ['literal', 'count'] }),
    );
    expect(readRecipe("import x from 'witness-harness';")).toBeNull();
    expect(readRecipe('// sim-recipe: {"rules":["made-up"],"repairs":0,"retrieve":false,"notes":false}')).toBeNull();
  });
});
