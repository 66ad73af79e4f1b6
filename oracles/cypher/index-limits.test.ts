/**
 * The index key sizes the loader refuses graphs by, against the real Neo4j 5.20: a graph whose
 * values are each exactly at the limit loads and is indexed; one byte or element more is what
 * Neo4j refuses to index, and what reading the graph refuses before any server starts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDriver } from './driver.ts';
import { INDEX_KEY_LIMIT_BYTES, indexKeyBytes, indexKeyProblem } from './index-limits.ts';
import { neo4jUri } from './server/acquire.ts';
import { readSimpleKG, type SimpleDtype, type SimpleValue } from './simplekg.ts';

const LIMIT = INDEX_KEY_LIMIT_BYTES;
/** Elements of 8 bytes (integers, floats, dates) that fit: 1,020. */
const ELEMENTS_OF_8 = Math.floor(LIMIT / 8);
/** Per property: its type, a value exactly at the limit, and the same one byte or element over it. */
const PROBES: Record<string, { dtype: SimpleDtype; at: SimpleValue; over: SimpleValue }> = {
  ascii: { dtype: 'str', at: 'a'.repeat(LIMIT), over: 'a'.repeat(LIMIT + 1) },
  twoByte: { dtype: 'str', at: 'é'.repeat(LIMIT / 2), over: 'é'.repeat(LIMIT / 2) + 'a' },
  fourByte: { dtype: 'str', at: '😀'.repeat(LIMIT / 4), over: '😀'.repeat(LIMIT / 4) + 'a' },
  // 2,720 × (2 + 1) + (2 + 2) = 8,164 bytes; one more character is 8,165.
  strings: { dtype: 'list[str]', at: [...Array(2720).fill('a'), 'ab'], over: [...Array(2720).fill('a'), 'abc'] },
  ints: { dtype: 'list[int]', at: Array(ELEMENTS_OF_8).fill(7), over: Array(ELEMENTS_OF_8 + 1).fill(7) },
  floats: { dtype: 'list[float]', at: Array(ELEMENTS_OF_8).fill(0.5), over: Array(ELEMENTS_OF_8 + 1).fill(0.5) },
  dates: {
    dtype: 'list[date]',
    at: Array(ELEMENTS_OF_8).fill('2020-01-02'),
    over: Array(ELEMENTS_OF_8 + 1).fill('2020-01-02'),
  },
  bools: { dtype: 'list[bool]', at: Array(LIMIT).fill(true), over: Array(LIMIT + 1).fill(true) },
};

/** A one-entity graph file whose properties are the probes' `which` values. */
function probeGraph(which: 'at' | 'over'): string {
  const dir = mkdtempSync(join(tmpdir(), 'witness-index-limits-'));
  const file = join(dir, `probe-${which}.json`);
  const properties = Object.fromEntries(Object.entries(PROBES).map(([key, p]) => [key, p[which]]));
  const schema = Object.fromEntries(Object.entries(PROBES).map(([key, p]) => [key, p.dtype]));
  const entity = {
    eid: 'P1',
    label: 'Probe',
    name: 'probe',
    aliases: [],
    description: null,
    provenance: [],
    properties,
  };
  writeFileSync(
    file,
    JSON.stringify({
      schema: { name: 'probe', entities: [{ label: 'Probe', properties: schema }], relations: [] },
      entities: [entity],
      relations: [],
    }),
  );
  return file;
}

describe('index key sizes', () => {
  it('count UTF-8 bytes of a string, 2 + UTF-8 per string in a list, 8 per number or date, 1 per boolean', () => {
    for (const [key, p] of Object.entries(PROBES)) {
      expect(indexKeyBytes(p.dtype, p.at), key).toBeLessThanOrEqual(LIMIT);
      expect(indexKeyBytes(p.dtype, p.over), key).toBeGreaterThan(LIMIT);
    }
    expect(indexKeyProblem('str', 'x'.repeat(300_000))).toBe(
      "is 300,000 bytes as an index key; Neo4j's indexes take at most 8,164 bytes, and every stored property is indexed (as CypherBench's loader does)",
    );
  });

  it('reading a graph refuses every value over the limit, each named', () => {
    const file = probeGraph('over');
    expect(() => readSimpleKG(file)).toThrow(
      new RegExp(
        `${file} cannot be loaded into Neo4j: a value is too large \\(${Object.keys(PROBES).length} problems\\)`,
      ),
    );
    expect(() => readSimpleKG(file)).toThrow(/entities\[0\] \(eid P1\): bools is 8,165 bytes as an index key/);
  });
});

describe('index key sizes on Neo4j 5.20', () => {
  let driver: Driver;

  beforeAll(async () => {
    driver = createDriver(await neo4jUri(probeGraph('at')));
  }, 600_000);

  afterAll(async () => {
    await driver?.close();
  });

  it('a value at the limit loads and is indexed; one byte or element over it, Neo4j refuses to index', async () => {
    const { records } = await driver.executeQuery('MATCH (n:Probe) RETURN n', {}, { routing: 'READ' });
    expect(records).toHaveLength(1);
    const stored = records[0]!.get('n').properties as Record<string, unknown>;
    for (const [key, p] of Object.entries(PROBES))
      expect(Array.isArray(p.at) ? (stored[key] as unknown[]).length : stored[key], key).toEqual(
        Array.isArray(p.at) ? p.at.length : p.at,
      );
    const indexed = await driver.executeQuery(
      "SHOW INDEXES YIELD labelsOrTypes, properties WHERE 'Probe' IN labelsOrTypes RETURN properties",
    );
    expect(indexed.records.flatMap((r) => r.get('properties') as string[])).toEqual(
      expect.arrayContaining(Object.keys(PROBES)),
    );
    for (const [key, p] of Object.entries(PROBES)) {
      const value =
        p.dtype === 'list[int]'
          ? (p.over as number[]).map((n) => neo4j.int(n))
          : p.dtype === 'list[date]'
            ? (p.over as string[]).map(() => new neo4j.types.Date(2020, 1, 2))
            : p.over;
      // A refused write leaves the database as it was, so the kept graph stays reusable.
      await expect(
        driver.executeQuery(`CREATE (n:Probe {eid: 'over'}) SET n.\`${key}\` = $value`, { value }),
        key,
      ).rejects.toThrow(/too large to index/);
    }
  }, 120_000);
});
