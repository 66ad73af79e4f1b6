/**
 * Innocent queries beside bombs: while heap fillers, result bombs, memory hogs and runaway
 * computations run on the same Neo4j, and other clients hold big sorted results open, every fixture
 * question is prepared afresh (its gold is planned and run) and checked with a gold-equivalent
 * candidate (planned, run, compared), round after round. Every innocent verdict must be right: a
 * bomb never changes another query's verdict. The bombs get failed verdicts with a named kind.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Oracle } from '../../../core/oracle.ts';
import { createDriver } from '../driver.ts';
import { SKYWAYS_GRAPH_FILE, SKYWAYS_QUESTIONS_FILE } from '../fixture-paths.ts';
import { cypherOracle, type CypherPrepared } from '../oracle.ts';
import { loadCypherBenchQuestions } from '../loader.ts';
import { neo4jUri } from '../server/acquire.ts';
import { readSimpleKG } from '../simplekg.ts';

const kg = readSimpleKG(SKYWAYS_GRAPH_FILE);
const questions = loadCypherBenchQuestions(SKYWAYS_QUESTIONS_FILE).tasks;
const ROUNDS = 2;
const BOMB_LANES = 3;
/** Clients that each keep about 100 MB of a sorted result on the server (Neo4j counts it for their transactions). */
const HOLDERS = 2;
const HOLD_MS = 2_500;
/** Bombs filling the heap with values Neo4j does not count, holding counted memory, flooding results, or only burning CPU. */
const BOMBS = [
  'RETURN [x IN range(1, 10000000) | toString(x)] AS l',
  'UNWIND range(1, 3000000) AS x WITH x ORDER BY x DESC RETURN collect(x) AS l',
  "RETURN reduce(s = '', i IN range(1, 30) | s + s + 'x') AS s",
  'RETURN size([x IN range(1, 20000000) | [x, x]]) AS n',
  'UNWIND range(1, 100000) AS x UNWIND range(1, 100000) AS y RETURN count(*) AS n',
  'UNWIND range(1, 100000000) AS x RETURN x',
];

let uri = '';
let driver: Driver;
let bombOracle: Oracle<CypherPrepared>;
let bombTask: CypherPrepared;
/** How often a holder got its sorted result and held it. */
let held = 0;

beforeAll(async () => {
  uri = await neo4jUri(SKYWAYS_GRAPH_FILE);
  driver = createDriver(uri);
  bombOracle = cypherOracle({ uri, graphs: [kg], timeoutMs: 4_000 });
  bombTask = await bombOracle.prepare({
    id: 'bomb',
    benchmark: 'test',
    description: 'bomb',
    gold: 'RETURN 1 AS one',
    context: { graph: 'skyways' },
  });
}, 600_000);

afterAll(async () => {
  await bombOracle?.dispose?.();
  await driver?.close();
});

/** Runs `work` again and again until `stop` resolves. */
async function untilStopped(stop: Promise<void>, work: () => Promise<void>): Promise<void> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  while (!stopped) await work();
}

/** Fires bombs through the oracle (each text unique, so nothing is cached); returns their verdicts' kinds. */
async function bombard(stop: Promise<void>, kinds: string[]): Promise<void> {
  let n = 0;
  await Promise.all(
    Array.from({ length: BOMB_LANES }, (_, lane) =>
      untilStopped(stop, async () => {
        const bomb = BOMBS[(n++ + lane) % BOMBS.length] as string;
        const v = await bombOracle.check(bombTask, { source: `${bomb} // bomb ${n}`, extraction: 'whole-reply' });
        kinds.push(`${v.error?.kind ?? (v.pass ? 'pass' : 'wrong')}: ${bomb}`);
      }),
    ),
  );
}

/** A client that opens a transaction, reads the first row of a 1.2-million-row sort and holds it open for a while (the server may stop it). */
async function holdSortedResult(): Promise<void> {
  const session = driver.session({ defaultAccessMode: neo4j.session.READ, fetchSize: 1 });
  try {
    const tx = session.beginTransaction({ timeout: 30_000 });
    const rows = tx.run('UNWIND range(1, 1200000) AS x WITH x ORDER BY x DESC RETURN x')[Symbol.asyncIterator]();
    await rows.next();
    held++;
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    await tx.rollback();
  } catch {
    // Stopped by the server (its memory is what the reaper frees first) or failed: hold again.
  } finally {
    await session.close().catch(() => {});
  }
}

describe('innocent queries beside bombs', () => {
  it(`get right verdicts, gold and candidate, in ${ROUNDS} rounds of the 48 questions, with bombs and memory holders in parallel`, async () => {
    const wrong: string[] = [];
    const bombKinds: string[] = [];
    let finish = () => {};
    const innocentsDone = new Promise<void>((resolve) => (finish = resolve));
    const neighbours = Promise.all([
      bombard(innocentsDone, bombKinds),
      ...Array.from({ length: HOLDERS }, () => untilStopped(innocentsDone, holdSortedResult)),
    ]);
    try {
      for (let round = 0; round < ROUNDS; round++) {
        // The default timeouts (CypherBench's 120 s): bombs take CPU as well as memory, and a time limit is
        // about the query's own time; this test is about memory, so a busy machine must not decide verdicts.
        const oracle = cypherOracle({ uri, graphs: [kg] });
        try {
          await Promise.all(
            questions.map(async (q) => {
              let prepared: CypherPrepared;
              try {
                prepared = await oracle.prepare(q);
              } catch (error) {
                wrong.push(`round ${round} ${q.id}, gold: ${(error as Error).message.slice(0, 300)}`);
                return;
              }
              // A trailing comment: the candidate is not the gold's text, so it is planned, run and compared.
              const v = await oracle.check(prepared, {
                source: `${q.gold}\n// round ${round}`,
                extraction: 'whole-reply',
              });
              if (!v.pass)
                wrong.push(`round ${round} ${q.id}, candidate: ${JSON.stringify(v.error ?? v.detail).slice(0, 300)}`);
            }),
          );
        } finally {
          await oracle.dispose?.();
        }
      }
    } finally {
      finish();
      await neighbours;
    }
    expect(wrong, wrong.join('\n')).toEqual([]);
    // The bombs themselves: failed, each with a named kind.
    expect(bombKinds.length).toBeGreaterThanOrEqual(BOMB_LANES);
    expect(held).toBeGreaterThanOrEqual(HOLDERS);
    expect(bombKinds.filter((k) => !/^(too-large|timeout): /.test(k))).toEqual([]);
  }, 600_000);
});
