import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SqlPool } from './pool.ts';
import { prestartedPids, prestartSqlChildren } from './prestart.ts';
import { stillRunning } from '../../testing/processes/running.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const retail = join(root, 'fixtures/bird/dev_databases/retail_shop/retail_shop.sqlite');
describe('SQLite processes started before the command loads', () => {
  it('are taken over by a pool that would start the same process, and answer its queries', async () => {
    prestartSqlChildren(1);
    const [pid] = prestartedPids();
    expect(pid).toBeGreaterThan(0);
    const pool = new SqlPool({ size: 2 });
    try {
      pool.warm();
      expect(pool.stats()).toMatchObject({ adopted: 1, spawned: 1 });
      expect(pool.pids()).toContain(pid);
      expect(prestartedPids()).toEqual([]);
      const results = await Promise.all([1, 2, 3, 4].map((n) => pool.run({ path: retail }, `SELECT ${n}`, 10_000)));
      expect(results.map((r) => (r.ok ? r.rows : r.message))).toEqual([[[1]], [[2]], [[3]], [[4]]]);
    } finally {
      await pool.dispose();
    }
    expect(await stillRunning([pid as number])).toEqual([]);
  });

  it('are killed, not taken, by a pool with other limits', async () => {
    prestartSqlChildren(1);
    const [pid] = prestartedPids();
    const pool = new SqlPool({ size: 1, memoryMb: 256 });
    try {
      pool.warm();
      expect(pool.stats()).toMatchObject({ adopted: 0, spawned: 1 });
      expect(pool.pids()).not.toContain(pid);
      expect(prestartedPids()).toEqual([]);
      expect(await stillRunning([pid as number])).toEqual([]);
      expect(await pool.run({ path: retail }, 'SELECT 5', 10_000)).toMatchObject({ ok: true, rows: [[5]] });
    } finally {
      await pool.dispose();
    }
  });

  it('never keep the process alive, and die with it when nobody took them', async () => {
    const script = `import { prestartSqlChildren, prestartedPids } from ${JSON.stringify(join(root, 'oracles/sql/prestart.ts'))};
prestartSqlChildren(2);
console.log(JSON.stringify(prestartedPids()));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(0); // it ended on its own, children or not
    const pids = JSON.parse(run.stdout) as number[];
    expect(pids).toHaveLength(2);
    expect(await stillRunning(pids)).toEqual([]);
  });
});
