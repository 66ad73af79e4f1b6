/** Cypher tokenizer and the sim's mutation operators, on hand-written queries and the fixture golds. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/random.ts';
import { CYPHER_MUTATIONS, mutateCypher, type CypherMutation } from './mutate.ts';
import { loadCypherBenchQuestions } from './loader.ts';
import { mentions, tokenize, untokenize } from './tokens.ts';

const fixture = fileURLToPath(new URL('../../fixtures/cypherbench/test.json', import.meta.url));
const golds = loadCypherBenchQuestions(fixture).tasks.map((t) => t.gold);

function op(name: string): CypherMutation {
  return CYPHER_MUTATIONS.find((o) => o.name === name) as CypherMutation;
}

/** Every result of one operator on a query (one per site, several draws each). */
function results(name: string, query: string): string[] {
  const out = new Set<string>();
  for (let seed = 0; seed < 20; seed++) {
    const r = mutateCypher(query, new Rng(seed), [op(name)]);
    if (r) out.add(r.query);
  }
  return [...out].sort();
}

describe('tokenize', () => {
  it('gives the query back and keeps strings, quoted names and comments whole', () => {
    const query =
      "MATCH (n:`My Label` {name: 'it\\'s -> here'})<-[:r]-(m) // note -> here\nWHERE n.x <= -1 RETURN n.name AS `a b`";
    const tokens = tokenize(query);
    expect(untokenize(tokens)).toBe(query);
    expect(tokens.filter((t) => t.kind === 'string').map((t) => t.text)).toEqual(["'it\\'s -> here'"]);
    expect(tokens.filter((t) => t.text === '->' || t.text === '<-').map((t) => t.text)).toEqual(['<-']);
    expect(tokens.some((t) => t.kind === 'comment' && t.text === '// note -> here')).toBe(true);
    // `<-1` after a comparison is less-than and minus, not an arrow
    expect(tokenize('WHERE a<-1').map((t) => t.text)).toEqual(['WHERE', ' ', 'a', '<', '-', '1']);
  });

  it('finds the labels, types, properties and literals a query mentions', () => {
    const m = mentions(
      "MATCH (n:Airline {name: 'X'})-[r:serves|hubAt]->(a:Airport) WHERE n.founded < date('1990-01-01') AND a.runway_count > 2 RETURN a.name",
    );
    expect([...m.labels].sort()).toEqual(['Airline', 'Airport']);
    expect([...m.types].sort()).toEqual(['hubAt', 'serves']);
    expect([...m.properties].sort()).toEqual(['founded', 'name', 'runway_count']);
    expect([...m.strings]).toEqual(['X']);
    expect([...m.dates]).toEqual(['1990-01-01']);
    expect([...m.numbers]).toEqual([2]);
  });
});

describe('Cypher mutation operators', () => {
  it('flips a relationship’s direction, with or without brackets', () => {
    expect(results('relationship-direction', 'MATCH (a)-[r:x]->(b) RETURN a')).toEqual([
      'MATCH (a)<-[r:x]-(b) RETURN a',
    ]);
    expect(results('relationship-direction', 'MATCH (a)<-[:x]-(b) RETURN a')).toEqual(['MATCH (a)-[:x]->(b) RETURN a']);
    expect(results('relationship-direction', 'MATCH (a)-->(b) RETURN a')).toEqual(['MATCH (a)<--(b) RETURN a']);
    expect(results('relationship-direction', 'MATCH (a)-[:x]-(b) RETURN a')).toEqual([]);
  });

  it('drops one WHERE condition, or the whole WHERE', () => {
    expect(results('missing-filter', "MATCH (n) WHERE n.a > 1 AND n.b = 'AND x' RETURN n")).toEqual([
      'MATCH (n) WHERE n.a > 1 RETURN n',
      "MATCH (n) WHERE n.b = 'AND x' RETURN n",
    ]);
    expect(results('missing-filter', 'MATCH (n) WHERE n.a > 1 RETURN n.b')).toEqual(['MATCH (n) RETURN n.b']);
  });

  it('moves comparison boundaries and swaps aggregations', () => {
    expect(results('comparison-boundary', 'MATCH (n) WHERE n.d >= 3 RETURN n')).toEqual([
      'MATCH (n) WHERE n.d > 3 RETURN n',
    ]);
    expect(results('wrong-aggregation', 'MATCH (n) RETURN min(n.x), sum(n.y)')).toEqual([
      'MATCH (n) RETURN max(n.x), sum(n.y)',
      'MATCH (n) RETURN min(n.x), avg(n.y)',
    ]);
  });

  it('adds or removes DISTINCT in RETURN, WITH and count()', () => {
    expect(results('distinct', 'MATCH (n) RETURN DISTINCT count(DISTINCT n)')).toEqual([
      'MATCH (n) RETURN DISTINCT count(n)',
      'MATCH (n) RETURN count(DISTINCT n)',
    ]);
    expect(results('distinct', 'MATCH (n) RETURN count(n)')).toEqual([
      'MATCH (n) RETURN DISTINCT count(n)',
      'MATCH (n) RETURN count(DISTINCT n)',
    ]);
    expect(results('distinct', 'MATCH (n) RETURN count(*)')).toEqual(['MATCH (n) RETURN DISTINCT count(*)']);
  });

  it('flips the first ORDER BY direction and changes or drops LIMIT', () => {
    expect(results('order-direction', 'MATCH (n) RETURN n ORDER BY n.x DESC, n.y LIMIT 3')).toEqual([
      'MATCH (n) RETURN n ORDER BY n.x, n.y LIMIT 3',
    ]);
    expect(results('order-direction', 'MATCH (n) RETURN n ORDER BY n.x LIMIT 3')).toEqual([
      'MATCH (n) RETURN n ORDER BY n.x DESC LIMIT 3',
    ]);
    expect(results('order-direction', 'MATCH (n) RETURN n ORDER BY n.x ASC')).toEqual([
      'MATCH (n) RETURN n ORDER BY n.x DESC',
    ]);
    expect(results('limit', 'MATCH (n) RETURN n LIMIT 5')).toEqual([
      'MATCH (n) RETURN n',
      'MATCH (n) RETURN n LIMIT 4',
      'MATCH (n) RETURN n LIMIT 6',
    ]);
  });

  it('applies every operator somewhere in the fixture and never touches a string literal', () => {
    const used = new Set<string>();
    for (const gold of golds) {
      const strings = tokenize(gold)
        .filter((t) => t.kind === 'string')
        .map((t) => t.text);
      for (let seed = 0; seed < 30; seed++) {
        const m = mutateCypher(gold, new Rng(seed));
        if (!m) continue;
        used.add(m.operator);
        expect(m.query).not.toBe(gold);
        // A dropped filter may remove a literal; none is ever changed.
        for (const s of tokenize(m.query).filter((t) => t.kind === 'string')) expect(strings).toContain(s.text);
      }
    }
    expect([...used].sort()).toEqual(CYPHER_MUTATIONS.map((o) => o.name).sort());
  });

  it('is deterministic for a seed', () => {
    const gold = golds[30] as string;
    expect(mutateCypher(gold, new Rng(7))).toEqual(mutateCypher(gold, new Rng(7)));
  });
});
