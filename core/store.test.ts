import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { latestRunId, newRunId, RunStore } from './store.ts';
import { TRAJECTORY_SCHEMA, TRAJECTORY_SCHEMA_VERSION, type Trajectory } from './types.ts';

function trajectory(taskId: string, strategy: string): Trajectory {
  return {
    schema: TRAJECTORY_SCHEMA,
    version: TRAJECTORY_SCHEMA_VERSION,
    runId: 'r1',
    benchmark: 'nl-rx',
    taskId,
    strategy,
    model: { name: 'sim', privileged: true },
    trial: 0,
    seed: 1,
    promptHash: 'abc',
    oracle: { name: 'regex', settings: {} },
    budget: 4,
    caseIds: [],
    turns: [],
    outcome: { status: 'unsolved', solvedAtTurn: null },
    tokens: { prompt: 0, completion: 0, total: 0, estimated: false },
    cache: { hits: 0, misses: 0 },
    startedAt: new Date(0).toISOString(),
    durationMs: 0,
  };
}

describe('RunStore', () => {
  it('saves one file per trajectory and loads them back; a rerun overwrites the same file', () => {
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'witness-store-')), 'run-1');
    store.save(trajectory('1', 'diagnostic'));
    store.save(trajectory('a/b', 'generic'));
    store.save(trajectory('1', 'diagnostic'));
    const { trajectories, problems } = store.load();
    expect(problems).toEqual([]);
    expect(trajectories.map((t) => `${t.taskId}:${t.strategy}`).sort()).toEqual(['1:diagnostic', 'a/b:generic']);
    expect(readdirSync(join(store.dir, 'trajectories')).every((n) => n.endsWith('.json'))).toBe(true);
  });

  it('reports unreadable files by name instead of dropping them', () => {
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'witness-store-')), 'run-2');
    store.save(trajectory('1', 'zero-shot'));
    writeFileSync(join(store.dir, 'trajectories', 'broken.json'), '{');
    const { trajectories, problems } = store.load();
    expect(trajectories).toHaveLength(1);
    expect(problems[0]).toMatch(/broken\.json: /);
  });

  it('rejects run ids that could escape the store folder', () => {
    expect(() => new RunStore('/tmp', '../evil')).toThrow(/run id/);
    expect(newRunId(new Date('2026-11-30T00:15:02Z'))).toMatch(/^20261130-001502-[a-z0-9]{1,4}$/);
  });

  it('records the settings each benchmark ran with, and finds the latest run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'witness-store-'));
    expect(latestRunId(dir)).toBeUndefined();
    const store = new RunStore(dir, 'run-a');
    expect(store.exists()).toBe(false);
    expect(store.readSettings('nl-rx')).toBeUndefined();
    store.writeSettings('nl-rx', { model: 'sim', turns: 4 });
    expect(store.exists()).toBe(true);
    expect(store.readSettings('nl-rx')).toEqual({ model: 'sim', turns: 4 });
    writeFileSync(join(store.dir, 'benchmarks', 'bad.json'), '[1]');
    expect(() => store.readSettings('bad')).toThrow(/bad\.json: unreadable run settings: not an object/);
    await new Promise((r) => setTimeout(r, 20));
    new RunStore(dir, 'run-b').save(trajectory('1', 'generic'));
    expect(latestRunId(dir)).toBe('run-b');
  });
});
