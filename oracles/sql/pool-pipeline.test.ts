import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHEAP_REQUEST_MS, EXCLUSIVE_REQUEST_MS, KNOWN_AFTER, nextRecentMs, pipelineDepth } from './pipeline-depth.ts';
import { SqlPool, type SqlPoolOptions } from './pool.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const retail = join(root, 'fixtures/bird/dev_databases/retail_shop/retail_shop.sqlite');
const STUCK = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c';
const SLOW = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 300000) SELECT COUNT(*) FROM c';
/** About ten times SLOW: long enough for the pool to decide on another child while it runs. */
const SLOWER = SLOW.replace('300000', '3000000');

/** Runs `use` with a new pool, disposed afterwards whatever happens. */
async function withPool(options: SqlPoolOptions, use: (pool: SqlPool) => Promise<void>): Promise<void> {
  const pool = new SqlPool(options);
  try {
    await use(pool);
  } finally {
    await pool.dispose();
  }
}

/** True while a process with this id exists, zombies included (kill 0 succeeds on a zombie). */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('how many requests a SQLite child is fed', () => {
  it('queues deep only while the recent requests were cheap and the backlog is long, and shallow again at once after a slow one', () => {
    const long = { base: 2, cheap: 32, waiting: 100, children: 2 };
    expect(pipelineDepth(null, long)).toBe(2);
    expect(pipelineDepth(0.2, long)).toBe(32);
    expect(pipelineDepth(CHEAP_REQUEST_MS, long)).toBe(2);
    expect(pipelineDepth(0.2, { ...long, base: 4, cheap: 3 })).toBe(4); // never below the base
    // A short burst (fewer than `base` waiting per child) is spread over the children, cheap or not.
    expect(pipelineDepth(0.2, { ...long, waiting: 3 })).toBe(2);
    expect(pipelineDepth(0.2, { ...long, waiting: 4 })).toBe(32);
    let recent = nextRecentMs(null, 0.1);
    expect(recent).toBe(0.1);
    recent = nextRecentMs(recent, 250);
    expect(recent).toBe(250);
    expect(pipelineDepth(recent, long)).toBe(2);
    // Cheap requests bring it down gradually: a quarter of the gap each.
    recent = nextRecentMs(recent, 0.1);
    expect(recent).toBeCloseTo(187.525, 3);
    let steps = 1;
    while (pipelineDepth(recent, long) === 2) {
      recent = nextRecentMs(recent, 0.1);
      steps++;
    }
    expect(steps).toBeGreaterThan(10);
    expect(steps).toBeLessThan(40);
  });

  it('hands a request expected to be slow only to a child with nothing in flight, however cheap its recent requests', () => {
    const long = { base: 2, cheap: 32, waiting: 100, children: 2 };
    expect(pipelineDepth(0.2, long, EXCLUSIVE_REQUEST_MS)).toBe(1);
    expect(pipelineDepth(null, long, 1500)).toBe(1);
    expect(pipelineDepth(0.2, long, EXCLUSIVE_REQUEST_MS - 1)).toBe(32);
    expect(pipelineDepth(300, long, 5)).toBe(2);
  });

  it('takes one request at a time, unless fed deep, while another child could start', () => {
    const held = { base: 2, cheap: 32, waiting: 100, children: 2, spare: true };
    expect(pipelineDepth(null, held)).toBe(1);
    expect(pipelineDepth(CHEAP_REQUEST_MS, held)).toBe(1);
    expect(pipelineDepth(0.2, held)).toBe(32);
    expect(pipelineDepth(0.2, { ...held, waiting: 3 })).toBe(1);
    expect(pipelineDepth(null, { ...held, spare: false })).toBe(2);
  });
});

