/**
 * The sim proposer's parts: the diagnosis reads symptoms from failed traces (statement, program,
 * verdict), every recipe renders to a module that typechecks against the SDK and imports only it,
 * and the recipe line round-trips, so a later iteration reads back what an earlier one wrote.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importFindings } from './imports.ts';
import { seedHarnessFile } from './seeds.ts';
import { createSimProposer } from './sim-proposer.ts';
import { MetaHarnessStore } from './store.ts';
import { steeringOf } from '../../core/steering.ts';
import { SQL_STEERING } from '../../oracles/sql/steering.ts';
import { ADVICE, rankSymptoms, symptomOf, viewTrace, type TraceView } from './sim-diagnosis.ts';
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

  it('names the SQL clause a failed query most likely got wrong, by the question and the program', () => {
    const sql = (question: string, program: string, error: string | null = null): TraceView => ({
      ...view('', program, error),
      statement: `Database schema:\nCREATE TABLE t (a INT);\n\nQuestion: ${question}\n\nAnswer with one SQL query.`,
    });
    expect(symptomOf(sql('x', 'SELECT b FROM t', 'no such column: b'), 'sql')).toBe('unknown-name');
    expect(symptomOf(sql('x', 'SELECT a FROM', 'incomplete input'), 'sql')).toBe('does-not-run');
    expect(symptomOf(sql('List the different cities.', 'SELECT city FROM t'), 'sql')).toBe('distinct');
    expect(symptomOf(sql('List the cities.', 'SELECT DISTINCT city FROM t'), 'sql')).toBe('distinct');
    expect(symptomOf(sql('What is the highest price?', 'SELECT MIN(price) FROM t'), 'sql')).toBe('aggregate');
    expect(symptomOf(sql('Name the top 3.', 'SELECT a FROM t ORDER BY a ASC LIMIT 3'), 'sql')).toBe('ordering');
    expect(symptomOf(sql('Which cost more than 5?', 'SELECT a FROM t WHERE a >= 5'), 'sql')).toBe('condition');
    expect(symptomOf(sql('Pairs?', 'SELECT * FROM t JOIN u ON t.a = u.b'), 'sql')).toBe('join');
    expect(symptomOf(sql('Anything?', 'SELECT 1'), 'sql')).toBe('wrong-result');
  });

  it("gives each SQL symptom advice in the proposer's own words that addresses the same mistake and provokes none", () => {
    const classOf: Record<string, string> = {
      'unknown-name': 'unknown-column',
      distinct: 'distinct',
      aggregate: 'aggregate',
      ordering: 'ordering',
      join: 'join',
      condition: 'condition',
    };
    for (const [symptom, name] of Object.entries(classOf)) {
      const advice = ADVICE[symptom as keyof typeof ADVICE];
      expect(steeringOf(SQL_STEERING, advice), symptom).toEqual({ addressed: [name], provoked: [] });
      expect(SQL_STEERING.classes.some((c) => c.rule === advice)).toBe(false);
    }
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
      expect(await importFindings(source)).toEqual([]);
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

describe('the sim proposer on a store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'witness-sim-proposer-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the failed traces of the best candidate and writes one change each, the top symptom first', async () => {
    const store = new MetaHarnessStore(dir, 'run');
    const id = 'seed-zero-shot';
    store.writeHarness(id, readFileSync(seedHarnessFile('zero-shot'), 'utf8'));
    store.writeProposal({ id, iteration: 0, parent: null, hypothesis: 'seed', mechanism: 'seed', proposer: 'seed' });
    const failed = (n: number, program: string) => ({
      taskId: `t${n}`,
      turns: [
        {
          phase: 'solve',
          messages: [
            { role: 'user', content: `Write a regular expression for: lines with the string 'w${n}x'\n\nMore.` },
          ],
          candidate: { source: program },
          verdict: { pass: false, witnesses: [] },
        },
      ],
    });
    store.writeTrace(id, 't1', failed(1, '.*w1.*'));
    store.writeTrace(id, 't2', failed(2, '.*x2w.*'));
    store.writeScores(id, {
      passAtFinal: 0,
      meanTokens: 10,
      meanCalls: 1,
      meanTimeMs: 1,
      tasks: [1, 2].map((n) => ({ taskId: `t${n}`, trial: 0, pass: false, tokens: 10, calls: 1, timeMs: 1 })),
    });
    store.writeValidation(id, { ok: true, checks: [] });
    store.appendEvolution({
      iteration: 0,
      id,
      parent: null,
      hypothesis: 'seed',
      mechanism: 'seed',
      outcome: 'evaluated',
      passAtFinal: 0,
      meanTokens: 10,
      deltaVsBest: null,
      onFrontier: true,
    });
    // An empty candidate an earlier proposer left behind: skipped, not a crash.
    store.writeProposal({ id: 'i1-c1', iteration: 1, parent: null, hypothesis: '-', mechanism: '-', proposer: 'x' });
    store.appendEvolution({
      iteration: 1,
      id: 'i1-c1',
      parent: null,
      hypothesis: '-',
      mechanism: '-',
      outcome: 'failed: the proposer wrote no harness.ts',
      passAtFinal: null,
      meanTokens: null,
      deltaVsBest: null,
      onFrontier: false,
    });
    const proposer = createSimProposer({ seed: 3, language: 'regex' });
    expect(proposer.simulated).toBe(true);
    const { transcript } = await proposer.propose({
      iteration: 2,
      k: 2,
      store,
      skillFile: 'skill.md',
      candidateIds: ['i2-c1', 'i2-c2'],
    });
    const first = store.readProposal('i2-c1');
    expect(first).toMatchObject({ parent: id, iteration: 2, proposer: 'sim' });
    expect(first.mechanism).toMatch(/^prompt rule \(prompt rules for literal\)/);
    expect(first.hypothesis).toMatch(/2 failed trace\(s\) of seed-zero-shot show the symptom "literal"/);
    expect(readRecipe(store.readHarness('i2-c1'))?.rules).toEqual(['literal']);
    expect(readRecipe(store.readHarness('i2-c2'))).not.toEqual(readRecipe(store.readHarness('i2-c1')));
    const reads = (transcript as { action: string; file?: string }[])
      .filter((s) => s.action === 'read')
      .map((s) => s.file);
    expect(reads).toEqual(
      expect.arrayContaining(['evolution.jsonl', `candidates/${id}/traces/t1.json`, `candidates/${id}/scores.json`]),
    );
  });
});
