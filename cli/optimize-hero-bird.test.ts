/**
 * HERO's split protocol on BIRD's real layout, end to end through the binary with the sim model:
 * a generated folder with TRAIN (train.json + train_databases/, three databases) and DEV (dev.json +
 * dev_databases/). The pools come from TRAIN, one database each; DEV is the evaluation split; the
 * split file repeats a run exactly and refuses data it was not written for.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { withoutSuiteData } from '../testing/child-env.ts';
import type { HeroResult } from '../optimizers/hero/optimize.ts';
import type { HeroSplitFile } from '../optimizers/hero/split-file.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/witness.js');
const dir = mkdtempSync(join(tmpdir(), 'witness-hero-bird-'));
const data = join(dir, 'bird');

/** A small database and questions about it, in BIRD's item format. */
function database(folder: string, dbId: string, firstId: number, count: number) {
  mkdirSync(join(folder, dbId), { recursive: true });
  const db = new Database(join(folder, dbId, `${dbId}.sqlite`));
  db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price INTEGER NOT NULL)');
  const insert = db.prepare('INSERT INTO items (id, name, price) VALUES (?, ?, ?)');
  for (let i = 1; i <= 12; i++) insert.run(i, `${dbId}-item-${i}`, i * 3);
  db.close();
  return Array.from({ length: count }, (_, k) => ({
    question_id: firstId + k,
    db_id: dbId,
    question: `In ${dbId}, how many items cost more than ${k * 4} (question ${k})?`,
    evidence: '',
    SQL: `SELECT COUNT(id) FROM items WHERE price > ${k * 4}`,
    difficulty: 'simple',
  }));
}

function env(): NodeJS.ProcessEnv {
  const e = withoutSuiteData(process.env, { WITNESS_CACHE: 'off', WITNESS_MODEL: 'sim' });
  for (const key of Object.keys(e)) if (key.startsWith('VITEST') || key === 'WITNESS_CONFIG') delete e[key];
  return e;
}

const witness = (...args: string[]) => {
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: dir, env: env(), encoding: 'utf8', timeout: 120_000 });
  return { ...run, output: run.stdout + run.stderr };
};
const readJson = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;

beforeAll(() => {
  const train = ['shop_a', 'shop_b', 'shop_c'].flatMap((db, i) =>
    database(join(data, 'train_databases'), db, i * 5, 5),
  );
  writeFileSync(join(data, 'train.json'), JSON.stringify(train, null, 2));
  // DEV's question ids start at 0 too, as BIRD's do: they belong to the other split.
  writeFileSync(join(data, 'dev.json'), JSON.stringify(database(join(data, 'dev_databases'), 'clinic', 0, 4), null, 2));
});

describe('HERO on a BIRD folder with TRAIN and DEV', () => {
  it('writes a split file: TRAIN pools disjoint by database, DEV for evaluation', () => {
    const run = witness('split', '--suite', 'bird', '--data', data, '--seed', '3', '--out', 'split.json');
    expect(run.status, run.output).toBe(0);
    expect(run.stdout).toMatch(/evaluation 4 \(dev\) \(db_id: clinic\)/);
    const file = readJson<HeroSplitFile>(join(dir, 'split.json'));
    expect(file).toMatchObject({
      schema: 'witness.hero-split',
      suite: 'bird',
      data,
      seed: 3,
      groupedBy: 'db_id',
      optimization: { split: 'train', tasks: 15 },
      evaluation: { split: 'dev', tasks: 4 },
    });
    expect(file.pools.evaluation.sort()).toEqual(['0', '1', '2', '3']);
    expect(file.pools.sharedSelection).toBe(false);
    const groups = file.pools.groups!;
    expect([groups.diagnosis, groups.update, groups.selection].map((g) => g.length)).toEqual([1, 1, 1]);
    expect([...groups.diagnosis, ...groups.update, ...groups.selection].sort()).toEqual(['shop_a', 'shop_b', 'shop_c']);
    // Each pool holds exactly its database's five TRAIN questions.
    const dbOf = (id: string) => ['shop_a', 'shop_b', 'shop_c'][Math.floor(Number(id) / 5)];
    for (const pool of ['diagnosis', 'update', 'selection'] as const)
      expect(new Set(file.pools[pool].map(dbOf))).toEqual(new Set(groups[pool]));
    expect(file.protocol).toMatch(/disjoint by db_id; evaluation on the dev split, whole/);
  });

  it('optimizes on the pools of the split file it reads, and refuses a split of other data', () => {
    const first = witness(
      'optimize',
      'hero',
      '--suite',
      'bird',
      '--data',
      data,
      '--seed',
      '3',
      '--rounds',
      '1',
      '--candidates',
      '2',
      '--split-file',
      'split.json',
      '--out',
      'out-1',
    );
    expect(first.status, first.output).toBe(0);
    expect(first.stderr).toMatch(/split file: split\.json \(read\)/);
    const drawn = readJson<HeroSplitFile>(join(dir, 'split.json'));
    const report = readJson<HeroResult>(join(dir, 'out-1', 'hero-report.json'));
    expect(report.pools).toEqual({
      diagnosis: drawn.pools.diagnosis,
      update: drawn.pools.update,
      selection: drawn.pools.selection,
      test: drawn.pools.evaluation,
      sharedSelection: false,
    });
    expect(report.privilegedNotice).toMatch(/sim/);
    expect(readJson<HeroSplitFile>(join(dir, 'out-1', 'split.json'))).toEqual(drawn);

    // The data changes (one more TRAIN question): the split file no longer fits and says so.
    const train = readJson<object[]>(join(data, 'train.json'));
    writeFileSync(join(data, 'train.json'), JSON.stringify([...train, { ...train[0], question_id: 99 }]));
    const refused = witness(
      'optimize',
      'hero',
      '--suite',
      'bird',
      '--data',
      data,
      '--split-file',
      'split.json',
      '--rounds',
      '1',
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /split\.json was written for other data: 15 optimization tasks .* the data now has 16/,
    );
  });
});