describe('the pool feeding its children', () => {
  it('starts every child on warm(), before any request', async () => {
    await withPool({ size: 2 }, async (pool) => {
      expect(pool.pids()).toEqual([]);
      pool.warm();
      expect(pool.pids()).toHaveLength(2);
      expect(pool.stats().spawned).toBe(2);
      const results = await Promise.all([1, 2, 3, 4].map((n) => pool.run({ path: retail }, `SELECT ${n}`, 5000)));
      expect(results.map((r) => r.ok && r.rows)).toEqual([[[1]], [[2]], [[3]], [[4]]]);
      expect(pool.stats().spawned).toBe(2);
    });
  });

  it('starts only as many children as warm() is asked for, and the others once requests wait for room', async () => {
    await withPool({ size: 2 }, async (pool) => {
      pool.warm(1);
      expect(pool.pids()).toHaveLength(1);
      // One request at a time never needs a second child, nor does a burst of cheap ones.
      for (const n of [1, 2, 3])
        expect(await pool.run({ path: retail }, `SELECT ${n}`, 5000)).toMatchObject({ ok: true });
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, n) => pool.run({ path: retail }, `SELECT ${n}`, 5000)),
      );
      expect(burst.map((r) => r.ok && r.rows[0]?.[0])).toEqual(Array.from({ length: 20 }, (_, n) => n));
      expect(pool.stats().spawned).toBe(1);
      // Two slow ones: the second waits for room, not behind the first, and gets a child of its own
      // (the parent is idle meanwhile, and this machine has a core for it).
      const slow = await Promise.all([SLOWER, SLOWER].map((sql) => pool.run({ path: retail }, sql, 60_000)));
      expect(slow).toMatchObject([
        { ok: true, rows: [[3000000]] },
        { ok: true, rows: [[3000000]] },
      ]);
      expect(pool.stats().spawned).toBe(2);
    });
  });

  it('starts no other child where no core is left for it, however long requests wait', async () => {
    await withPool({ size: 2, cores: 1 }, async (pool) => {
      pool.warm(1);
      const slow = await Promise.all([SLOWER, SLOWER].map((sql) => pool.run({ path: retail }, sql, 60_000)));
      expect(slow).toMatchObject([{ ok: true }, { ok: true }]);
      expect(pool.stats().spawned).toBe(1);
    });
  });

  it('starts the other children at once for a request expected to take longer than a start-up', async () => {
    await withPool({ size: 2 }, async (pool) => {
      pool.warm(1);
      const hinted = [1, 2].map((n) =>
        pool.run({ path: retail }, `SELECT ${n}`, 5000, undefined, { expectedMs: 10_000 }),
      );
      expect(pool.stats().spawned).toBe(1); // requests are handed out once the current job is done
      await Promise.resolve();
      expect(pool.stats().spawned).toBe(2);
      expect(await Promise.all(hinted)).toMatchObject([{ rows: [[1]] }, { rows: [[2]] }]);
    });
  });

  it('feeds a child deeper once its requests prove cheap, and every request keeps its own result and deadline', async () => {
    await withPool({ size: 1, pipeline: 1, cheapPipeline: 16 }, async (pool) => {
      // Nothing measured yet: one request at a time.
      const first = await Promise.all([1, 2, 3].map((n) => pool.run({ path: retail }, `SELECT ${n}`, 5000)));
      expect(first.map((r) => r.ok && r.rows)).toEqual([[[1]], [[2]], [[3]]]);
      expect(pool.peakInflight()).toBe(1);
      const many = await Promise.all(
        Array.from({ length: 40 }, (_, n) => pool.run({ path: retail }, `SELECT ${n} * 2`, 5000)),
      );
      expect(many.map((r) => r.ok && r.rows[0]?.[0])).toEqual(Array.from({ length: 40 }, (_, n) => n * 2));
      expect(pool.peakInflight()).toBeGreaterThan(1);
      expect(pool.peakInflight()).toBeLessThanOrEqual(16);
      // A stuck query queued deep behind cheap ones still gets its own deadline, and those after it their results.
      const [cheap, stuck, after] = await Promise.all([
        pool.run({ path: retail }, 'SELECT 7', 5000),
        pool.run({ path: retail }, STUCK, 300),
        pool.sequence({ path: retail }, ['SELECT COUNT(*) FROM orders', SLOW], 10_000),
      ]);
      expect(cheap).toMatchObject({ ok: true, rows: [[7]] });
      expect(stuck).toMatchObject({ ok: false, kind: 'timeout', message: 'the query did not finish within 300 ms' });
      expect(after).toMatchObject([
        { ok: true, rows: [[2500]] },
        { ok: true, rows: [[300000]] },
      ]);
      expect(pool.stats()).toMatchObject({ killed: 1, spawned: 2 });
    });
  });

  it('does not feed a child deep on the word of its first few answers, cheap failures before slow queries', async () => {
    await withPool({ size: 2 }, async (pool) => {
      pool.warm();
      // Both children up and their native addon loaded, so that their first answers are cheap.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const broken = Array.from({ length: KNOWN_AFTER - 1 }, () => pool.run({ path: retail }, 'SELEC 1', 5000));
      const slow = Array.from({ length: 10 }, () => pool.run({ path: retail }, SLOW, 30_000));
      expect(await Promise.all(broken)).toMatchObject(broken.map(() => ({ ok: false, kind: 'syntax' })));
      expect(await Promise.all(slow)).toMatchObject(slow.map(() => ({ ok: true, rows: [[300000]] })));
      // Each child holds at most `pipeline` (2) requests: the slow queries are spread as they come.
      expect(pool.peakInflight()).toBe(2);
    });
  });

  it('never queues a request expected to be slow behind another one while a child is about to be free', async () => {
    const counter = (n: number) =>
      `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT ${n}) SELECT COUNT(*) FROM c`;
    await withPool({ size: 2 }, async (pool) => {
      pool.warm();
      await Promise.all([pool.run({ path: retail }, 'SELECT 1', 5000), pool.run({ path: retail }, 'SELECT 2', 5000)]);
      const order: string[] = [];
      const track = (name: string, result: Promise<unknown>) => result.then(() => order.push(name));
      // The first child gets the long query, the second the short one; the third request, unhinted,
      // goes behind the long one (both children have one in flight), hinted it waits for a free child.
      for (const hint of [undefined, 5_000]) {
        order.length = 0;
        await Promise.all([
          track('long', pool.run({ path: retail }, counter(4_000_000), 30_000)),
          track('short', pool.run({ path: retail }, counter(100_000), 30_000)),
          track('third', pool.run({ path: retail }, 'SELECT 3', 30_000, undefined, { expectedMs: hint })),
        ]);
        expect(order).toEqual(hint === undefined ? ['short', 'long', 'third'] : ['short', 'third', 'long']);
      }
    });
  }, 60_000);

  it('reaps its children on dispose: no process, not even a zombie, is left when it resolves', async () => {
    const pool = new SqlPool({ size: 2 });
    pool.warm();
    await Promise.all([pool.run({ path: retail }, 'SELECT 1', 5000), pool.run({ path: retail }, 'SELECT 2', 5000)]);
    const pids = pool.pids();
    expect(pids).toHaveLength(2);
    expect(pids.every(exists)).toBe(true);
    await pool.dispose();
    expect(pids.filter(exists)).toEqual([]);
  });
});
