/** `witness eval cypherbench` end to end, against the run's Neo4j holding the skyways fixture. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { SKYWAYS_GRAPH_FILE, SKYWAYS_QUESTIONS_FILE } from '../oracles/cypher/fixture-paths.ts';
import { readCypherBenchItems, type CypherBenchItem } from '../oracles/cypher/loader.ts';
import { neo4jUri } from '../oracles/cypher/server/acquire.ts';

const bin = fileURLToPath(new URL('../bin/witness.js', import.meta.url));
const witness = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000, env });
const items = readCypherBenchItems(SKYWAYS_QUESTIONS_FILE) as CypherBenchItem[];
const dir = mkdtempSync(join(tmpdir(), 'witness-eval-cypher-'));

interface OutItem {
  index: number;
  qid: string | null;
  status: string;
  message?: string;
}
/**
 * The items whose status is not the expected one (by default: exact or correct), with why: an
 * assertion message that says which item went wrong. `expected` is keyed by qid, or `#index`.
 */
const unexpected = (out: { items: OutItem[] }, expected: Record<string, string> = {}) =>
  JSON.stringify(
    out.items
      .filter(
        (i) => (expected[i.qid ?? ''] ?? expected[`#${i.index}`] ?? 'exact|correct').split('|').indexOf(i.status) < 0,
      )
      .map((i) => ({ index: i.index, qid: i.qid, status: i.status, message: i.message?.slice(0, 300) })),
  );

let uri = '';
beforeAll(async () => {
  uri = await neo4jUri(SKYWAYS_GRAPH_FILE);
}, 600_000);

