/**
 * The call bounds the dry run multiplies are real bounds: no episode of the sim on the nl-rx
 * fixtures (hardening on) goes over them, and scripted worst cases through the real openai client
 * reach them exactly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runEpisode } from '../core/episode.ts';
import { DEFAULT_HARDENING } from '../core/hardening.ts';
import type { ChatModel } from '../core/models/model.ts';
import { loadConfig } from '../core/config.ts';
import { createSimModel } from '../core/models/sim.ts';
import { startTestModelServer, type TestModelServer, scriptedModel } from '../testing/model-server.ts';
import { inlinePrompt, loadPrompt } from '../core/prompt.ts';
import type { Task } from '../core/types.ts';
import { regexOracle } from '../oracles/regex/oracle.ts';
import { nlRxSpec } from '../oracles/regex/spec.ts';
import { maxCallsPerEpisode } from './call-bounds.ts';
import { ALL_STRATEGY_NAMES, buildStrategies, pickStrategies } from './index.ts';

const oracle = regexOracle();
const limits = { turns: 4, hardeningRepairs: DEFAULT_HARDENING.maxCycles };

/** The model, counting its calls. */
function counted(model: ChatModel): { model: ChatModel; calls: () => number } {
  let n = 0;
  return {
    model: { info: model.info, complete: (request) => (n++, model.complete(request)) },
    calls: () => n,
  };
}

describe('maxCallsPerEpisode', () => {
  it('knows every built-in strategy and no other', () => {
    for (const name of ALL_STRATEGY_NAMES) expect(maxCallsPerEpisode(name, limits)).toBeGreaterThan(0);
    expect(maxCallsPerEpisode('my-own', limits)).toBeNull();
    expect(maxCallsPerEpisode('generic', { turns: 7, hardeningRepairs: 0 })).toBe(7);
    expect(maxCallsPerEpisode('zero-shot', { turns: 7, hardeningRepairs: 2 })).toBe(1);
  });

  it('bounds every episode of the sim on the nl-rx fixtures, hardening on', async () => {
    const spec = nlRxSpec(loadConfig(process.cwd(), {}).config);
    const tasks = spec.tasks.tasks.slice(0, 8);
    const prompt = loadPrompt(spec.prompt);
    let reachedHardening = false;
    for (const strategy of buildStrategies({})) {
      const bound = maxCallsPerEpisode(strategy.name, limits) as number;
      for (const task of tasks) {
        const { model, calls } = counted(createSimModel({ seed: 1 }));
        const t = await runEpisode({
          runId: 'r',
          oracle: spec.oracle,
          prepared: await spec.oracle.prepare(task),
          strategy,
          model,
          prompt,
          budget: limits.turns,
          trial: 0,
          seed: 1,
          hardening: DEFAULT_HARDENING,
        });
        expect(calls(), `${strategy.name} on task ${task.id}`).toBeLessThanOrEqual(bound);
        reachedHardening ||= t.turns.some((turn) => turn.phase === 'hardening');
      }
    }
    expect(reachedHardening).toBe(true);
  }, 60_000);
});

describe('worst cases reach the bound', () => {
  let server: TestModelServer | undefined;
  afterEach(async () => server?.close());
  const task: Task = {
    id: '1',
    benchmark: 'b',
    description: "lines with 'dog'",
    gold: '.*dog.*',
    context: { dialect: 'brics' },
  };
  const prompt = inlinePrompt('--- user ---\nWrite a {{dialect}} regex for: {{description}}\n');

  async function episodeCalls(strategy: ReturnType<typeof pickStrategies>[number], refiner: string[]) {
    let step = 0;
    server = await startTestModelServer((request) => {
      const system = (request.body.messages as { content: string }[])[0]?.content ?? '';
      if (system.includes('You review a proposed revision')) return { content: 'VERDICT: SUPPORTED' };
      if (system.includes('You refine a program')) return { content: refiner[step++] ?? '{"action": "keep"}' };
      if (system.includes('cheatsheet')) return { content: '```cheatsheet\n- a rule\n```' };
      return { content: '```regex\ncat\n```' };
    });
    const model = scriptedModel(server);
    await runEpisode({
      runId: 'r',
      oracle,
      prepared: await oracle.prepare(task),
      strategy,
      model,
      prompt,
      budget: limits.turns,
      trial: 0,
      seed: 1,
      hardening: DEFAULT_HARDENING,
    });
    return server.requests.length;
  }

  it('hero-t and react: three evidence actions, a pick, two replies past the budget, then the revision (and the judge)', async () => {
    const refiner = [
      '{"action": "execute"}',
      '{"action": "probe"}',
      '{"action": "retrieve"}',
      '{"action": "pick", "ids": ["9"]}',
      '{"action": "execute"}',
      '{"action": "probe"}',
      '{"action": "revise", "program": ".*dog.*", "rationale": "execute showed cat"}',
    ];
    for (const name of ['hero-t', 'react'])
      expect(await episodeCalls(pickStrategies(name)[0]!, refiner), name).toBe(maxCallsPerEpisode(name, limits));
  });

  it('a feedback strategy that never gets it right uses its whole turn budget; the cheatsheet two calls', async () => {
    for (const name of ['generic', 'diagnostic', 'zero-shot', 'cheatsheet']) {
      const expected = name === 'cheatsheet' || name === 'zero-shot' ? maxCallsPerEpisode(name, limits) : limits.turns;
      expect(await episodeCalls(pickStrategies(name)[0]!, []), name).toBe(expected);
      await server?.close();
      server = undefined;
    }
  });
});
