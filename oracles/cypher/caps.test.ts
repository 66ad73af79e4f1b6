/**
 * The result and query caps on the real Neo4j 5.20: result bombs are `too-large` (stopped on the
 * Bolt stream before the driver reads them, or by Neo4j's memory limits), huge or deeply nested
 * query texts are `too-complex`, a gold over the caps is a dataset error naming its question, and
 * queries running beside a bomb still get right verdicts from a server that still answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskInputError, type Oracle } from '../../core/oracle.ts';
import type { Task, Verdict } from '../../core/types.ts';
import { graphChecksum, type GraphChecksum } from '../../testing/cypher/checksum.ts';
import { createDriver } from './driver.ts';
import { SKYWAYS_GRAPH_FILE, SKYWAYS_QUESTIONS_FILE } from './fixture-paths.ts';
import { cypherOracle, type CypherPrepared } from './oracle.ts';
import { loadCypherBenchQuestions } from './loader.ts';
import { neo4jUri } from './server/acquire.ts';
import { readSimpleKG } from './simplekg.ts';

const kg = readSimpleKG(SKYWAYS_GRAPH_FILE);
const questions = loadCypherBenchQuestions(SKYWAYS_QUESTIONS_FILE).tasks;
let uri = '';
let oracle: Oracle<CypherPrepared>;
let before: GraphChecksum;
let prepared: CypherPrepared;

beforeAll(async () => {
  uri = await neo4jUri(SKYWAYS_GRAPH_FILE);
  oracle = cypherOracle({ uri, graphs: [kg], timeoutMs: 10_000 });
  prepared = await oracle.prepare(questions.find((q) => q.id === 'skyways-017') as Task);
  const driver = createDriver(uri);
  before = await graphChecksum(driver);
  await driver.close();
}, 600_000);

afterAll(async () => {
  await oracle?.dispose?.();
});

const check = (
  source: string,
  on: Oracle<CypherPrepared> = oracle,
  task: CypherPrepared = prepared,
): Promise<Verdict> => on.check(task, { source, extraction: 'code-block' });

/** Runs `work` and returns its result with the time it took and how much this process's RSS grew meanwhile (sampled). */
async function measured<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; rssGrowthMb: number }> {
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, ms: performance.now() - started, rssGrowthMb: (peak - rss0) / 2 ** 20 };
  } finally {
    clearInterval(sampler);
  }
}

