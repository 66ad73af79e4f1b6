/**
 * `harness:<path>` as a strategy in a suite declared with defineBenchmark, with the sim model: the
 * harness strategies run next to a built-in one, their trajectories reach the run store like any
 * other, a harness's `answer()` is the same first turn the built-in zero-shot gets, and a harness
 * with `memory: true` runs one episode at a time in task order with its memory carried along.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.ts';
import { defineBenchmark } from '../../core/suite.ts';
import type { Trajectory } from '../../core/types.ts';
import { loadNlRx } from '../../oracles/regex/loader.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { buildStrategies, pickStrategies } from '../../strategies/index.ts';
import { seedHarnessFile } from './seeds.ts';
import { declaresMemory, harnessStrategy } from '../../strategies/harness/strategy.ts';
import { RunStore } from '../../core/store.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'witness-harness-suite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { config } = loadConfig(root, {
  WITNESS_STORE: join(dir, 'store'),
  WITNESS_OUT: join(dir, 'out'),
  WITNESS_RUN_ID: 'harness-suite',
});
const tasks = loadNlRx(join(root, 'fixtures/nl-rx')).tasks.slice(0, 4);

defineBenchmark({
  name: 'harness-suite',
  tasks,
  oracle: regexOracle(),
  strategies: [
    ...pickStrategies('zero-shot'),
    harnessStrategy(seedHarnessFile('zero-shot')),
    harnessStrategy(seedHarnessFile('cheatsheet')),
    ...buildStrategies({}, [`harness:${seedHarnessFile('self-verify')}`]),
  ],
  prompt: join(root, 'prompts/nl-rx.md'),
  hardening: false,
  config,
});

function stored(): Trajectory[] {
  return new RunStore(join(dir, 'store'), 'harness-suite').load().trajectories;
}

describe('after the suite ran', () => {
  it('stored one trajectory per task and strategy, the harness ones with their trace', () => {
    const all = stored();
    const strategies = ['zero-shot', 'harness:zero-shot', 'harness:cheatsheet', 'harness:self-verify'];
    expect(all.map((t) => `${t.strategy}/${t.taskId}`).sort()).toEqual(
      strategies.flatMap((s) => tasks.map((t) => `${s}/${t.id}`)).sort(),
    );
    for (const t of all.filter((t) => t.strategy.startsWith('harness:'))) {
      expect(t.outcome.status).not.toBe('harness-error');
      expect(t.refinement?.log.at(-1)).toMatchObject({ op: 'done' });
    }
  });

  it("a harness's answer() is the built-in zero-shot's first turn, and so is its outcome", () => {
    const all = stored();
    for (const task of tasks) {
      const builtin = all.find((t) => t.strategy === 'zero-shot' && t.taskId === task.id) as Trajectory;
      const harness = all.find((t) => t.strategy === 'harness:zero-shot' && t.taskId === task.id) as Trajectory;
      expect(harness.turns[0]?.reply).toBe(builtin.turns[0]?.reply);
      expect(harness.turns[0]?.messages).toEqual(builtin.turns[0]?.messages);
      expect(harness.outcome.status).toBe(builtin.outcome.status);
    }
  });

  it('the cheatsheet harness ran in task order and each episode started from the memory its predecessor left', () => {
    const episodes = tasks.map(
      (task) => stored().find((t) => t.strategy === 'harness:cheatsheet' && t.taskId === task.id) as Trajectory,
    );
    for (let i = 1; i < episodes.length; i++) {
      expect(Date.parse(episodes[i]!.startedAt)).toBeGreaterThanOrEqual(
        Date.parse(episodes[i - 1]!.startedAt) + episodes[i - 1]!.durationMs,
      );
    }
    const systems = episodes.map((t) => t.refinement?.log.find((e) => e.op === 'answer')?.system ?? null);
    expect(systems[0]).toBeNull();
    for (const system of systems.slice(1)) expect(system).toMatch(/Rules from earlier tasks:\n- /);
    // The rules grow by one line per curated episode (the sim's curator adds one rule each time).
    const lines = systems
      .slice(1)
      .map((s) => String(s).split('Rules from earlier tasks:\n')[1]!.split('\n\n')[0]!.split('\n').length);
    expect(lines).toEqual([1, 2, 3]);
  });
});

describe('declaresMemory', () => {
  it('sees memory: true in code, not in comments', () => {
    expect(declaresMemory("defineHarness({ name: 'x', memory: true, solve })")).toBe(true);
    expect(declaresMemory("defineHarness({ name: 'x', solve }) // memory: true")).toBe(false);
    expect(declaresMemory("defineHarness({ name: 'x', memory: false, solve })")).toBe(false);
  });
});
