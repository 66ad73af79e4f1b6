/**
 * The reporter with compact task meta, as a merge of blobs from other machines sees it: the full
 * trajectories are read from the store folder the workers wrote, or from the configured store
 * (WITNESS_STORE: where a CI job downloaded the shards' stores); when neither has them the compact
 * copies stand in and every report says how many.
 */
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestCase, TestModule, Vitest } from 'vitest/node';
import { afterEach, describe, expect, it } from 'vitest';
import { compactTrajectory, type StoredRef } from '../core/meta.ts';
import { RunStore } from '../core/store.ts';
import { CASES, makeTrajectory } from './__fixtures__/trajectories.ts';
import WitnessReporter from './reporter.ts';
import { readResultsFile } from './results-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'witness-reporter-store-'));
const shardStore = join(dir, 'shard-machine-store');
const full = ['1', '2', '3'].map((id) => {
  const t = makeTrajectory({
    taskId: id,
    runId: 'ci',
    turns: [
      { source: 'a', pass: [] },
      { source: 'b', pass: CASES },
    ],
  });
  return {
    ...t,
    turns: t.turns.map((turn) => ({ ...turn, messages: [{ role: 'user' as const, content: `full text ${id}` }] })),
  };
});
const store = new RunStore(shardStore, 'ci');
// As the shard's workers recorded them, with the store path of the shard's machine.
const metas = full.map((t) => {
  const ref: StoredRef = { storeDir: '/elsewhere/on/the/ci/runner', runId: 'ci', ...store.save(t) };
  return { witness: compactTrajectory(t), witnessStored: ref };
});

const saved = process.env.WITNESS_STORE;
afterEach(() => {
  if (saved === undefined) delete process.env.WITNESS_STORE;
  else process.env.WITNESS_STORE = saved;
});

async function report(outDir: string): Promise<string[]> {
  const logs: string[] = [];
  const reporter = new WitnessReporter({ outDir });
  reporter.onInit({
    config: { root: dir },
    logger: { log: (t: string) => logs.push(t), error: (t: string) => logs.push(t) },
  } as unknown as Vitest);
  reporter.onTestRunStart();
  const cases = metas.map(
    (meta, i) => ({ fullName: `t${i}`, module: { moduleId: '/s.eval.ts' }, meta: () => meta }) as unknown as TestCase,
  );
  await reporter.onTestRunEnd([{ children: { allTests: () => cases.values() } } as unknown as TestModule]);
  return logs;
}

describe('the reporter with compact task meta', () => {
  it('reads the full trajectories from the configured store when the workers wrote elsewhere', async () => {
    const merged = join(dir, 'downloaded-stores');
    cpSync(shardStore, merged, { recursive: true });
    process.env.WITNESS_STORE = merged;
    await report('with-store');
    const results = await readResultsFile(join(dir, 'with-store', 'results.json'));
    expect(results.trajectories).toEqual(full);
    expect(readFileSync(join(dir, 'with-store', 'summary.md'), 'utf8')).not.toContain('shown without texts');
  });

  it('falls back to the compact copies, same numbers, and says so when no store has them', async () => {
    process.env.WITNESS_STORE = join(dir, 'nothing-here');
    await report('without-store');
    const results = await readResultsFile(join(dir, 'without-store', 'results.json'));
    expect(results.trajectories).toEqual(full.map(compactTrajectory));
    const withStore = await readResultsFile(join(dir, 'with-store', 'results.json'));
    expect(results.summary).toEqual(withStore.summary);
    const note = '3 trajectories shown without texts (prompts, replies, witnesses): not found in the run store';
    expect(readFileSync(join(dir, 'without-store', 'summary.md'), 'utf8')).toContain(note);
    expect(JSON.parse(readFileSync(join(dir, 'without-store', 'report.json'), 'utf8')).notes[0]).toContain(note);
  });
});
