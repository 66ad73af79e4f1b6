/**
 * The Cypher oracle on the real Neo4j 5.20 with the skyways fixture: gold answers, the comparison on
 * hand-checked real queries, the read-only guard, the timeout, witnesses and feedback, the sim's
 * agreement check, and that nothing ever modifies the graph.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedOracle } from '../../core/oracle.ts';
import type { Task, Verdict } from '../../core/types.ts';
import { diagnostic } from '../../strategies/diagnostic.ts';
import { errorOnly } from '../../strategies/error-only.ts';
import { graphChecksum, type GraphChecksum } from '../../testing/cypher/checksum.ts';
import { createDriver } from './driver.ts';
import { SKYWAYS_GRAPH_FILE, SKYWAYS_QUESTIONS_FILE } from './fixture-paths.ts';
import { cypherOracle, type CypherPrepared } from './oracle.ts';
import { loadCypherBenchQuestions } from './loader.ts';
import { neo4jUri } from './server/acquire.ts';
import { readSimpleKG } from './simplekg.ts';

const kg = readSimpleKG(SKYWAYS_GRAPH_FILE);
const questions = loadCypherBenchQuestions(SKYWAYS_QUESTIONS_FILE).tasks;
const byId = (id: string) => questions.find((q) => q.id === id) as Task;

let uri = '';
let oracle: SimulatedOracle<CypherPrepared>;
let before: GraphChecksum;

beforeAll(async () => {
  uri = await neo4jUri(SKYWAYS_GRAPH_FILE);
  oracle = cypherOracle({ uri, graphs: [kg], timeoutMs: 2_000 });
  const driver = createDriver(uri);
  before = await graphChecksum(driver);
  await driver.close();
}, 600_000);

afterAll(async () => {
  await oracle?.dispose?.();
});

const task = (id: string, gold: string): Task => ({
  id,
  benchmark: 'test',
  description: id,
  gold,
  context: { graph: 'skyways' },
});
const check = async (gold: string, candidate: string): Promise<Verdict> =>
  oracle.check(await oracle.prepare(task('t', gold)), { source: candidate, extraction: 'code-block' });
const AIRLINE = "'Pavotaes Airlines'";

describe('gold results', () => {
  it('reproduce every fixture answer_json on the loaded graph (checkAnswers)', async () => {
    expect(questions).toHaveLength(48);
    const prepared = await Promise.all(questions.map((q) => oracle.prepare(q)));
    expect(prepared.every((p) => p.goldResult.rows.length > 0)).toBe(true);
    expect(prepared.filter((p) => p.orderMatters).map((p) => p.task.id)).toEqual([
      'skyways-030',
      'skyways-031',
      'skyways-032',
      'skyways-033',
      'skyways-034',
    ]);
  });

  it('reject a question whose answer_json does not match the graph, naming it', async () => {
    const q = { ...byId('skyways-017'), id: 'broken', meta: { answer_json: '[[30]]' } };
    await expect(oracle.prepare(q)).rejects.toThrow(
      /^question broken: the gold query returns 1 rows on the loaded graph that differ from answer_json/,
    );
  });

  it('reject a gold query that writes, or fails, or names an unknown graph', async () => {
    await expect(oracle.prepare(task('w', 'CREATE (n:X) RETURN n'))).rejects.toThrow(
      /^question w: the gold query cannot be used \(unsafe\)/,
    );
    await expect(oracle.prepare(task('f', 'MATCH (n RETURN n'))).rejects.toThrow(
      /^question f: the gold query cannot be used \(syntax\)/,
    );
    await expect(oracle.prepare({ ...task('g', 'RETURN 1'), context: { graph: 'nba' } })).rejects.toThrow(
      /graph "nba" is not one of the loaded graphs \(skyways\)/,
    );
  });
});

describe('comparison on real results (hand-checked)', () => {
  it('permuted columns and renamed columns pass', async () => {
    const v = await check(
      'MATCH (n:Airport)-[:locatedIn]->(c:City) RETURN n.name, n.iata_code, c.name',
      'MATCH (c:City)<-[:locatedIn]-(a:Airport) RETURN c.name AS city, a.iata_code AS code, a.name AS airport',
    );
    expect(v.pass).toBe(true);
  });

  it('duplicate rows count: DISTINCT where the gold keeps duplicates fails with the row counts', async () => {
    const gold = `MATCH (n:FlightAccident)-[:operatedBy]->(a:Airline {name: ${AIRLINE}}) RETURN a.name`;
    const v = await check(
      gold,
      `MATCH (n:FlightAccident)-[:operatedBy]->(a:Airline {name: ${AIRLINE}}) RETURN DISTINCT a.name`,
    );
    expect(v.pass).toBe(false);
    expect(v.detail).toMatchObject({ rows: { expected: 21, actual: 1 }, comparison: 'row-count' });
    expect(oracle.render.failureSummary(v)).toBe(
      "Your query's result is wrong: it has 1 row, the expected result has 21 rows.",
    );
  });

  it('ORDER BY in the gold makes row order count; without it order is free', async () => {
    const gold = 'MATCH (n:Airport) RETURN n.name ORDER BY n.annual_passengers DESC LIMIT 5';
    const reversed =
      'MATCH (n:Airport) WITH n ORDER BY n.annual_passengers DESC LIMIT 5 RETURN n.name ORDER BY n.annual_passengers ASC';
    const v = await check(gold, reversed);
    expect(v.pass).toBe(false);
    expect(v.witnesses.map((w) => w.kind)).toEqual(['misordered-row']);
    expect(oracle.render.failureSummary(v)).toBe(
      "Your query's result is wrong: it has the right rows in the wrong order.",
    );
    expect(v.cases.find((c) => c.id === 'row-order')?.pass).toBe(false);
    const busy =
      'MATCH (n:Airport) WITH max(n.annual_passengers) AS top MATCH (m:Airport) WHERE m.annual_passengers > top / 2 RETURN m.name';
    expect((await check(busy, `${busy} ORDER BY m.name DESC`)).pass).toBe(true);
  });

  it('lists inside cells are compared sorted, dates as ISO strings', async () => {
    const gold = 'MATCH (a:Airline)-[:operates]->(m:AircraftModel) RETURN a.name, collect(m.name)';
    expect(
      (
        await check(
          gold,
          'MATCH (a:Airline)-[:operates]->(m:AircraftModel) WITH a, m ORDER BY m.name DESC RETURN a.name, collect(m.name)',
        )
      ).pass,
    ).toBe(true);
    expect(
      (await check(byId('skyways-001').gold, `MATCH (n:Airline {name: ${AIRLINE}}) RETURN toString(n.founded)`)).pass,
    ).toBe(true);
    expect(
      (await check(byId('skyways-001').gold, `MATCH (n:Airline {name: ${AIRLINE}}) RETURN n.founded.year`)).pass,
    ).toBe(false);
  });

  it('a map key named __proto__ is a key like any other', async () => {
    expect((await check('RETURN {a: 2} AS m', 'RETURN {`__proto__`: 1, a: 2} AS m')).pass).toBe(false);
    expect((await check('RETURN {`__proto__`: 1, a: 2} AS m', 'RETURN {a: 2, `__proto__`: 1} AS m')).pass).toBe(true);
  });

  it('NULL is an ordinary value', async () => {
    const gold = byId('skyways-043').gold;
    const same = gold.replace(
      'OPTIONAL MATCH (n)-[r2:memberOf]->(m2:Alliance) RETURN n.name, m2.name',
      'RETURN n.name, [(n)-[:memberOf]->(x:Alliance) | x.name][0]',
    );
    expect(same).not.toBe(gold);
    expect((await check(gold, same)).pass).toBe(true);
    const v = await check(gold, gold.replace('RETURN n.name, m2.name', "RETURN n.name, coalesce(m2.name, 'none')"));
    expect(v.pass).toBe(false);
    expect(v.witnesses.some((w) => w.kind === 'missing-row' && JSON.stringify(w.input).includes('null'))).toBe(true);
  });

  it('an identical query passes without running, as in the original', async () => {
    const q = byId('skyways-010');
    const v = await oracle.check(await oracle.prepare(q), { source: q.gold, extraction: 'code-block' });
    expect(v).toMatchObject({ pass: true, detail: { exactMatch: true } });
  });
});

describe('execution safety', () => {
  it('refuses writes, admin commands, procedures and LOAD CSV with an unsafe verdict', async () => {
    const gold = byId('skyways-017').gold;
    const attempts = [
      'CREATE (n:Injected {x: 1}) RETURN n.x',
      'MATCH (n:Airline) DETACH DELETE n',
      'MATCH (n:Airline) SET n.name = "x" RETURN count(n)',
      "MERGE (n:Airline {name: 'New'}) RETURN n.name",
      'CREATE INDEX injected FOR (n:Airline) ON (n.fleet_size)',
      "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line",
      'CALL dbms.components()',
      'SHOW TRANSACTIONS',
      "TERMINATE TRANSACTION 'neo4j-transaction-1'",
      'MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS',
    ];
    for (const source of attempts) {
      const v = await check(gold, source);
      expect(v.error?.kind, source).toBe('unsafe');
      expect(v.cases.every((c) => !c.pass)).toBe(true);
    }
    expect((await check(gold, 'CALL db.labels() YIELD label RETURN count(label)')).error).toBeUndefined();
  });

  it('stops a runaway query at the server-side timeout', async () => {
    const started = Date.now();
    const v = await check(
      byId('skyways-017').gold,
      'MATCH (a:FlightAccident), (b:FlightAccident), (c:Airport), (d:Person) WHERE a.number_of_deaths + b.number_of_deaths + c.elevation_metre + d.birth_date.year = -1 RETURN count(*)',
    );
    expect(v.error?.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(oracle.render.error(v.error!)).toMatch(/^Your query did not finish within 2 s/);
  });

  it('reports syntax errors with Neo4j’s message, and values it cannot compare', async () => {
    const syntax = await check(byId('skyways-017').gold, 'MATCH (n:Airline RETURN n.name');
    expect(syntax.error?.kind).toBe('syntax');
    expect(syntax.error?.message).toMatch(/Invalid input/);
    const rel = await check(byId('skyways-017').gold, 'MATCH ()-[r:operatedBy]->() RETURN r LIMIT 1');
    expect(rel.error).toEqual({ kind: 'runtime', message: expect.stringMatching(/contains a relationship value/) });
  });
});

describe('witnesses, feedback and the sim’s agreement check', () => {
  it('shows up to 2 missing and 2 unexpected rows in the candidate’s column names', async () => {
    const q = byId('skyways-035');
    const prepared = await oracle.prepare(q);
    const wrong = q.gold
      .replace(">= date('2000-01-01')", ">= date('2005-01-01')")
      .replace('RETURN n.flight_number', 'RETURN n.flight_number AS flight');
    const v = await oracle.check(prepared, { source: wrong, extraction: 'code-block' });
    expect(v.pass).toBe(false);
    expect(v.witnesses.length).toBeGreaterThan(0);
    expect(v.witnesses.every((w) => w.kind === 'missing-row')).toBe(true);
    const feedback = diagnostic.feedback(v, { task: q, render: oracle.render, turn: 1, phase: 'solve' });
    expect(feedback?.text).toMatch(
      /^Your query's result is wrong: it has \d+ rows?, the expected result has 11 rows\.\nCounterexamples:\n- the row \{flight: "PF\d+"\} is missing from your result/,
    );
    expect(feedback?.disclosed.witnesses.length).toBeLessThanOrEqual(4);
    const errorFeedback = errorOnly.feedback(v, { task: q, render: oracle.render, turn: 1, phase: 'solve' });
    expect(errorFeedback?.text).not.toMatch(/PF\d+/);

    // The gold agrees with its own witnesses; the wrong candidate does not; a fix does.
    const w = v.witnesses[0]!;
    expect(await oracle.simulator.agrees(prepared, { source: wrong, extraction: 'code-block' }, w)).toBe(false);
    expect(
      await oracle.simulator.agrees(
        prepared,
        {
          source: q.gold.replace('RETURN n.flight_number', 'RETURN DISTINCT n.flight_number'),
          extraction: 'code-block',
        },
        w,
      ),
    ).toBe(true);
  });

  it('cuts long strings and lists in witnesses, so feedback and trajectories stay small', async () => {
    const gold = 'MATCH (n:Airline) RETURN n.name AS x';
    for (const candidate of [
      'MATCH (n:Airline) RETURN reduce(s = n.name, i IN range(1, 13) | s + s) AS x',
      'MATCH (n:Airline) RETURN [x IN range(1, 5000) | n.name] AS x',
    ]) {
      const v = await check(gold, candidate);
      const extra = v.witnesses.filter((w) => w.kind === 'extra-row');
      expect(extra.length).toBeGreaterThan(0);
      for (const w of extra) expect(JSON.stringify(w.input).length).toBeLessThan(2_000);
      expect(oracle.render.witness(extra[0]!)).toMatch(/…/);
      const feedback = diagnostic.feedback(v, {
        task: task('t', gold),
        render: oracle.render,
        turn: 1,
        phase: 'solve',
      });
      expect(feedback!.text.length).toBeLessThan(8_000);
    }
  });

  it('labels unexpected rows and uses positions for misordered rows', async () => {
    const q = byId('skyways-037');
    const prepared = await oracle.prepare(q);
    const broader = "MATCH (n:Airline) WHERE n.founded < date('1955-01-01') RETURN n.name";
    const v = await oracle.check(prepared, { source: broader, extraction: 'code-block' });
    expect(v.witnesses.every((w) => w.kind === 'extra-row')).toBe(true);
    expect(oracle.render.witness(v.witnesses[0]!)).toMatch(
      /^your result has the row \{n\.name: ".+"\}, which should not be there$/,
    );
    expect(v.cases.filter((c) => !c.pass).map((c) => c.id)).toEqual(['no-extra-rows']);
  });
});

describe('the graph', () => {
  it('is never modified by checks, unsafe candidates or hardening', async () => {
    const q = byId('skyways-035');
    const prepared = await oracle.prepare(q);
    const boundary = q.gold.replace('>=', '>');
    await oracle.hardener!.probe(
      prepared,
      { source: boundary, extraction: 'code-block' },
      { rng: new (await import('../../core/random.ts')).Rng(1), maxProbes: 8, round: 1 },
    );
    const driver = createDriver(uri);
    try {
      expect(await graphChecksum(driver)).toEqual(before);
    } finally {
      await driver.close();
    }
  });
});
