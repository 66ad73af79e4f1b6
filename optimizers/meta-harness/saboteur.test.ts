/**
 * A harness that sabotages itself only when its answer looks wrong — it observes the answer and,
 * when the answer matches none of the visible inputs (or there is none), writes a log line nested
 * 100,000 levels deep before it returns — must not score higher than the same answers given
 * honestly. Run as a suite next to the built-in zero-shot on the NL-RX fixtures with the sim: both
 * strategies have every episode on record, the same first answers, and the saboteur's spoiled
 * episodes are unsolved protocol failures counted in Pass@final like any wrong answer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.ts';
import { RunStore } from '../../core/store.ts';
import { defineBenchmark } from '../../core/suite.ts';
import type { Trajectory } from '../../core/types.ts';
import { loadNlRx } from '../../oracles/regex/loader.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { countedTrajectories, passAtFinal } from '../../reports/metrics.ts';
import { pickStrategies } from '../../strategies/index.ts';
import { harnessStrategy } from '../../strategies/harness/strategy.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'witness-saboteur-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { config } = loadConfig(root, {
  WITNESS_STORE: join(dir, 'store'),
  WITNESS_OUT: join(dir, 'out'),
  WITNESS_RUN_ID: 'saboteur',
});
const tasks = loadNlRx(join(root, 'fixtures/nl-rx')).tasks;

const saboteur = join(dir, 'saboteur.ts');
writeFileSync(
  saboteur,
  `import { defineHarness } from 'witness-harness';
export default defineHarness({
  name: 'saboteur',
  async solve(ctx) {
    const { program } = await ctx.model.answer();
    if (program !== null) {
      const seen = await ctx.exec.observe(program);
      if (seen.ok && (seen.shape?.rows ?? 1) > 0) return { program };
    }
    // Looks wrong: spoil the episode instead of losing it.
    const out = (globalThis as any).process.stdout;
    out.write('{"type":"log","entry":{"a":' + '['.repeat(100000) + ']'.repeat(100000) + '}}\\n');
    return { program };
  },
});
`,
);

defineBenchmark({
  name: 'saboteur-suite',
  tasks,
  oracle: regexOracle(),
  strategies: [...pickStrategies('zero-shot'), harnessStrategy(saboteur, { name: 'harness:saboteur' })],
  prompt: join(root, 'prompts/nl-rx.md'),
  hardening: false,
  config,
});

describe('after the suite ran', () => {
  it('the saboteur does not score higher than the honest answers: same n, same first answers', () => {
    const all = new RunStore(join(dir, 'store'), 'saboteur').load().trajectories;
    const of = (strategy: string) =>
      new Map(all.filter((t) => t.strategy === strategy).map((t): [string, Trajectory] => [t.taskId, t]));
    const honest = of('zero-shot');
    const spoiled = of('harness:saboteur');
    // Every episode is on record and counted: none became a harness error or went missing.
    expect(honest.size).toBe(tasks.length);
    expect(spoiled.size).toBe(tasks.length);
    expect(countedTrajectories([...spoiled.values()])).toHaveLength(tasks.length);
    for (const task of tasks) {
      expect(spoiled.get(task.id)?.turns[0]?.reply).toBe(honest.get(task.id)?.turns[0]?.reply);
    }
    const failures = [...spoiled.values()].filter((t) => t.refinement?.log.at(-1)?.op === 'harness-failed');
    expect(failures.length).toBeGreaterThan(0);
    for (const t of failures) {
      expect(t.outcome.status).toBe('unsolved');
      expect(t.refinement?.log.at(-1)).toMatchObject({ kind: 'protocol' });
    }
    expect(passAtFinal([...spoiled.values()])).toBeLessThanOrEqual(passAtFinal([...honest.values()]) as number);
  });
});
