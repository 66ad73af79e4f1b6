/**
 * Small CypherBench folders in the official layout, generated for tests: `test.json` and
 * `train.json` in CypherBench's item format and two SimpleKG graphs under
 * `graphs/simplekg/<graph>_simplekg.json` — `orchard` (farmers, orchards, fruit) and `harbor`
 * (ships, ports). The test split also holds a question on a graph without a file (`ghost`) and an
 * item without `gold_cypher`; `breakGraphFile` spoils a graph the ways real files go wrong.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INDEX_KEY_LIMIT_BYTES } from '../../oracles/cypher/index-limits.ts';
import { GRAPH_FILE_PATTERNS } from '../../oracles/cypher/layout.ts';
import type { CypherBenchItem } from '../../oracles/cypher/loader.ts';

const entity = (eid: string, label: string, name: string, properties: Record<string, unknown> = {}) => ({
  eid,
  label,
  name,
  aliases: [],
  description: `${label} ${name}`,
  properties,
  provenance: ['generated'],
});
const relation = (rid: string, label: string, subj: string, obj: string, properties: Record<string, unknown> = {}) => ({
  rid,
  label,
  subj_id: subj,
  obj_id: obj,
  properties,
  provenance: ['generated'],
});

/** The orchard graph: 3 farmers, 2 orchards, 3 fruits; owns and grows (with a date). */
export function orchardGraph(): Record<string, unknown> {
  return {
    schema: {
      name: 'orchard',
      entities: [
        { label: 'Farmer', description: 'a farmer', properties: { born: 'int' } },
        { label: 'Orchard', description: 'an orchard', properties: { planted: 'date', hectares: 'float' } },
        { label: 'Fruit', description: 'a fruit', properties: { colours: 'list[str]' } },
      ],
      relations: [
        { label: 'owns', subj_label: 'Farmer', obj_label: 'Orchard', properties: {} },
        { label: 'grows', subj_label: 'Orchard', obj_label: 'Fruit', properties: { since: 'date' } },
      ],
    },
    entities: [
      entity('F1', 'Farmer', 'Ada Reyes', { born: 1961 }),
      entity('F2', 'Farmer', 'Bo Lind', { born: 1975 }),
      entity('F3', 'Farmer', 'Cy Okafor', { born: 1988 }),
      entity('O1', 'Orchard', 'North Orchard', { planted: '1990-04-01', hectares: 12.5 }),
      entity('O2', 'Orchard', 'River Orchard', { planted: '2004-09-15', hectares: 3.25 }),
      entity('X1', 'Fruit', 'Apple', { colours: ['red', 'green'] }),
      entity('X2', 'Fruit', 'Pear', { colours: ['green'] }),
      entity('X3', 'Fruit', 'Plum', { colours: ['purple'] }),
    ],
    relations: [
      relation('r1', 'owns', 'F1', 'O1'),
      relation('r2', 'owns', 'F2', 'O2'),
      relation('r3', 'grows', 'O1', 'X1', { since: '1991-05-01' }),
      relation('r4', 'grows', 'O1', 'X2', { since: '1995-05-01' }),
      relation('r5', 'grows', 'O2', 'X3', { since: '2005-06-01' }),
    ],
  };
}

/** The harbor graph: 3 ships, 2 ports; docksAt. */
export function harborGraph(): Record<string, unknown> {
  return {
    schema: {
      name: 'harbor',
      entities: [
        { label: 'Ship', description: 'a ship', properties: { tonnage: 'int' } },
        { label: 'Port', description: 'a port', properties: { country: 'str' } },
      ],
      relations: [{ label: 'docksAt', subj_label: 'Ship', obj_label: 'Port', properties: {} }],
    },
    entities: [
      entity('S1', 'Ship', 'Gull', { tonnage: 1200 }),
      entity('S2', 'Ship', 'Tern', { tonnage: 800 }),
      entity('S3', 'Ship', 'Skua', { tonnage: 2500 }),
      entity('P1', 'Port', 'Eastmouth', { country: 'Norland' }),
      entity('P2', 'Port', 'Westhaven', { country: 'Sudmark' }),
    ],
    relations: [
      relation('d1', 'docksAt', 'S1', 'P1'),
      relation('d2', 'docksAt', 'S2', 'P1'),
      relation('d3', 'docksAt', 'S3', 'P2'),
    ],
  };
}

type Item = CypherBenchItem | Record<string, unknown>;

const question = (qid: string, graph: string, nl: string, gold: string, answer: unknown[][]): CypherBenchItem => ({
  qid,
  graph,
  gold_cypher: gold,
  nl_question: nl,
  answer_json: JSON.stringify(answer),
  from_template: { match_category: 'basic', match_cypher: gold.split(' RETURN ')[0], return_pattern_id: 'n' },
});