describe('result caps', () => {
  // Each cap by its own mechanism; hostile/ has the whole corpus of bombs.
  const bombs: [string, string, RegExp][] = [
    [
      'ten million integers in one cell (stopped on the wire at the list header)',
      'RETURN range(1, 10000000) AS x',
      /larger than 16,777,216 bytes/,
    ],
    [
      'a 32 MB string (stopped on the wire at the string header)',
      "RETURN reduce(s = '', i IN range(1, 25) | s + s + 'x') AS s",
      /larger than 16,777,216 bytes/,
    ],
    [
      '2,500 rows of 8 KB (counted across batches of records)',
      "UNWIND range(1, 2500) AS i RETURN i, reduce(s = '', k IN range(1, 13) | s + s + 'y') AS s",
      /larger than 16,777,216 bytes/,
    ],
    [
      'a list nested 500 deep (the nesting cap)',
      'RETURN reduce(l = [], i IN range(1, 500) | [l]) AS x',
      /nests lists or maps more than 64 levels deep/,
    ],
    [
      'a list comprehension of ten million (Neo4j’s memory, or the cap)',
      'RETURN [x IN range(1, 10000000) | x] AS x',
      /larger than 16,777,216 bytes|ran out of memory|needs more memory|fill its memory/,
    ],
  ];
  for (const [name, source, message] of bombs) {
    it(`${name} is too-large, and this process never holds it`, async () => {
      const { value: v, ms, rssGrowthMb } = await measured(() => check(source));
      expect(v.error?.kind, JSON.stringify(v.error)).toBe('too-large');
      expect(v.error?.message).toMatch(message);
      expect(v.pass).toBe(false);
      expect(v.cases.every((c) => !c.pass)).toBe(true);
      expect(oracle.render.error(v.error!)).toMatch(
        /^Your query's result is too large: .+\. Return only what the question asks for\.$/,
      );
      expect(ms).toBeLessThan(60_000);
      expect(rssGrowthMb).toBeLessThan(400);
    }, 90_000);
  }

  it('leaves queries running beside a bomb with right verdicts, and the server answering', async () => {
    const normal = questions.slice(0, 12);
    const tasks = await Promise.all(normal.map((q) => oracle.prepare(q)));
    const [bombs, verdicts] = await Promise.all([
      Promise.all(
        ["RETURN reduce(s = '', i IN range(1, 30) | s + s + 'z') AS s", 'RETURN range(1, 12000000) AS x'].map((b) =>
          check(b),
        ),
      ),
      // Each candidate differs from its gold only by a trailing space: it runs, and is right.
      Promise.all(tasks.map((t) => check(`${t.task.gold} `, oracle, t))),
    ]);
    expect(bombs.map((b) => b.error?.kind)).toEqual(['too-large', 'too-large']);
    const wrong = verdicts.flatMap((v, i) =>
      v.pass ? [] : [`${tasks[i]?.task.id}: ${JSON.stringify(v.error ?? v.detail)}`],
    );
    expect(wrong, wrong.join('\n')).toEqual([]);
    expect((await check(`${prepared.task.gold} `)).pass).toBe(true);
  }, 180_000);

  it('makes a gold over a cap a harness error naming its question (a limit the user can raise), not invalid data or a candidate failure', async () => {
    const big: Task = {
      id: 'big-gold',
      benchmark: 'test',
      description: 'all numbers',
      gold: 'UNWIND range(1, 200000) AS x RETURN x',
      context: { graph: 'skyways' },
    };
    const error = await oracle.prepare(big).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(TaskInputError);
    expect((error as Error).message).toMatch(
      /^question big-gold: the gold query fails \(too-large\): the query returned more than 100,000 rows/,
    );
    const wide = cypherOracle({ uri, graphs: [kg], maxResultBytes: 1024 });
    try {
      const error2 = await wide
        .prepare({ ...big, id: 'five-hundred', gold: 'UNWIND range(1, 500) AS x RETURN x' })
        .catch((e: unknown) => e);
      expect((error2 as Error).message).toMatch(
        /^question five-hundred: the gold query fails \(too-large\): the result is larger than 1,024 bytes/,
      );
      expect(wide.settings()).toMatchObject({ maxRows: 100_000, maxResultBytes: 1024, maxQueryBytes: 16_384 });
    } finally {
      await wide.dispose?.();
    }
  });

  it('are configurable: a smaller byte cap stops a result a larger one lets through', async () => {
    const small = cypherOracle({ uri, graphs: [kg], maxResultBytes: 64 * 1024, maxRows: 50 });
    try {
      const task = await small.prepare({
        id: 't',
        benchmark: 'test',
        description: 't',
        gold: 'RETURN 1 AS one',
        context: { graph: 'skyways' },
      });
      expect(
        (await check("RETURN reduce(s = '', i IN range(1, 17) | s + s + 'x') AS s", small, task)).error?.message,
      ).toMatch(/larger than 65,536 bytes/);
      expect((await check('UNWIND range(1, 51) AS x RETURN x', small, task)).error?.message).toBe(
        'the query returned more than 50 rows',
      );
      expect((await check("RETURN reduce(s = '', i IN range(1, 17) | s + s + 'x') AS s")).error).toBeUndefined();
    } finally {
      await small.dispose?.();
    }
  });
});