describe('witness eval cypherbench', () => {
  it('scores a CypherBench result.json: exact, correct, wrong, errors, unsafe and missing predictions', () => {
    const gold = (i: number) => (items[i] as CypherBenchItem).gold_cypher;
    const predictions: Record<number, string | null> = {
      0: gold(0), // exact string
      1: `${gold(1)} <end_of_turn>`, // exact once the turn marker is stripped
      2: gold(2).replace('RETURN m0.name', 'RETURN m0.name AS city'), // same result, other text
      3: gold(3).replace('RETURN n.name', 'RETURN n.name LIMIT 1'), // wrong
      4: 'MATCH (n:Airline RETURN n', // syntax error
      5: 'MATCH (n:Airline) DETACH DELETE n', // unsafe: never run
      6: null, // no prediction
    };
    const result = items.map((item, i) => ({ ...item, pred_cypher: i in predictions ? predictions[i] : gold(i) }));
    const file = join(dir, 'result.json');
    writeFileSync(file, JSON.stringify(result));
    const run = witness([
      'eval',
      'cypherbench',
      '--data',
      SKYWAYS_QUESTIONS_FILE,
      '--predictions',
      file,
      '--uri',
      uri,
      '--json',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    const why = unexpected(out, {
      'skyways-004': 'wrong',
      'skyways-005': 'syntax',
      'skyways-006': 'unsafe',
      'skyways-007': 'no-prediction',
    });
    expect(out.total).toBe(48);
    expect(out.correct, why).toBe(44);
    expect(out.byStatus, why).toMatchObject({
      exact: 43,
      correct: 1,
      wrong: 1,
      syntax: 1,
      unsafe: 1,
      'no-prediction': 1,
      'invalid-gold': 0,
    });
    expect(out.executable).toBe(45);
    expect(out.items[3]).toMatchObject({ qid: 'skyways-004', status: 'wrong', rows: { expected: 6, actual: 1 } });
    expect(out.items[5].message).toMatch(/writes/);
    expect(out.byGraph).toEqual({ skyways: { total: 48, correct: 44, accuracy: 44 / 48 } });
    expect(out.byCategory.lookup).toEqual({ total: 8, correct: 4, accuracy: 0.5 });
  }, 120_000);

  it('names predictions for unknown qids, qids predicted twice, predictions that are not strings and missing ones; the questions score 0', () => {
    const gold = (i: number) => (items[i] as CypherBenchItem).gold_cypher;
    const result: Record<string, unknown>[] = items
      .slice(0, 44)
      .map((item, i) => ({ qid: item.qid, pred_cypher: gold(i) }));
    result.push({ qid: 'skyways-999', pred_cypher: gold(0) }); // unknown qid
    result.push({ qid: 'skyways-001', pred_cypher: gold(0) }); // skyways-001 predicted twice
    (result[1] as Record<string, unknown>).pred_cypher = 42; // skyways-002: not a string
    result.push({ qid: items[44]!.qid, pred_cypher: `MATCH (n) RETURN n.name, '${'x'.repeat(20_000)}'` }); // too long a query: too-complex
    // skyways-046 … 048: no prediction
    const file = join(dir, 'messy.json');
    writeFileSync(file, JSON.stringify(result));
    const json = witness([
      'eval',
      'cypherbench',
      '--data',
      SKYWAYS_QUESTIONS_FILE,
      '--predictions',
      file,
      '--uri',
      uri,
      '--json',
    ]);
    expect(json.status, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout);
    const why = unexpected(out, {
      'skyways-001': 'invalid-prediction',
      'skyways-002': 'invalid-prediction',
      'skyways-045': 'too-complex',
      'skyways-046': 'no-prediction',
      'skyways-047': 'no-prediction',
      'skyways-048': 'no-prediction',
    });
    expect(out.total).toBe(48);
    expect(out.correct, why).toBe(42);
    expect(out.byStatus, why).toMatchObject({
      exact: 42,
      'invalid-prediction': 2,
      'too-complex': 1,
      'no-prediction': 3,
    });
    expect(out.predictionIssues).toEqual([
      {
        item: `${file} item 44`,
        message: 'a prediction for "skyways-999", which is not a question of the question file: ignored',
      },
    ]);
    const byQid = (qid: string) => out.items.find((i: { qid: string }) => i.qid === qid);
    expect(byQid('skyways-001')).toMatchObject({
      status: 'invalid-prediction',
      correct: false,
      message: expect.stringMatching(/predicts skyways-001 2 times \(item 0, item 45\)/),
    });
    expect(byQid('skyways-002')).toMatchObject({
      status: 'invalid-prediction',
      message: expect.stringMatching(/the prediction for skyways-002 is a number, not a string/),
    });
    expect(byQid('skyways-045')).toMatchObject({
      status: 'too-complex',
      message: expect.stringMatching(/queries longer than 16,384 bytes are not run/),
    });
    expect(['skyways-046', 'skyways-047', 'skyways-048'].map((q) => byQid(q).status)).toEqual([
      'no-prediction',
      'no-prediction',
      'no-prediction',
    ]);

    const text = witness([
      'eval',
      'cypherbench',
      '--data',
      SKYWAYS_QUESTIONS_FILE,
      '--predictions',
      file,
      '--uri',
      uri,
    ]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/too complex 1, no prediction 3, invalid prediction 2, invalid gold 0\n/);
    expect(text.stdout).toMatch(/warning: .*predicts skyways-001 2 times/);
    expect(text.stdout).toMatch(/warning: .*the prediction for skyways-002 is a number, not a string/);
    expect(text.stdout).toMatch(
      /warning: no prediction for 3 questions \(scored 0\): skyways-046, skyways-047, skyways-048\n/,
    );
    expect(text.stdout).toMatch(
      /warning: .*messy\.json item 44: a prediction for "skyways-999", which is not a question of the question file: ignored/,
    );

    // The caps are options: with room for the long query it runs (and is wrong).
    const roomy = witness([
      'eval',
      'cypherbench',
      '--data',
      SKYWAYS_QUESTIONS_FILE,
      '--predictions',
      file,
      '--uri',
      uri,
      '--json',
      '--max-query-bytes',
      '100000',
    ]);
    expect(roomy.status, roomy.stderr).toBe(0);
    expect(JSON.parse(roomy.stdout).items.find((i: { qid: string }) => i.qid === 'skyways-045')).toMatchObject({
      status: 'wrong',
      executable: true,
    });
    expect(
      witness(['eval', 'cypherbench', '--data', SKYWAYS_QUESTIONS_FILE, '--predictions', file, '--max-rows', '0'])
        .status,
    ).toBe(2);
  }, 180_000);

  it('scores broken items of the question file 0 in the total, named (invalid-question), and keeps positional predictions on their items', async () => {
    const broken = [
      ...items.slice(0, 10),
      { qid: 'broken-no-gold', graph: 'skyways', nl_question: 'Which airline?' }, // gold_cypher missing
      'not an item',
      { ...items[3], nl_question: 'the same qid again' }, // skyways-004 twice
      ...items.slice(10),
    ];
    const data = join(dir, 'broken-questions.json');
    writeFileSync(data, JSON.stringify(broken));
    // One query per line, by the file's positions: the broken items' lines are not given to any other question.
    const lines = broken.map((item) =>
      typeof item === 'object' && 'gold_cypher' in item ? `${item.gold_cypher}` : 'RETURN 1',
    );
    const positional = join(dir, 'positional.txt');
    writeFileSync(positional, `${lines.join('\n')}\n`);
    const run = witness([
      'eval',
      'cypherbench',
      '--data',
      data,
      '--graph',
      SKYWAYS_GRAPH_FILE,
      '--predictions',
      positional,
      '--uri',
      uri,
      '--json',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    const why = unexpected(out, { '#10': 'invalid-question', '#11': 'invalid-question', '#12': 'invalid-question' });
    expect(out.total, why).toBe(51);
    expect(out.correct, why).toBe(48);
    expect(out.accuracy).toBeCloseTo(48 / 51, 10);
    expect(out.byStatus, why).toMatchObject({ exact: 48, 'invalid-question': 3 });
    expect(out.items.map((i: OutItem) => i.index)).toEqual(broken.map((_, i) => i));
    expect(out.items.slice(10, 13)).toMatchObject([
      {
        index: 10,
        qid: 'broken-no-gold',
        graph: 'skyways',
        status: 'invalid-question',
        correct: false,
        executable: false,
        message: 'question broken-no-gold: gold_cypher is missing or not a string',
      },
      { index: 11, qid: null, graph: null, status: 'invalid-question', message: `${data} item 11: not an object` },
      {
        index: 12,
        qid: 'skyways-004',
        graph: 'skyways',
        status: 'invalid-question',
        message: expect.stringMatching(/^question skyways-004: qid appears more than once/),
      },
    ]);
    // The first skyways-004 is scored as usual.
    expect(out.items[3]).toMatchObject({ index: 3, qid: 'skyways-004', status: 'exact' });
    expect(out.byGraph.skyways).toEqual({ total: 50, correct: 48, accuracy: 48 / 50 });

    const text = witness([
      'eval',
      'cypherbench',
      '--data',
      data,
      '--graph',
      SKYWAYS_GRAPH_FILE,
      '--predictions',
      positional,
      '--uri',
      uri,
    ]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^execution accuracy 94\.12% \(48\/51\)/);
    expect(text.stdout).toMatch(/, invalid question 3\n/);
    expect(text.stdout).toMatch(
      /\n {2}warning: question broken-no-gold: gold_cypher is missing or not a string \(scored 0\)\n/,
    );
    expect(text.stdout).toMatch(/\n {2}warning: [^\n]*broken-questions\.json item 11: not an object \(scored 0\)\n/);
  }, 120_000);

  it('prints a text report for one query per line', () => {
    const file = join(dir, 'pred.txt');
    writeFileSync(
      file,
      `${items.map((item) => item.gold_cypher.replace(/\bRETURN\b/, 'RETURN DISTINCT')).join('\n')}\n`,
    );
    const run = witness(['eval', 'cypherbench', '--data', SKYWAYS_QUESTIONS_FILE, '--predictions', file, '--uri', uri]);
    expect(run.status, run.stderr).toBe(0);
    // RETURN DISTINCT breaks the ORDER BY questions that sort on an unreturned property (Neo4j reports a SyntaxError).
    expect(run.stdout).toMatch(/^execution accuracy \d+\.\d\d% \(\d+\/48\), executable \d+\.\d\d% \(4\d\/48\)\n/);
    expect(run.stdout).toMatch(
      /\n {2}exact string 0, correct \d+, wrong \d+, syntax error [1-9]\d*, runtime error 0, timeout 0, unsafe 0, too large 0, too complex 0, no prediction 0, invalid prediction 0, invalid gold 0\n/,
    );
    expect(run.stdout).toMatch(/by graph: skyways/);
    expect(run.stdout).toMatch(/by category: aggregation .*time-filter/);
  }, 120_000);

  it('fails clearly on a predictions file that does not fit, and when no Neo4j can be had', () => {
    const file = join(dir, 'short.txt');
    writeFileSync(file, 'MATCH (n) RETURN n\n');
    const short = witness([
      'eval',
      'cypherbench',
      '--data',
      SKYWAYS_QUESTIONS_FILE,
      '--predictions',
      file,
      '--uri',
      uri,
    ]);
    expect(short.status).toBe(1);
    expect(short.stderr).toMatch(/has 1 predictions but the question file has 48 questions/);
    const env = {
      ...process.env,
      NEO4J_URI: '',
      WITNESS_JAVA: '/nonexistent/java',
      DOCKER_HOST: 'unix:///nonexistent/docker.sock',
    };
    const full = join(dir, 'full.txt');
    writeFileSync(full, `${items.map((item) => item.gold_cypher).join('\n')}\n`);
    const none = witness(['eval', 'cypherbench', '--data', SKYWAYS_QUESTIONS_FILE, '--predictions', full], env);
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(
      /Neo4j 5\.20 is not available[\s\S]*1\. NEO4J_URI: not set[\s\S]*2\. Docker[^\n]*no Docker engine reachable[\s\S]*3\. Java launcher[^\n]*no Java found/,
    );
    expect(witness(['eval', 'cypherbench', '--data', SKYWAYS_QUESTIONS_FILE]).status).toBe(2);
  }, 120_000);
});
