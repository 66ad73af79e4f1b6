/**
 * Test support: a hostile CypherBench folder, generated in a temporary folder. Beside the sound
 * questions of testing/layouts/cypher.ts it holds questions whose graph name points outside the
 * folder (a relative path up and out, an absolute path) or whose graph file is a symbolic link to a file
 * outside (a valid SimpleKG graph there, and a dangling link), and a gold the oracle's gate refuses
 * before planning it. The graph outside has the label OUTSIDE_LABEL: it must never be read.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CypherBenchItem } from '../loader.ts';
import { writeCypherBenchFolder, type CypherBenchFolder } from '../../../testing/layouts/cypher.ts';

/** The one entity label of the graph outside the data folder. */
export const OUTSIDE_LABEL = 'OutsideSecret';

export interface HostileCypherBench extends CypherBenchFolder {
  outside: string;
  /** Questions whose graph leads outside, with the graph name. */
  escapes: { qid: string; graph: string }[];
  /** A question whose gold the gate refuses unplanned, with why. */
  refusedGold: { qid: string; why: RegExp };
}

const question = (qid: string, graph: string, gold: string): CypherBenchItem => ({
  qid,
  graph,
  gold_cypher: gold,
  nl_question: `What does ${qid} find?`,
});

/** Writes `<base>/data` (the CypherBench folder to point Witness at) and `<base>/outside`. */
export function writeHostileCypherBenchFolder(base: string): HostileCypherBench {
  const outside = join(base, 'outside');
  mkdirSync(outside, { recursive: true });
  const written = writeCypherBenchFolder(join(base, 'data'), { broken: false });
  const simplekg = join(written.dir, 'graphs', 'simplekg');
  for (const graph of ['linked', 'outside']) {
    const schema = {
      name: graph,
      entities: [{ label: OUTSIDE_LABEL, description: 'outside', properties: {} }],
      relations: [],
    };
    writeFileSync(join(outside, `${graph}_simplekg.json`), JSON.stringify({ schema, entities: [], relations: [] }));
  }
  symlinkSync(join(outside, 'linked_simplekg.json'), join(simplekg, 'linked_simplekg.json'));
  symlinkSync(join(outside, 'not-there.json'), join(simplekg, 'dangling_simplekg.json'));
  const escapes = [
    { qid: 'escape-up', graph: '../../outside/outside' },
    { qid: 'escape-absolute', graph: join(outside, 'outside') },
    { qid: 'escape-linked', graph: 'linked' },
    { qid: 'escape-dangling', graph: 'dangling' },
  ];
  const refusedGold = { qid: 'explain-gold', why: /without EXPLAIN or PROFILE/ };
  const test = [
    ...written.test,
    ...escapes.map((e) => question(e.qid, e.graph, `MATCH (n:${OUTSIDE_LABEL}) RETURN count(n)`)),
    question(refusedGold.qid, 'orchard', 'EXPLAIN MATCH (n:Farmer) RETURN count(n)'),
  ];
  writeFileSync(join(written.dir, 'test.json'), JSON.stringify(test, null, 1));
  return { ...written, test, outside, escapes, refusedGold };
}
