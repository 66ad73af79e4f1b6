/**
 * The hostile corpus (corpus.ts) through every path a candidate reaches — check, the HERO-T
 * observer, the sim's agrees and (for answers that run) hardening probes — on the real pool, several at once: each answer
 * gets its named verdict in bounded time, the SQLite processes stay within bounded memory, the
 * database files are unchanged, nothing appears where answers name files, and no process remains.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../core/random.ts';
import type { Task } from '../../../core/types.ts';
import { BIRD_FIXTURES, loadBird } from '../loader.ts';
import { sqlOracle } from '../oracle.ts';
import { SqlPool } from '../pool.ts';
import { sampleMemory } from '../../../testing/processes/memory.ts';
import { stillRunning } from '../../../testing/processes/running.ts';
import { temporaryFolders } from '../../../testing/sql.ts';
import { HOSTILE_ANSWERS, HOSTILE_TASK_ID } from './corpus.ts';

const folders = temporaryFolders();
const scratch = folders.make('witness-sql-hostile-');
const databases = join(BIRD_FIXTURES, 'dev_databases');
const sums = () =>
  readFileSync(join(BIRD_FIXTURES, 'SHA256SUMS'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/))
    .map(([digest, file]) => ({
      file: file as string,
      digest,
      now: createHash('sha256')
        .update(readFileSync(join(databases, file as string)))
        .digest('hex'),
    }));

// Two oracles on one pool: slow answers meet a 1 s deadline, the rest 5 s, in which a row cap of
// 200,000 (the default is 1,000,000) is reached well before the deadline on a busy machine. The
// byte cap is the default.
const pool = new SqlPool({ size: 2 });
const settings = {
  pool,
  maxRows: 200_000,
  ves: false,
  perturbedCopies: 1,
  checkGoldMutants: false,
  probeDatabases: 2,
} as const;
const oracles = {
  main: sqlOracle({ ...settings, timeoutMs: 5000 }),
  quick: sqlOracle({ ...settings, timeoutMs: 1000 }),
};
const task = loadBird(BIRD_FIXTURES).tasks.find((t) => t.id === HOSTILE_TASK_ID) as Task;
const prepared = { main: oracles.main.prepare(task), quick: oracles.quick.prepare(task) };
const seen = new Set<number>();
const memory = sampleMemory(() => {
  const pids = pool.pids();
  for (const pid of pids) seen.add(pid);
  return pids;
});
afterAll(async () => {
  memory.stop();
  for (const oracle of Object.values(oracles)) await oracle.dispose?.();
  await pool.dispose();
  folders.removeAll();
});

describe.concurrent('hostile SQL answers get named verdicts', () => {
  for (const answer of HOSTILE_ANSWERS) {
    it(`${answer.kind}: ${answer.name}`, async () => {
      const which = answer.kind === 'slow' ? 'quick' : 'main';
      const oracle = oracles[which];
      const p = await prepared[which];
      const started = performance.now();
      const candidate = oracle.extract(typeof answer.reply === 'function' ? answer.reply(scratch) : answer.reply);
      if ('noArtifact' in answer.expect) {
        expect(candidate).toBeNull();
        return;
      }
      expect(candidate).not.toBeNull();
      const verdict = await oracle.check(p, candidate!);
      expect(performance.now() - started, 'the check (with up to four answers checked beside it)').toBeLessThan(10_000);
      if ('error' in answer.expect) {
        expect({ pass: verdict.pass, error: verdict.error?.kind }).toEqual({ pass: false, error: answer.expect.error });
        expect(verdict.cases.every((c) => !c.pass)).toBe(true);
        // Feedback quotes the engine's message: it stays short whatever the answer's size.
        expect(oracle.render.error(verdict.error!).length).toBeLessThan(1000);
      } else {
        expect(verdict.error).toBeUndefined();
        expect(verdict.pass).toBe(answer.expect.pass);
      }
      // Every other path returns a value instead of throwing.
      const observed = await oracle.observer!.observe(p, candidate!);
      if ('error' in answer.expect) expect(observed).toMatchObject({ ok: false, error: { kind: answer.expect.error } });
      else expect(observed.ok).toBe(true);
      const agrees = await oracle.simulator.agrees(p, candidate!, {
        kind: 'missing-row',
        label: 'missing',
        input: { row: [0] },
        expected: 1,
        actual: 0,
        size: 3,
        caseId: 'original',
      });
      expect(typeof agrees).toBe('boolean');
      // Hardening probes only ever see answers that ran (after a success); a failing answer would fail there too.
      if (!('error' in answer.expect)) {
        const probes = await oracle.hardener!.probe(p, candidate!, { rng: new Rng(1), maxProbes: 2, round: 0 });
        expect(probes.probed).toBeLessThanOrEqual(8);
      }
      expect(performance.now() - started).toBeLessThan(30_000);
    }, 60_000);
  }
});

describe('after the hostile answers', () => {
  it('the databases are unchanged, no file appeared where answers named one, and the SQLite processes stayed within 1 GB', () => {
    for (const { file, digest, now } of sums()) expect(now, file).toBe(digest);
    expect(readdirSync(scratch)).toEqual([]);
    expect(memory.stop()).toBeLessThan(1024 ** 3);
    expect(process.memoryUsage().rss).toBeLessThan(1024 ** 3);
  });

  it('no SQLite process remains once the pool is disposed', async () => {
    expect(seen.size).toBeGreaterThan(0);
    for (const oracle of Object.values(oracles)) await oracle.dispose?.();
    await pool.dispose();
    expect(await stillRunning([...seen])).toEqual([]);
  });

  it('covers every kind of hostile answer', () => {
    expect(new Set(HOSTILE_ANSWERS.map((a) => a.kind))).toEqual(
      new Set(['huge', 'slow', 'result bomb', 'malformed', 'write', 'escape', 'cheat']),
    );
  });
});
