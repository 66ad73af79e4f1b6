/**
 * The loaded graph and what works on it, on the real Neo4j 5.20: the loader's types and indexes,
 * refusing to overwrite other data, graph variants inside rolled-back transactions, hardening that
 * finds a boundary bug and turns it into a case, and the Observer.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedOracle } from '../../core/oracle.ts';
import { Rng } from '../../core/random.ts';
import type { Task } from '../../core/types.ts';
import { graphChecksum, type GraphChecksum } from '../../testing/cypher/checksum.ts';
import { createDriver } from './driver.ts';
import { SKYWAYS_GRAPH_FILE, SKYWAYS_QUESTIONS_FILE } from './fixture-paths.ts';
import { ensureGraph } from './load-graph.ts';
import { cypherOracle, type CypherPrepared } from './oracle.ts';
import { applyVariant, type GraphVariant } from './perturb.ts';
import { loadCypherBenchQuestions } from './loader.ts';
import { neo4jUri } from './server/acquire.ts';
import { parseSimpleKG, readSimpleKG } from './simplekg.ts';

const kg = readSimpleKG(SKYWAYS_GRAPH_FILE);
const questions = loadCypherBenchQuestions(SKYWAYS_QUESTIONS_FILE).tasks;
const byId = (id: string) => questions.find((q) => q.id === id) as Task;
let driver: Driver;
let oracle: SimulatedOracle<CypherPrepared>;
let before: GraphChecksum;

beforeAll(async () => {
  const uri = await neo4jUri(SKYWAYS_GRAPH_FILE);
  driver = createDriver(uri);
  oracle = cypherOracle({ uri, graphs: [kg] });
  before = await graphChecksum(driver);
}, 600_000);

afterAll(async () => {
  await oracle?.dispose?.();
  await driver?.close();
});

const read = async (query: string, params: Record<string, unknown> = {}) =>
  (await driver.executeQuery(query, params, { routing: 'READ' })).records;

describe('the SimpleKG loader', () => {
  it('loads every entity and relation with typed properties, like CypherBench’s loader', async () => {
    expect(before).toMatchObject({ nodes: kg.entities.length, relationships: kg.relations.length });
    const [airline] = await read(
      "MATCH (n:Airline {name: 'Pavotaes Airlines'}) RETURN n, valueType(n.founded) AS d, valueType(n.fleet_size) AS i",
    );
    const node = airline!.get('n');
    const source = kg.entities.find((e) => e.name === 'Pavotaes Airlines')!;
    expect(Object.keys(node.properties).sort()).toEqual(
      ['aliases', 'description', 'eid', 'name', 'provenance', ...Object.keys(source.properties)].sort(),
    );
    expect(node.properties.eid).toBe(source.eid);
    expect(airline!.get('d')).toBe('DATE NOT NULL');
    expect(airline!.get('i')).toBe('INTEGER NOT NULL');
    const [model] = await read(
      'MATCH (m:AircraftModel) WHERE size(m.variants) > 0 RETURN valueType(m.variants) AS v, valueType(m.wingspan_metre) AS f LIMIT 1',
    );
    expect(model!.get('v')).toBe('LIST<STRING NOT NULL> NOT NULL');
    expect(model!.get('f')).toBe('FLOAT NOT NULL');
    const [rel] = await read('MATCH ()-[r:serves]->() RETURN keys(r) AS keys, valueType(r.since) AS since LIMIT 1');
    expect([...(rel!.get('keys') as string[])].sort()).toEqual(['since', 'weekly_flights']);
    expect(rel!.get('since')).toBe('DATE NOT NULL');
  });

  it('indexes eid, name, description, aliases, provenance and every declared property', async () => {
    const records = await read(
      "SHOW INDEXES YIELD labelsOrTypes, properties, type WHERE type = 'RANGE' RETURN labelsOrTypes[0] AS on, properties[0] AS key",
    );
    const indexed = new Set(records.map((r) => `${r.get('on')}.${r.get('key')}`));
    for (const e of kg.schema.entities) {
      for (const key of ['eid', 'name', 'description', 'aliases', 'provenance', ...Object.keys(e.properties)])
        expect(indexed, `${e.label}.${key}`).toContain(`${e.label}.${key}`);
    }
    expect(indexed).toContain('memberOf.joined');
  });

  it('reuses a database holding the graph and refuses to overwrite one holding other data', async () => {
    expect(await ensureGraph(driver, kg)).toBe('reused');
    const other = parseSimpleKG(
      {
        schema: { name: 'other', entities: [{ label: 'X', properties: {} }], relations: [] },
        entities: [{ eid: 'X#1', label: 'X', name: 'x' }],
        relations: [],
      },
      'other',
    );
    await expect(ensureGraph(driver, other)).rejects.toThrow(
      /the database holds other data \(427 nodes, 1505 relationships\), not graph other; .*never overwrites a server it did not start/,
    );
  });
});

describe('values from the driver', () => {
  it('are integers as numbers where safe, exact bigints beyond, dates as ISO strings, nodes as property maps', async () => {
    const [r] = await read(
      "MATCH (c:Country) WITH c ORDER BY c.eid LIMIT 1 RETURN 42 AS small, 2^53 AS float, toInteger(2^53) + 1 AS big, date('2001-09-11') AS d, [date('1999-01-02')] AS ds, null AS nothing, {b: [2, 1], a: 'x'} AS m, c",
    );
    const { fromNeo4j, OpaqueValue } = await import('./values.ts');
    const cells = Object.fromEntries(r!.keys.map((k) => [k, fromNeo4j(r!.get(k))]));
    expect(cells).toMatchObject({
      small: 42,
      float: 2 ** 53,
      big: 2n ** 53n + 1n,
      d: '2001-09-11',
      ds: ['1999-01-02'],
      nothing: null,
      m: { b: [2, 1], a: 'x' },
    });
    expect(cells.c).toMatchObject({
      eid: expect.stringMatching(/^Country#W/),
      population: expect.any(Number),
      area_km2: expect.any(Number),
    });
    const [t] = await read("RETURN datetime('2020-01-01T10:00:00Z') AS dt, point({x: 1, y: 2}) AS p");
    expect(fromNeo4j(t!.get('dt'))).toBeInstanceOf(OpaqueValue);
    expect(fromNeo4j(t!.get('p'))).toBeInstanceOf(OpaqueValue);
  });
});

describe('graph variants', () => {
  it('apply inside a transaction and vanish when it rolls back', async () => {
    const [r] = await read(
      "MATCH (:Airline {name: 'Pavotaes Airlines'})-[r:serves]->(a:Airport) RETURN elementId(r) AS id, a.name AS airport ORDER BY airport LIMIT 1",
    );
    const [n] = await read("MATCH (n:Airline {name: 'Pavotaes Airlines'}) RETURN elementId(n) AS id");
    const variant: GraphVariant = {
      ops: [
        { op: 'duplicate-relationship', id: r!.get('id'), type: 'serves', text: 'dup' },
        {
          op: 'set-property',
          target: 'node',
          id: n!.get('id'),
          key: 'founded',
          value: { type: 'date', value: '2000-01-01' },
          text: 'set',
        },
        {
          op: 'set-property',
          target: 'node',
          id: n!.get('id'),
          key: 'fleet_size',
          value: { type: 'null', value: null },
          text: 'unset',
        },
      ],
    };
    const session = driver.session({ defaultAccessMode: neo4j.session.WRITE });
    const tx = session.beginTransaction();
    try {
      await applyVariant(tx, variant);
      const inside = await tx.run(
        "MATCH (n:Airline {name: 'Pavotaes Airlines'}) RETURN toString(n.founded) AS f, n.fleet_size AS s, COUNT { (n)-[:serves]->() } AS serves",
      );
      expect(inside.records[0]!.get('f')).toBe('2000-01-01');
      expect(inside.records[0]!.get('s')).toBeNull();
      const [outside] = await read(
        "MATCH (n:Airline {name: 'Pavotaes Airlines'}) RETURN COUNT { (n)-[:serves]->() } AS serves",
      );
      expect(Number(inside.records[0]!.get('serves'))).toBe(Number(outside!.get('serves')) + 1);
    } finally {
      await tx.rollback();
      await session.close();
    }
    expect(await graphChecksum(driver)).toEqual(before);
  });
});

describe('hardening', () => {
  it('finds a boundary bug the loaded graph hides, adds it as a case, and the sim can check it', async () => {
    const q = byId('skyways-035'); // flight numbers of an airline's accidents since 2000 (>= date('2000-01-01'))
    const prepared = await oracle.prepare(q);
    const boundary = { source: q.gold.replace('>=', '>'), extraction: 'code-block' as const };
    expect((await oracle.check(prepared, boundary)).pass).toBe(true); // no accident on exactly 2000-01-01
    const rng = new Rng(3);
    let report = await oracle.hardener!.probe(prepared, boundary, { rng, maxProbes: 320, round: 1 });
    for (let round = 2; report.disagreements.length === 0 && round < 8; round++)
      report = await oracle.hardener!.probe(prepared, boundary, { rng, maxProbes: 320, round });
    expect(report.probed).toBeGreaterThan(0);
    const witness = report.disagreements[0]!;
    expect(witness.kind).toBe('missing-row');
    expect(oracle.render.witness(witness)).toMatch(
      /^the row \{n\.flight_number: "PF\d+"\} is missing from your result \(on a variant of the graph where .*2000-01-01/,
    );

    const extended = oracle.hardener!.extend(prepared, [witness]);
    expect(extended.caseIds.at(-1)).toBe('variant-1');
    const verdict = await oracle.check(extended, boundary);
    expect(verdict.pass).toBe(false);
    expect(verdict.cases.filter((c) => !c.pass).map((c) => c.id)).toEqual(['variant-1']);
    expect(oracle.render.failureSummary(verdict)).toBe(
      "Your query's result is wrong: on 1 variant of the graph it differs from the expected result.",
    );
    expect((await oracle.check(extended, { source: `${q.gold} `, extraction: 'code-block' })).pass).toBe(true);
    expect(await oracle.simulator.agrees(extended, boundary, witness)).toBe(false);
    expect(await oracle.simulator.agrees(extended, { source: `${q.gold} `, extraction: 'code-block' }, witness)).toBe(
      true,
    );
    expect(await graphChecksum(driver)).toEqual(before);
  }, 120_000);
});

describe('the Observer', () => {
  it('runs a candidate and shows its first rows, or its error, without judging', async () => {
    const prepared = await oracle.prepare(byId('skyways-014'));
    const seen = await oracle.observer!.observe(prepared, {
      source: 'MATCH (n:FlightAccident) RETURN n.flight_number AS flight, n.date AS date ORDER BY flight',
      extraction: 'code-block',
    });
    expect(seen.ok).toBe(true);
    expect(seen.shape).toEqual({ rows: 140, columns: 2 });
    const lines = seen.output.split('\n');
    expect(lines[0]).toBe('flight | date');
    expect(lines[1]).toMatch(/^"[A-Z]{2}\d+" \| "\d{4}-\d{2}-\d{2}"$/);
    expect(lines).toHaveLength(22);
    expect(lines.at(-1)).toBe('… 120 more rows (140 in all)');
    const failed = await oracle.observer!.observe(prepared, { source: 'MATCH (n RETURN n', extraction: 'code-block' });
    expect(failed).toMatchObject({ ok: false, error: { kind: 'syntax' } });
    const unsafe = await oracle.observer!.observe(prepared, { source: 'CREATE (n:X)', extraction: 'code-block' });
    expect(unsafe).toMatchObject({ ok: false, error: { kind: 'unsafe' } });
  });

  it('describes labels, relationship types with their endpoints, property types and samples', async () => {
    const text = await oracle.observer!.describe(await oracle.prepare(byId('skyways-001')));
    expect(text).toMatch(/^Graph skyways \(Neo4j 5\.20\): 427 nodes, 1505 relationships\./);
    expect(text).toMatch(/\n- Airline \(36 nodes\)\n/);
    expect(text).toMatch(/\n {4}founded: DATE, e\.g\. "\d{4}-\d{2}-\d{2}"/);
    expect(text).toMatch(/\n {4}variants: LIST<STRING NOT NULL>/);
    expect(text).toMatch(/\n- \(:Airport\)-\[:locatedIn\]->\(:City\) \(64\)\n/);
    expect(text).toMatch(/\n- \(:City\)-\[:locatedIn\]->\(:Country\) \(48\)/);
    expect(text).toMatch(/\n {4}joined: DATE/);
    expect(text).not.toMatch(/\beid\b|provenance/);
  });
});