describe('the runner’s caches', () => {
  it('keep small results, and no big candidate result (megabytes each would add up over a run)', async () => {
    const { CypherRunner } = await import('./runner.ts');
    const runner = new CypherRunner({ uri, timeoutMs: 10_000, goldTimeoutMs: 10_000 });
    try {
      const big = "RETURN reduce(s = '', i IN range(1, 21) | s + s + 'x') AS s";
      const first = runner.run(big, 'candidate');
      expect((await first).ok).toBe(true);
      expect(runner.run(big, 'candidate')).not.toBe(first);
      const small = 'RETURN 1 AS one';
      const once = runner.run(small, 'candidate');
      await once;
      expect(runner.run(small, 'candidate')).toBe(once);
      const gold = runner.run(big, 'gold');
      await gold;
      expect(runner.run(big, 'gold')).toBe(gold);
    } finally {
      await runner.close();
    }
  });
});

describe('query caps', () => {
  it('refuses a 5 MB query text unplanned, as too-complex', async () => {
    const { value: v, ms } = await measured(() => check(`RETURN '${'a'.repeat(5_000_000)}' AS s`));
    expect(v.error).toEqual({
      kind: 'too-complex',
      message: 'the query is 5,000,014 bytes long; queries longer than 16,384 bytes are not run',
    });
    expect(ms).toBeLessThan(5_000);
    expect(oracle.render.error(v.error!)).toMatch(
      /^Your query is too long or too deeply nested to run: the query is 5,000,014 bytes long/,
    );
  });

  it('refuses a 100,000-element list literal, and counts UTF-8 bytes', async () => {
    expect((await check(`RETURN [${Array.from({ length: 100_000 }, (_, i) => i).join(',')}] AS l`)).error?.kind).toBe(
      'too-complex',
    );
    expect((await check(`RETURN '${'é'.repeat(8_200)}' AS s`)).error?.message).toMatch(
      /^the query is 16,414 bytes long/,
    );
  });

  it('gives too-complex for nesting Neo4j cannot plan (its stack overflows)', async () => {
    const v = await check(`RETURN ${'('.repeat(3_000)}1${')'.repeat(3_000)} AS x`);
    expect(v.error?.kind).toBe('too-complex');
    expect(v.error?.message).toMatch(/nested too deeply for Neo4j/);
  }, 60_000);

  it('bounds the engine’s error message of a long wrong query', async () => {
    const v = await check(
      `MATCH (n:Airline) WHERE ${Array.from({ length: 600 }, (_, i) => `n.name = 'x${i}'`).join(' OR ')} RETURN n.name,,`,
    );
    expect(v.error?.kind).toBe('syntax');
    expect(v.error!.message.length).toBeLessThanOrEqual(1_201);
  }, 60_000);

  it('is configurable, and never applies to gold queries', async () => {
    const roomy = cypherOracle({ uri, graphs: [kg], maxQueryBytes: 10_000_000 });
    try {
      const longGold = `RETURN '${'g'.repeat(40_000)}' AS s`;
      const task = await roomy.prepare({
        id: 'long-gold',
        benchmark: 'test',
        description: 'a long gold',
        gold: longGold,
        context: { graph: 'skyways' },
      });
      expect(task.goldResult.rows).toHaveLength(1);
      const v = await check(`RETURN '${'a'.repeat(1_000_000)}' AS s`, roomy, task);
      expect(v.error).toBeUndefined();
      expect(v.pass).toBe(false);
      await expect(oracle.prepare({ ...task.task, id: 'long-gold-default' })).resolves.toMatchObject({
        goldResult: { rows: [[expect.any(String)]] },
      });
    } finally {
      await roomy.dispose?.();
    }
  }, 60_000);
});

describe('the graph', () => {
  it('is unchanged after the bombs', async () => {
    const driver = createDriver(uri);
    try {
      expect(await graphChecksum(driver)).toEqual(before);
    } finally {
      await driver.close();
    }
  });
});
