import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { needsRerun, ResumePlan, settingsConflict } from './resume.ts';
import { RunStore } from './store.ts';
import type { OutcomeStatus, Trajectory } from './types.ts';

function stored(taskId: string, status: OutcomeStatus): Trajectory {
  return {
    schema: 'witness.trajectory',
    version: 1,
    runId: 'r',
    benchmark: 'b',
    taskId,
    strategy: 's',
    model: { name: 'm', privileged: false },
    trial: 0,
    seed: 1,
    promptHash: 'h',
    oracle: { name: 'o', settings: {} },
    budget: 4,
    caseIds: [],
    turns: [],
    outcome: { status, solvedAtTurn: status === 'solved' ? 1 : null },
    tokens: { prompt: 0, completion: 0, total: 0, estimated: false },
    cache: { hits: 0, misses: 0 },
    startedAt: '',
    durationMs: 0,
  };
}

describe('rerun modes', () => {
  it('errored redoes harness and model errors; failed redoes everything not solved', () => {
    const table = (['solved', 'unsolved', 'model-error', 'harness-error'] as const).map((s) => [
      s,
      needsRerun(stored('x', s), undefined),
      needsRerun(stored('x', s), 'errored'),
      needsRerun(stored('x', s), 'failed'),
    ]);
    expect(table).toEqual([
      ['solved', false, false, false],
      ['unsolved', false, false, true],
      ['model-error', false, true, true],
      ['harness-error', false, true, true],
    ]);
  });
});

describe('settingsConflict', () => {
  const settings = { model: 'sim', seed: 1, turns: 4, trials: 1 };
  it('allows more trials and names the first setting that differs', () => {
    expect(settingsConflict('r1', 'nl-rx', settings, { ...settings, trials: 3 })).toBeNull();
    expect(settingsConflict('r1', 'nl-rx', settings, { ...settings, turns: 6 })).toBe(
      'cannot resume run r1: benchmark nl-rx ran with turns 4, this session has 6; resume with the same settings or start a new run',
    );
    expect(settingsConflict('r1', 'nl-rx', settings, { ...settings, model: 'gpt-x' })).toMatch(
      /ran with model "sim", this session has "gpt-x"/,
    );
  });
});

describe('ResumePlan', () => {
  it('reuses stored episodes except those the rerun mode redoes, and reports unreadable files', () => {
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'witness-resume-')), 'run-1');
    for (const [id, status] of [
      ['a', 'solved'],
      ['b', 'unsolved'],
      ['c', 'harness-error'],
    ] as const)
      store.save(stored(id, status));
    writeFileSync(join(store.dir, 'trajectories', 'torn.json'), '{"schema": "witness.traj');
    const key = (taskId: string) =>
      RunStore.key({ benchmark: 'b', model: { name: 'm' }, taskId, strategy: 's', trial: 0 });

    const plain = ResumePlan.load(store, undefined);
    expect(['a', 'b', 'c', 'd'].map((id) => plain.reusable(key(id))?.taskId ?? null)).toEqual(['a', 'b', 'c', null]);
    expect(plain.stats()).toMatchObject({ reused: 3, redo: 0 });
    expect(plain.stats().unreadable[0]).toMatch(/torn\.json: /);

    const errored = ResumePlan.load(store, 'errored');
    expect(['a', 'b', 'c'].map((id) => errored.reusable(key(id)) !== undefined)).toEqual([true, true, false]);
    const failed = ResumePlan.load(store, 'failed');
    expect(['a', 'b', 'c'].map((id) => failed.reusable(key(id)) !== undefined)).toEqual([true, false, false]);
    expect(failed.stats()).toMatchObject({ reused: 1, redo: 2 });
  });

  it('refuses to resume a run that is not in the store', () => {
    expect(() =>
      ResumePlan.load(new RunStore(mkdtempSync(join(tmpdir(), 'witness-resume-')), 'nope'), undefined),
    ).toThrow(/cannot resume run nope: there is no .*nope/);
  });
});
