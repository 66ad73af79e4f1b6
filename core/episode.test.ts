/**
 * The loop end to end with real parts: the regex oracle, the real `openai` client talking HTTP to
 * the scripted test server, the SQLite cache, and the sim model.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { regexOracle } from '../oracles/regex/oracle.ts';
import { pickStrategies } from '../strategies/index.ts';
import { runEpisode, type EpisodeSetup } from './episode.ts';
import { DEFAULT_HARDENING } from './hardening.ts';
import { withCache } from './models/cache.ts';
import type { ChatModel } from './models/model.ts';
import { createSimModel } from './models/sim.ts';
import { scriptedModel, startTestModelServer, type Script, type TestModelServer } from '../testing/model-server.ts';
import { inlinePrompt } from './prompt.ts';
import type { Task, Trajectory } from './types.ts';

const oracle = regexOracle();
const prompt = inlinePrompt(
  '--- system ---\nYou write regexes.\n--- user ---\nWrite a {{dialect}} regex for: {{description}}',
);
const dogTask: Task = {
  id: '1',
  benchmark: 'test',
  description: "lines containing the string 'dog'",
  gold: '.*dog.*',
  context: { dialect: 'brics' },
};
const block = (regex: string) => '```regex\n' + regex + '\n```';

let servers: TestModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(script: Script) {
  const server = await startTestModelServer(script);
  servers.push(server);
  return server;
}

function httpModel(server: TestModelServer, overrides: { timeoutMs?: number; maxRetries?: number } = {}): ChatModel {
  return scriptedModel(server, { timeoutMs: overrides.timeoutMs ?? 2000, maxRetries: overrides.maxRetries ?? 0 });
}

async function episode(
  model: ChatModel,
  options: Partial<Omit<EpisodeSetup<Awaited<ReturnType<typeof oracle.prepare>>>, 'strategy'>> & {
    task?: Task;
    strategy?: string;
  } = {},
) {
  const prepared = await oracle.prepare(options.task ?? dogTask);
  const [strategy] = pickStrategies(options.strategy ?? 'diagnostic');
  return runEpisode({
    runId: 'run-test',
    oracle,
    prepared,
    strategy: strategy!,
    model,
    prompt,
    budget: options.budget ?? 4,
    trial: 0,
    seed: 1,
    hardening: options.hardening === undefined ? DEFAULT_HARDENING : options.hardening,
  });
}

/** What must be identical between two runs of the same episode (timings and cache flags aside). */
function essence(t: Trajectory) {
  return {
    outcome: t.outcome,
    turns: t.turns.map((turn) => ({
      phase: turn.phase,
      messages: turn.messages,
      reply: turn.reply,
      candidate: turn.candidate,
      cases: turn.verdict.cases,
      witnesses: turn.verdict.witnesses,
      error: turn.verdict.error,
      feedback: turn.feedback,
    })),
  };
}