export const ORCHARD_QUESTIONS: CypherBenchItem[] = [
  question('orchard-1', 'orchard', 'How many farmers are there?', 'MATCH (n:Farmer) RETURN count(n)', [[3]]),
  question(
    'orchard-2',
    'orchard',
    'Which fruits does North Orchard grow?',
    "MATCH (:Orchard {name: 'North Orchard'})-[:grows]->(f:Fruit) RETURN f.name ORDER BY f.name",
    [['Apple'], ['Pear']],
  ),
  question(
    'orchard-3',
    'orchard',
    'When was the orchard owned by Ada Reyes planted?',
    "MATCH (:Farmer {name: 'Ada Reyes'})-[:owns]->(o:Orchard) RETURN o.planted",
    [['1990-04-01']],
  ),
];

export const HARBOR_QUESTIONS: CypherBenchItem[] = [
  question(
    'harbor-1',
    'harbor',
    'Which ships dock at Eastmouth?',
    "MATCH (s:Ship)-[:docksAt]->(:Port {name: 'Eastmouth'}) RETURN s.name ORDER BY s.name",
    [['Gull'], ['Tern']],
  ),
  question('harbor-2', 'harbor', 'What is the tonnage of Skua?', "MATCH (s:Ship {name: 'Skua'}) RETURN s.tonnage", [
    [2500],
  ]),
];

export const TRAIN_QUESTIONS: CypherBenchItem[] = [
  question('harbor-t1', 'harbor', 'How many ports are there?', 'MATCH (p:Port) RETURN count(p)', [[2]]),
  question(
    'harbor-t2',
    'harbor',
    'In which country is Westhaven?',
    "MATCH (p:Port {name: 'Westhaven'}) RETURN p.country",
    [['Sudmark']],
  ),
];

/** A question on a graph the folder has no file for. */
export const GHOST_QUESTION = question('ghost-1', 'ghost', 'How many ghosts?', 'MATCH (g:Ghost) RETURN count(g)', [
  [0],
]);
/** An item that cannot be a task: no gold_cypher. */
export const BAD_ITEM = { qid: 'bad-1', graph: 'orchard', nl_question: 'What is missing?' };

export interface CypherBenchFolderOptions {
  /** Which graphs the test split has questions on (default both). */
  testGraphs?: readonly ('orchard' | 'harbor')[];
  /** Add the ghost question and the bad item to test.json (default true). */
  broken?: boolean;
  /** Where graph files go: one of GRAPH_FILE_PATTERNS (default the release's). */
  graphPattern?: (typeof GRAPH_FILE_PATTERNS)[number];
}

export interface CypherBenchFolder {
  dir: string;
  graphFiles: { orchard: string; harbor: string };
  test: Item[];
  train: Item[];
}

/** Writes a CypherBench folder in the official layout into `dir`. */
export function writeCypherBenchFolder(dir: string, options: CypherBenchFolderOptions = {}): CypherBenchFolder {
  const pattern = options.graphPattern ?? GRAPH_FILE_PATTERNS[0];
  const graphFile = (graph: string) => join(dir, pattern.replace('<graph>', graph));
  const testGraphs = options.testGraphs ?? ['orchard', 'harbor'];
  const test: Item[] = [
    ...(testGraphs.includes('orchard') ? ORCHARD_QUESTIONS : []),
    ...(testGraphs.includes('harbor') ? HARBOR_QUESTIONS : []),
    ...(options.broken === false ? [] : [GHOST_QUESTION, BAD_ITEM]),
  ];
  const graphFiles = { orchard: graphFile('orchard'), harbor: graphFile('harbor') };
  for (const [file, graph] of [
    [graphFiles.orchard, orchardGraph()],
    [graphFiles.harbor, harborGraph()],
  ] as const) {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify(graph));
  }
  writeFileSync(join(dir, 'test.json'), JSON.stringify(test, null, 1));
  writeFileSync(join(dir, 'train.json'), JSON.stringify(TRAIN_QUESTIONS, null, 1));
  return { dir, graphFiles, test, train: TRAIN_QUESTIONS };
}

export type GraphDamage = 'bad-json' | 'wrong-shape' | 'unknown-entity' | 'oversized-value';

/** Bytes of the description `oversized-value` gives the first entity: one more than a Neo4j index key holds. */
export const OVERSIZED_DESCRIPTION_BYTES = INDEX_KEY_LIMIT_BYTES + 1;

/**
 * Spoils a graph file: cut-off JSON, a list instead of the SimpleKG object, a relation to an eid
 * no entity has, or a first entity whose description Neo4j cannot index (CypherBench-valid, never servable).
 */
export function breakGraphFile(file: string, graph: Record<string, unknown>, damage: GraphDamage): void {
  if (damage === 'bad-json') writeFileSync(file, JSON.stringify(graph).slice(0, 200));
  else if (damage === 'wrong-shape') writeFileSync(file, JSON.stringify([graph]));
  else if (damage === 'oversized-value') {
    const [first, ...rest] = graph.entities as Record<string, unknown>[];
    const description = 'd'.repeat(OVERSIZED_DESCRIPTION_BYTES);
    writeFileSync(file, JSON.stringify({ ...graph, entities: [{ ...first, description }, ...rest] }));
  } else {
    const relations = [...(graph.relations as Record<string, unknown>[])];
    relations.push({ ...relations[0], rid: 'broken', obj_id: 'NOBODY' });
    writeFileSync(file, JSON.stringify({ ...graph, relations }));
  }
}
