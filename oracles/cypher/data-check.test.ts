/** `witness data check` on CypherBench folders in the official layout: good, broken and big. */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCypherBenchData, GRAPH_PARSE_LIMIT, schemaFromHead } from './data-check.ts';
import { OUTSIDE_LABEL, writeHostileCypherBenchFolder } from './hostile/datasets.ts';
import { breakGraphFile, harborGraph, writeCypherBenchFolder } from '../../testing/layouts/cypher.ts';

const folder = (options: Parameters<typeof writeCypherBenchFolder>[1] = {}) =>
  writeCypherBenchFolder(mkdtempSync(join(tmpdir(), 'witness-cb-check-')), options);
const levels = (report: ReturnType<typeof checkCypherBenchData>, level: string) =>
  report.findings.filter((f) => f.level === level);

describe('checkCypherBenchData', () => {
  it('a good folder: counts per split, graphs referenced and present, each graph validated, no checksum known', () => {
    const { dir } = folder({ broken: false });
    const report = checkCypherBenchData(dir);
    expect(report.ok).toBe(true);
    expect(report.counts).toEqual({
      questions: 7,
      'questions.test': 5,
      'questions.train': 2,
      graphs: 2,
      'graphs.present': 2,
    });
    expect(levels(report, 'error')).toEqual([]);
    expect(report.findings).toContainEqual({
      level: 'info',
      path: 'graphs/simplekg/orchard_simplekg.json',
      message: 'graph orchard: 8 entities, 5 relations, valid SimpleKG',
    });
    expect(report.findings.at(-1)?.message).toMatch(/no checksums of the CypherBench release are known offline/);
    expect(report.source.url).toBe('https://huggingface.co/datasets/megagonlabs/cypherbench');
  });

  it('names the bad item, the graph without a file (with how many questions use it) and the broken graph file', () => {
    const { dir, graphFiles } = folder();
    breakGraphFile(graphFiles.harbor, harborGraph(), 'unknown-entity');
    const report = checkCypherBenchData(dir);
    expect(report.ok).toBe(false);
    const errors = levels(report, 'error');
    expect(errors).toContainEqual({
      level: 'error',
      path: 'test.json',
      item: 'question bad-1',
      message: 'gold_cypher is missing or not a string',
    });
    expect(errors).toContainEqual(
      expect.objectContaining({
        item: 'graph ghost',
        message: expect.stringMatching(/^graph ghost has no SimpleKG file.*; 1 questions use it$/),
      }),
    );
    expect(errors).toContainEqual({
      level: 'error',
      path: 'graphs/simplekg/harbor_simplekg.json',
      message: 'relations[3] (S1 -[docksAt]-> NOBODY): obj_id NOBODY names no entity',
    });
    expect(report.counts['graphs.present']).toBe(2);
  });

  it('a folder without test.json cannot run; without train.json it can', () => {
    const { dir } = folder({ broken: false });
    rmSync(join(dir, 'train.json'));
    expect(checkCypherBenchData(dir).ok).toBe(true);
    expect(levels(checkCypherBenchData(dir), 'warning')[0]?.message).toMatch(/has no train\.json/);
    rmSync(join(dir, 'test.json'));
    expect(checkCypherBenchData(dir).ok).toBe(false);
    expect(checkCypherBenchData(join(dir, 'none')).findings[0]?.message).toMatch(/is not a folder/);
  });

  it('a graph file over the parse limit is checked by its head only (its schema), without reading it whole', () => {
    const { dir, graphFiles } = folder({ broken: false });
    const { schema } = harborGraph();
    // A sparse file past the limit: the schema first, then padding the checker must never parse.
    const fd = openSync(graphFiles.harbor, 'w');
    writeSync(fd, `{"schema": ${JSON.stringify(schema)}, "entities": [`);
    writeSync(fd, ' ', GRAPH_PARSE_LIMIT + 1024);
    closeSync(fd);
    const report = checkCypherBenchData(dir);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        path: 'graphs/simplekg/harbor_simplekg.json',
        message: expect.stringMatching(
          /^graph harbor: 64 MB, schema valid \(2 labels, 1 relation types\); only the head was checked/,
        ),
      }),
    );
    writeFileSync(graphFiles.harbor, `[${' '.repeat(GRAPH_PARSE_LIMIT + 10)}]`);
    expect(levels(checkCypherBenchData(dir), 'error')[0]?.message).toMatch(
      /does not start with a SimpleKG object whose first key is "schema"/,
    );
  });

  it('schemaFromHead reads the schema object across strings with braces, and says null when it is cut off', () => {
    expect(schemaFromHead('{"schema": {"name": "a}{\\"", "entities": []}, "entities": [')).toEqual({
      name: 'a}{"',
      entities: [],
    });
    expect(schemaFromHead('{"schema": {"name": "a", "entities": [')).toBeNull();
    expect(schemaFromHead('{"entities": []}')).toBeNull();
  });
});

describe('checkCypherBenchData on a hostile folder', () => {
  it('names every graph whose name or file leads outside the folder (with how many questions use it) and a gold the guard refuses, reading nothing outside', () => {
    const hostile = writeHostileCypherBenchFolder(mkdtempSync(join(tmpdir(), 'witness-cb-check-hostile-')));
    try {
      const report = checkCypherBenchData(hostile.dir);
      expect(report.ok).toBe(false);
      for (const { graph } of hostile.escapes) {
        const finding = levels(report, 'error').find((f) => f.item === `graph ${graph}`);
        expect(finding?.message, graph).toMatch(
          /(cannot name a file \(.*\)|leads outside the folder "simplekg" through a symbolic link); 1 questions use it$/,
        );
      }
      expect(JSON.stringify(report)).not.toContain(OUTSIDE_LABEL);
      expect(report.counts['graphs.present']).toBe(2);
      // The gold the oracle's guard refuses before planning it, named through the guard's own check.
      const gold = levels(report, 'error').find((f) => f.item === `question ${hostile.refusedGold.qid}`);
      expect(gold?.message).toMatch(/^the run refuses the gold query \(syntax\): /);
      expect(gold?.message).toMatch(hostile.refusedGold.why);
    } finally {
      rmSync(join(hostile.dir, '..'), { recursive: true, force: true });
    }
  });
});
