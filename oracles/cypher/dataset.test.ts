/** A CypherBench folder in the official layout read for a run: splits, graph files, broken inputs. */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.ts';
import { cypherBenchData } from './spec.ts';
import { loadCypherBenchData } from './dataset.ts';
import { OUTSIDE_LABEL, writeHostileCypherBenchFolder } from './hostile/datasets.ts';
import { GRAPH_FILE_PATTERNS } from './layout.ts';
import { breakGraphFile, harborGraph, orchardGraph, writeCypherBenchFolder } from '../../testing/layouts/cypher.ts';

const folder = (options: Parameters<typeof writeCypherBenchFolder>[1] = {}) =>
  writeCypherBenchFolder(mkdtempSync(join(tmpdir(), 'witness-cb-layout-')), options);

describe('a CypherBench folder in the official layout', () => {
  it('test split: the questions of test.json on the graphs they use; a graph without a file and a bad item are issues naming them', () => {
    const { dir } = folder();
    const data = loadCypherBenchData(dir);
    expect(data.split).toBe('test');
    expect(data.tasks.map((t) => t.id)).toEqual(['orchard-1', 'orchard-2', 'orchard-3', 'harbor-1', 'harbor-2']);
    expect(data.graphs.map((g) => [g.name, g.file])).toEqual([
      ['orchard', join(dir, 'graphs/simplekg/orchard_simplekg.json')],
      ['harbor', join(dir, 'graphs/simplekg/harbor_simplekg.json')],
    ]);
    expect(data.issues).toHaveLength(2);
    expect(data.issues).toContainEqual({ item: 'question bad-1', message: 'gold_cypher is missing or not a string' });
    const ghost = data.issues.find((i) => i.item === 'question ghost-1');
    expect(ghost?.message).toBe(
      `graph ghost has no SimpleKG file in ${dir} (looked for graphs/simplekg/ghost_simplekg.json, graphs/ghost_simplekg.json, graphs/simplekg/ghost.json, graphs/ghost.json)`,
    );
  });

  it('train split: train.json, and only the graphs its questions use are read', () => {
    const { dir, graphFiles } = folder();
    // A broken orchard graph does not matter to the train split: it is never read.
    breakGraphFile(graphFiles.orchard, orchardGraph(), 'bad-json');
    const data = loadCypherBenchData(dir, 'train');
    expect(data.questionsFile).toBe(join(dir, 'train.json'));
    expect(data.tasks.map((t) => t.id)).toEqual(['harbor-t1', 'harbor-t2']);
    expect(data.graphs.map((g) => g.name)).toEqual(['harbor']);
    expect(data.issues).toEqual([]);
  });

  it('accepts every documented graph file name', () => {
    for (const pattern of GRAPH_FILE_PATTERNS) {
      const { dir } = folder({ graphPattern: pattern, broken: false });
      const data = loadCypherBenchData(dir);
      expect(
        data.graphs.map((g) => g.file.slice(dir.length + 1)),
        pattern,
      ).toEqual([pattern.replace('<graph>', 'orchard'), pattern.replace('<graph>', 'harbor')]);
      expect(data.issues).toEqual([]);
    }
  });

  it.each([
    ['bad-json', /is not JSON/],
    ['wrong-shape', /the top level must be an object with schema, entities and relations/],
    ['unknown-entity', /relations\[3\] \(S1 -\[docksAt\]-> NOBODY\): obj_id NOBODY names no entity/],
    // Valid SimpleKG, but no Neo4j can index the value: refused here, before any server starts.
    [
      'oversized-value',
      /cannot be loaded into Neo4j: a value is too large \(1 problem\):\n {2}entities\[0\] \(eid S1\): description is 8,165 bytes as an index key; Neo4j's indexes take at most 8,164 bytes/,
    ],
  ] as const)(
    'a %s graph file makes its questions issues naming the file; the other graph’s questions still load',
    (damage, problem) => {
      const { dir, graphFiles } = folder({ broken: false });
      breakGraphFile(graphFiles.harbor, harborGraph(), damage);
      const data = loadCypherBenchData(dir);
      expect(data.tasks.map((t) => t.id)).toEqual(['orchard-1', 'orchard-2', 'orchard-3']);
      expect(data.graphs.map((g) => g.name)).toEqual(['orchard']);
      expect(data.issues.map((i) => i.item)).toEqual(['question harbor-1', 'question harbor-2']);
      for (const issue of data.issues) {
        expect(issue.message).toContain(`graph harbor: ${graphFiles.harbor}`);
        expect(issue.message).toMatch(problem);
      }
    },
  );

  it('an unknown split, a folder without the split’s file and a broken question file are clear errors', () => {
    const { dir } = folder();
    expect(() => loadCypherBenchData(dir, 'dev')).toThrow('cypherbench: unknown split "dev" (known: test, train)');
    renameSync(join(dir, 'train.json'), join(dir, 'train.json.bak'));
    expect(() => loadCypherBenchData(dir, 'train')).toThrow(
      `cypherbench data ${dir} has no train.json (the train split's questions; the release has test.json and train.json)`,
    );
    expect(() => loadCypherBenchData(join(dir, 'nowhere'))).toThrow(/cypherbench data .*nowhere does not exist/);
    writeFileSync(join(dir, 'test.json'), '[{"qid": ');
    const broken = loadCypherBenchData(dir);
    expect(broken.tasks).toEqual([]);
    expect(broken.issues[0]?.message).toMatch(/test\.json: cannot read a CypherBench question list/);
  });

  it('a question file given directly is used with the graphs of its folder', () => {
    const { dir } = folder({ broken: false });
    rmSync(join(dir, 'test.json'));
    const data = loadCypherBenchData(join(dir, 'train.json'));
    expect(data.split).toBe('train');
    expect(data.tasks).toHaveLength(2);
  });

  it('the suite reads suites.cypherbench.data from witness.config.json (relative to the file) and the split from WITNESS_SPLIT', () => {
    const project = mkdtempSync(join(tmpdir(), 'witness-cb-project-'));
    writeCypherBenchFolder(join(project, 'cypherbench'));
    writeFileSync(
      join(project, 'witness.config.json'),
      JSON.stringify({ suites: { cypherbench: { data: 'cypherbench' } } }),
    );
    const test = cypherBenchData(loadConfig(project, {}).config);
    expect(test.questionsFile).toBe(join(project, 'cypherbench', 'test.json'));
    expect(test.tasks).toHaveLength(5);
    const train = cypherBenchData(loadConfig(project, { WITNESS_SPLIT: 'train' }).config);
    expect(train.tasks.map((t) => t.id)).toEqual(['harbor-t1', 'harbor-t2']);
    expect(cypherBenchData(loadConfig(project, { WITNESS_SPLIT: 'train' }).config, { split: 'test' }).split).toBe(
      'test',
    );
    // Without data: the skyways fixture, in the same layout.
    const fixture = cypherBenchData(loadConfig(mkdtempSync(join(tmpdir(), 'witness-cb-none-')), {}).config);
    expect(fixture.graphs.map((g) => g.name)).toEqual(['skyways']);
    expect(fixture.tasks).toHaveLength(48);
    expect(fixture.issues).toEqual([]);
  });
});

describe('a hostile CypherBench folder', () => {
  it('names every question whose graph leads outside the folder (by name or through a link), reads nothing there, and loads the rest', () => {
    const hostile = writeHostileCypherBenchFolder(mkdtempSync(join(tmpdir(), 'witness-cb-hostile-')));
    try {
      const data = loadCypherBenchData(hostile.dir);
      expect(data.graphs.map((g) => g.name)).toEqual(['orchard', 'harbor']);
      expect(JSON.stringify(data.graphs.map((g) => g.kg.schema))).not.toContain(OUTSIDE_LABEL);
      for (const { qid, graph } of hostile.escapes)
        expect(data.issues.find((i) => i.item === `question ${qid}`)?.message, graph).toMatch(
          /cannot name a file|leads outside the folder "simplekg" through a symbolic link/,
        );
      expect(data.tasks.map((t) => t.id)).toEqual(expect.arrayContaining(['orchard-1', 'harbor-1']));
    } finally {
      rmSync(join(hostile.dir, '..'), { recursive: true, force: true });
    }
  });
});