describe('an episode over HTTP', () => {
  it('recovers from a reply without a program, records every turn, and hardens the success', async () => {
    const server = await serve([
      { content: 'Let me think about it.\nIt should contain dog.' },
      { content: block('.*dog.*') },
    ]);
    const t = await episode(httpModel(server));
    expect(t.outcome.status).toBe('solved');
    expect(t.outcome.solvedAtTurn).toBe(2);
    expect(t.turns).toHaveLength(2);
    const [first, second] = t.turns as [Trajectory['turns'][0], Trajectory['turns'][0]];
    expect(first.candidate).toBeNull();
    expect(first.verdict.error?.kind).toBe('no-artifact');
    expect(first.feedback?.text).toMatch(/could not find a regular expression/);
    expect(first.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(first.messages[1]?.content).toBe(
      "Write a ECMAScript (JavaScript RegExp) regex for: lines containing the string 'dog'",
    );
    expect(second.messages).toEqual([{ role: 'user', content: first.feedback?.text }]);
    expect(second.verdict.pass).toBe(true);
    // The second request carried the whole conversation: system, prompt, reply 1, feedback.
    const body = server.requests[1]?.body as { messages: { role: string }[] };
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(t.tokens.total).toBeGreaterThan(0);
    expect(t.tokens.estimated).toBe(false);
    expect(t.outcome.hardening).toMatchObject({ status: 'robust', exact: true, sampledClean: true, repairs: 0 });
    expect(t.promptHash).toBe(prompt.hash);
    expect(t.caseIds).toHaveLength(24);
    // JSON-safe: survives serialization unchanged.
    expect(JSON.parse(JSON.stringify(t))).toEqual(t);
  });

  it('ends as model-error when the endpoint fails after its retries, and says why', async () => {
    const server = await serve([{ status: 500, errorMessage: 'boom' }]);
    const t = await episode(httpModel(server, { maxRetries: 0 }));
    expect(t.outcome).toMatchObject({ status: 'model-error', solvedAtTurn: null });
    expect(t.turns).toHaveLength(1);
    expect(t.turns[0]?.modelError).toMatch(/500/);
    expect(t.turns[0]?.modelError).not.toContain('sk-test');
    expect(server.requests).toHaveLength(1);
  });

  it('rides out a 429 with retry-after and a reply past the timeout is a model error', async () => {
    const limited = await serve([{ status: 429, retryAfterMs: 20 }, { content: block('.*dog.*') }]);
    const ok = await episode(httpModel(limited, { maxRetries: 2 }), { hardening: null });
    expect(ok.outcome.status).toBe('solved');
    expect(limited.requests).toHaveLength(2);
    const slow = await serve([{ delayMs: 2000, content: block('.*dog.*') }]);
    const late = await episode(httpModel(slow, { timeoutMs: 200, maxRetries: 0 }), { hardening: null });
    expect(late.outcome.status).toBe('model-error');
    expect(late.turns[0]?.modelError).toMatch(/timed out/);
  });

  it('stops at the budget, and zero-shot takes a single turn', async () => {
    const server = await serve([{ content: block('dog') }]);
    const t = await episode(httpModel(server), { budget: 3 });
    expect(t.outcome.status).toBe('unsolved');
    expect(t.turns).toHaveLength(3);
    expect(t.turns.slice(0, 2).every((turn) => turn.feedback?.text.includes('too narrow'))).toBe(true);
    expect(t.turns[2]?.feedback).toBeUndefined();
    const zero = await episode(httpModel(server), { strategy: 'zero-shot' });
    expect(zero.turns).toHaveLength(1);
  });

  it('repairs in the hardening phase when probes find a disagreement the hidden tests missed', async () => {
    const task: Task = {
      id: 'h',
      benchmark: 'test',
      description: 'lines of lower-case letters',
      gold: '[a-z]*',
      context: { dialect: 'brics' },
    };
    const server = await serve([{ content: block('[a-z]{0,25}') }, { content: block('[a-z]*') }]);
    const t = await episode(httpModel(server), { task });
    expect(t.outcome.solvedAtTurn).toBe(1);
    expect(t.turns.map((turn) => turn.phase)).toEqual(['solve', 'hardening']);
    expect(t.turns[1]?.messages[0]?.content).toMatch(/should match but does not \(too narrow\)/);
    expect(t.outcome.hardening).toMatchObject({ status: 'robust', repairs: 1, exact: true });
    expect(t.outcome.hardening?.probesAdded).toBeGreaterThan(0);
    expect(t.outcome.hardening?.added.every((w) => String(w.input).length > 25)).toBe(true);
  });

  it('replays a recorded run exactly from the cache, offline', async () => {
    const server = await serve([
      { content: block('dog.*') },
      { content: block('.*dog') },
      { content: block('.*dog.*') },
    ]);
    const path = join(mkdtempSync(join(tmpdir(), 'witness-cache-')), 'cache.sqlite');
    const sampling = { temperature: 0 };
    const recorded = await episode(withCache(httpModel(server), { path, mode: 'readwrite', sampling }));
    expect(recorded.cache).toEqual({ hits: 0, misses: 3 });
    await server.close();
    const replay = await episode(withCache(httpModel(server), { path, mode: 'only', sampling }));
    expect(replay.cache).toEqual({ hits: 3, misses: 0 });
    expect(essence(replay)).toEqual(essence(recorded));
    const otherTask = { ...dogTask, description: 'something never recorded' };
    await expect(
      episode(withCache(httpModel(server), { path, mode: 'only', sampling }), { task: otherTask }),
    ).rejects.toThrow(/cache-only/);
  });
});

describe('the sim model in an episode', () => {
  const tasks: Task[] = [
    dogTask,
    {
      id: '2',
      benchmark: 'test',
      description: "lines with 'lake' but not 'ring'",
      gold: '(.*lake.*)&(~(.*ring.*))',
      context: { dialect: 'brics' },
    },
    {
      id: '3',
      benchmark: 'test',
      description: 'lines with at least three numbers',
      gold: '(.*[0-9].*){3,}',
      context: { dialect: 'brics' },
    },
    {
      id: '4',
      benchmark: 'test',
      description: 'capital then lower-case',
      gold: '([A-Z])([a-z])*',
      context: { dialect: 'brics' },
    },
  ];

  it('gives every strategy the same first answer and is deterministic for a seed', async () => {
    for (const task of tasks) {
      const firsts = new Set<string | null>();
      for (const strategy of ['zero-shot', 'generic', 'diagnostic']) {
        const t = await episode(createSimModel({ seed: 3, skill: 0 }), { task, strategy, hardening: null });
        firsts.add(t.turns[0]?.reply ?? null);
      }
      expect(firsts.size, `task ${task.id}`).toBe(1);
      const a = await episode(createSimModel({ seed: 3 }), { task, strategy: 'diagnostic' });
      const b = await episode(createSimModel({ seed: 3 }), { task, strategy: 'diagnostic' });
      expect(essence(a)).toEqual(essence(b));
      expect(a.model).toEqual({ name: 'sim', privileged: true, seed: 3 });
      expect(a.tokens.estimated).toBe(true);
    }
  });

  it('with witnesses, each repair is consistent with every witness disclosed so far (a CEGIS step)', async () => {
    for (const task of tasks) {
      for (let seed = 1; seed <= 4; seed++) {
        const t = await episode(createSimModel({ seed, skill: 0, maxMutations: 3 }), {
          task,
          strategy: 'diagnostic',
          hardening: null,
        });
        const prepared = await oracle.prepare(task);
        for (let i = 1; i < t.turns.length; i++) {
          const seen = t.turns.slice(0, i).flatMap((turn) => turn.feedback?.disclosed.witnesses ?? []);
          const candidate = t.turns[i]?.candidate;
          expect(candidate).toBeTruthy();
          for (const w of seen)
            expect(
              await oracle.simulator.agrees(prepared, candidate!, w),
              `task ${task.id} seed ${seed} turn ${i + 1}`,
            ).toBe(true);
        }
      }
    }
  });

  it("records the oracle's tokenizer in the trajectory, the code tokenizer when the oracle names none", async () => {
    const prepared = await oracle.prepare(dogTask);
    const setup = {
      runId: 'run-test',
      prepared,
      strategy: pickStrategies('zero-shot')[0]!,
      prompt,
      budget: 1,
      trial: 0,
      seed: 1,
      hardening: null,
    };
    const named = await runEpisode({ ...setup, oracle, model: createSimModel({ seed: 1 }) });
    expect(named.oracle.tokenizer).toBe('regex');
    const unnamed = await runEpisode({
      ...setup,
      oracle: { ...oracle, tokenizer: undefined },
      model: createSimModel({ seed: 1 }),
    });
    expect(unnamed.oracle).toEqual({ name: 'regex', settings: oracle.settings(), tokenizer: 'code' });
  });

  it('refuses to answer outside an episode', async () => {
    await expect(
      createSimModel({ seed: 1 }).complete({ messages: [{ role: 'user', content: 'hi' }], trial: 0 }),
    ).rejects.toThrow(/only answers inside a Witness episode/);
  });
});
