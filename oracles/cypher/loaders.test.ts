/** Reading outside input: SimpleKG graphs, question files, prediction files, model replies; the fixture's determinism. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSkyways } from '../../fixtures/cypherbench/generate-graph.ts';
import { serializeGraph, toItem } from '../../fixtures/cypherbench/generate.ts';
import { skywaysQuestions } from '../../fixtures/cypherbench/questions.ts';
import { extractCypher } from './extract.ts';
import { SKYWAYS_GRAPH_FILE, SKYWAYS_QUESTIONS_FILE } from './fixture-paths.ts';
import { readPredictions, topLevelKeys } from './predictions.ts';
import { loadCypherBenchFile, loadCypherBenchQuestions, readCypherBenchItems, type CypherBenchItem } from './loader.ts';
import { schemaText } from './schema-text.ts';
import { parseSimpleKG, readSimpleKG, SimpleKGError } from './simplekg.ts';

const dir = mkdtempSync(join(tmpdir(), 'witness-cypher-loaders-'));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

const tiny = () => ({
  schema: {
    name: 'tiny',
    entities: [
      { label: 'Team', properties: { founded: 'date', titles: 'int', colours: 'list[str]' } },
      { label: 'City', properties: {} },
    ],
    relations: [{ label: 'basedIn', subj_label: 'Team', obj_label: 'City', properties: { since: 'date' } }],
  },
  entities: [
    {
      eid: 'Team#1',
      label: 'Team',
      name: 'A',
      aliases: ['a'],
      description: 'd',
      properties: { founded: '1901-02-03', titles: 3, colours: ['red'], undeclared: 1 },
      provenance: [],
    },
    { eid: 'City#1', label: 'City', name: 'X', aliases: [], description: null, properties: {}, provenance: ['p'] },
  ],
  relations: [{ rid: '0', label: 'basedIn', subj_id: 'Team#1', obj_id: 'City#1', properties: { since: '1950-01-01' } }],
});

describe('SimpleKG', () => {
  it('reads a valid graph; only declared properties are kept, null means absent', () => {
    const kg = parseSimpleKG(tiny(), 'tiny.json');
    expect(kg.entities[0]?.properties).toEqual({ founded: '1901-02-03', titles: 3, colours: ['red'] });
    expect(kg.relations[0]?.properties).toEqual({ since: '1950-01-01' });
  });

  it('lists every problem by item and refuses the graph', () => {
    const raw = tiny();
    (raw.entities[0] as { properties: Record<string, unknown> }).properties.titles = 2.5;
    (raw.entities[0] as { properties: Record<string, unknown> }).properties.founded = '1901-13-03';
    raw.entities.push({ ...raw.entities[1]!, eid: 'City#1' });
    raw.relations.push({
      rid: '1',
      label: 'basedIn',
      subj_id: 'Team#9',
      obj_id: 'City#1',
      properties: { since: '1950-01-01' },
    });
    raw.relations.push({
      rid: '2',
      label: 'playsIn',
      subj_id: 'Team#1',
      obj_id: 'City#1',
      properties: { since: '1950-01-01' },
    });
    const error = (() => {
      try {
        parseSimpleKG(raw, 'tiny.json');
      } catch (e) {
        return e as SimpleKGError;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(SimpleKGError);
    expect(error?.issues).toEqual([
      'entities[0] (eid Team#1): property founded = "1901-13-03" is not a date',
      'entities[0] (eid Team#1): property titles = 2.5 is not a int',
      'entities[2] (eid City#1): eid appears twice',
      'relations[1] (Team#9 -[basedIn]-> City#1): subj_id Team#9 names no entity',
      'relations[2] (Team#1 -[playsIn]-> City#1): Team-[playsIn]->City is not declared in the schema',
    ]);
    expect(error?.message).toMatch(/^tiny\.json is not a valid SimpleKG graph \(5 problems\):/);
  });

  it('names the file when it is missing or not JSON', () => {
    expect(() => readSimpleKG(join(dir, 'nope.json'))).toThrow(
      /nope\.json is not a valid SimpleKG graph \(1 problem\):\n {2}cannot be read/,
    );
    expect(() => readSimpleKG(write('bad.json', '{'))).toThrow(
      /bad\.json is not a valid SimpleKG graph \(1 problem\):\n {2}is not JSON/,
    );
    expect(() =>
      parseSimpleKG(
        { schema: { name: 'x', entities: [{ label: 'Bad Label' }], relations: [] }, entities: [], relations: [] },
        's',
      ),
    ).toThrow(/label missing or not a plain identifier/);
  });

  it('gives CypherBench’s schema string for prompts (name added, sorted, no descriptions)', () => {
    const text = schemaText(parseSimpleKG(tiny(), 'tiny.json').schema);
    expect(JSON.parse(text)).toEqual({
      name: 'tiny',
      entities: [
        { label: 'City', properties: { name: 'str' } },
        { label: 'Team', properties: { colours: 'list[str]', founded: 'date', name: 'str', titles: 'int' } },
      ],
      relations: [{ label: 'basedIn', subj_label: 'Team', obj_label: 'City', properties: { since: 'date' } }],
    });
    expect(text).toContain('\n  "entities": [\n    {\n      "label": "City",');
  });
});

describe('the skyways fixture', () => {
  it('is what the committed generator produces, byte for byte', () => {
    const kg = generateSkyways();
    expect(serializeGraph(kg)).toBe(readFileSync(SKYWAYS_GRAPH_FILE, 'utf8'));
    expect(kg.entities.length).toBeGreaterThanOrEqual(300);
    expect(kg.relations.length).toBeGreaterThanOrEqual(1000);
    const committed = readCypherBenchItems(SKYWAYS_QUESTIONS_FILE) as CypherBenchItem[];
    const regenerated = skywaysQuestions(kg).map((q) => toItem(q, 'skyways'));
    expect(committed.map(({ answer_json: _a, ...rest }) => rest)).toEqual(
      regenerated.map(({ answer_json: _a, ...rest }) => rest),
    );
  });

  it('has at least 40 questions covering every CypherBench pattern', () => {
    const { tasks, issues } = loadCypherBenchQuestions(SKYWAYS_QUESTIONS_FILE);
    expect(issues).toEqual([]);
    expect(tasks.length).toBeGreaterThanOrEqual(40);
    const categories = new Set(tasks.map((t) => t.meta?.match_category));
    expect([...categories].sort()).toEqual([
      'aggregation',
      'grouping',
      'lookup',
      'multi-hop',
      'optional-match',
      'ordering',
      'time-filter',
    ]);
    expect(tasks.some((t) => /ORDER BY .* LIMIT/.test(t.gold))).toBe(true);
    expect(tasks.some((t) => /OPTIONAL MATCH/.test(t.gold))).toBe(true);
    expect(tasks.some((t) => /date\('/.test(t.gold))).toBe(true);
  });
});

describe('question files', () => {
  it('turn broken items into issues naming them and load the rest', () => {
    const file = write(
      'q.json',
      JSON.stringify([
        {
          qid: 'a',
          graph: 'g',
          gold_cypher: 'RETURN 1',
          nl_question: 'one?',
          from_template: { match_category: 'basic' },
        },
        { qid: 'b', graph: 'g', gold_cypher: '', nl_question: 'x' },
        'not an object',
        { qid: 'a', graph: 'g', gold_cypher: 'RETURN 2', nl_question: 'two?' },
        { qid: 'c', graph: 'g', gold_cypher: 'RETURN 3', nl_question: 'q', answer_json: 3 },
      ]),
    );
    const { tasks, issues } = loadCypherBenchQuestions(file);
    expect(tasks).toEqual([
      {
        id: 'a',
        benchmark: 'cypherbench',
        description: 'one?',
        gold: 'RETURN 1',
        context: { graph: 'g' },
        meta: { file, index: 0, graph: 'g', match_category: 'basic' },
      },
    ]);
    expect(issues).toEqual([
      { item: 'question b', message: 'gold_cypher is missing or not a string' },
      { item: `${file} item 2`, message: 'not an object' },
      { item: 'question a', message: `qid appears more than once in ${file}` },
      { item: 'question c', message: 'answer_json must be a string' },
    ]);
    expect(loadCypherBenchQuestions(write('obj.json', '{}')).issues[0]?.message).toMatch(
      /a CypherBench question file is a JSON list of items/,
    );
    // With their positions and what can be read of them, for scoring them 0 where they stand.
    const full = loadCypherBenchFile(file);
    expect(full.itemCount).toBe(5);
    expect(full.invalid.map(({ index, qid, graph, category }) => ({ index, qid, graph, category }))).toEqual([
      { index: 1, qid: 'b', graph: 'g', category: null },
      { index: 2, qid: null, graph: null, category: null },
      { index: 3, qid: 'a', graph: 'g', category: null },
      { index: 4, qid: 'c', graph: 'g', category: null },
    ]);
    expect(full.invalid.map((i) => i.issue)).toEqual(issues);
  });
});

describe('prediction files', () => {
  const qids = ['q1', 'q2'];
  const read = (name: string, content: string) => readPredictions(write(name, content), qids);
  it('read result.json items, qid maps, JSON lists and text lines, stripping <end_of_turn>', () => {
    expect(
      read(
        'r.json',
        JSON.stringify([
          { qid: 'q2', pred_cypher: 'RETURN 2<end_of_turn>' },
          { qid: 'q1', pred_cypher: null },
        ]),
      ),
    ).toEqual({ queries: new Map([['q2', 'RETURN 2']]), invalid: new Map(), issues: [] });
    expect(read('m.json', JSON.stringify({ q1: 'RETURN 1' })).queries).toEqual(new Map([['q1', 'RETURN 1']]));
    expect(read('l.json', JSON.stringify(['RETURN 1', 'RETURN 2'])).queries).toEqual(
      new Map([
        ['q1', 'RETURN 1'],
        ['q2', 'RETURN 2'],
      ]),
    );
    expect(read('p.txt', 'RETURN 1\nRETURN 2\n').queries).toEqual(
      new Map([
        ['q1', 'RETURN 1'],
        ['q2', 'RETURN 2'],
      ]),
    );
  });

  it('name predictions for qids the question file does not have, and items without a qid, instead of dropping them silently', () => {
    const file = write(
      'unknown.json',
      JSON.stringify([
        { qid: 'q1', pred_cypher: 'RETURN 1' },
        { qid: 'q9', pred_cypher: 'RETURN 9' },
        { pred_cypher: 'RETURN 0' },
      ]),
    );
    const p = readPredictions(file, qids);
    expect(p.queries).toEqual(new Map([['q1', 'RETURN 1']]));
    expect(p.issues).toEqual([
      { item: `${file} item 2`, message: 'has no qid: ignored' },
      {
        item: `${file} item 1`,
        message: 'a prediction for "q9", which is not a question of the question file: ignored',
      },
    ]);
    expect(
      read('unknown-map.json', JSON.stringify({ q2: 'RETURN 2', nope: 'RETURN 3' })).issues.map((i) => i.message),
    ).toEqual(['a prediction for "nope", which is not a question of the question file: ignored']);
  });

  it('score a question predicted twice, or predicted with something that is not a string, as invalid (0), with the reason', () => {
    const list = read(
      'dup.json',
      JSON.stringify([
        { qid: 'q1', pred_cypher: 'RETURN 1' },
        { qid: 'q2', pred_cypher: 7 },
        { qid: 'q1', pred_cypher: 'RETURN 11' },
      ]),
    );
    expect(list.queries.size).toBe(0);
    expect(list.invalid.get('q1')).toMatch(/predicts q1 2 times \(item 0, item 2\); one prediction per question$/);
    expect(list.invalid.get('q2')).toMatch(/item 1: the prediction for q2 is a number, not a string$/);
    // JSON.parse keeps only the last of repeated keys: the repeat must still be seen.
    const map = read('dup-map.json', '{"q1": "RETURN 1", "q2": {"x": 1}, "q1": "RETURN 11"}');
    expect(map.invalid.get('q1')).toMatch(/predicts q1 2 times \(key 1, key 3\)/);
    expect(map.invalid.get('q2')).toMatch(/the prediction for q2 is an object, not a string/);
    expect(read('nonstring.json', JSON.stringify(['RETURN 1', ['RETURN 2']])).invalid.get('q2')).toMatch(
      /prediction 2: the prediction for q2 is a list, not a string/,
    );
  });

  it('finds every top-level key of a JSON object, repeats included, and nothing nested', () => {
    expect(topLevelKeys('{"a": {"b": 1, "c": ["d", {"e": 2}]}, "f\\"g": "h:i", "a" : 3}')).toEqual(['a', 'f"g', 'a']);
  });

  it('refuse positional files that do not fit the questions', () => {
    expect(() => read('short.txt', 'RETURN 1\n')).toThrow(
      /short\.txt has 1 predictions but the question file has 2 questions/,
    );
    expect(() => readPredictions(write('short3.txt', 'RETURN 1\n'), qids, ['q1', null, 'q2'])).toThrow(
      /has 1 predictions but the question file has 2 questions \(in 3 items\)/,
    );
  });

  it('align positional files with the question file’s items when they have one per item, unusable ones included', () => {
    const positions = ['q1', null, 'q2'];
    expect(
      readPredictions(write('by-item.txt', 'RETURN 1\nRETURN broken\nRETURN 2\n'), qids, positions).queries,
    ).toEqual(
      new Map([
        ['q1', 'RETURN 1'],
        ['q2', 'RETURN 2'],
      ]),
    );
    // One per usable question still goes to the questions in order.
    expect(readPredictions(write('by-question.txt', 'RETURN 1\nRETURN 2\n'), qids, positions).queries).toEqual(
      new Map([
        ['q1', 'RETURN 1'],
        ['q2', 'RETURN 2'],
      ]),
    );
  });
});

describe('extractCypher', () => {
  it('takes a cypher block, else a reply that reads as a query, else nothing', () => {
    expect(extractCypher('Here:\n```cypher\nMATCH (n) RETURN n.name;\n```')).toEqual({
      source: 'MATCH (n) RETURN n.name',
      extraction: 'code-block',
    });
    expect(extractCypher('MATCH (n) RETURN count(n)<end_of_turn>')).toEqual({
      source: 'MATCH (n) RETURN count(n)',
      extraction: 'whole-reply',
    });
    expect(extractCypher('Cypher: MATCH (n) RETURN n')).toEqual({
      source: 'MATCH (n) RETURN n',
      extraction: 'whole-reply',
    });
    expect(extractCypher('I do not know.')).toBeNull();
    expect(extractCypher('```cypher\n\n```')).toBeNull();
  });
});
