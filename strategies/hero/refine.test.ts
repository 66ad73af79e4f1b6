/**
 * HERO-T end to end: the real episode, the real regex oracle and observer, the real openai client
 * against the scripted server. Each scenario scripts the refiner's replies and the judge's verdict.
 * The HERO-T and ReAct seed harnesses (in their sandboxed child) run the same scenarios beside the
 * built-in strategies, to pin what the two share.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runEpisode } from '../../core/episode.ts';
import {
  startTestModelServer,
  type RecordedRequest,
  type TestModelServer,
  scriptedModel,
} from '../../testing/model-server.ts';
import { inlinePrompt } from '../../core/prompt.ts';
import type { RefinementSession } from '../../core/refinement.ts';
import type { Task, Trajectory } from '../../core/types.ts';
import { seedHarnessFile } from '../../optimizers/meta-harness/seeds.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { harnessStrategy } from '../harness/strategy.ts';
import { dynamicCheatsheet, heroT, reactRefiner } from './index.ts';

const oracle = regexOracle();
const prompt = inlinePrompt(
  '--- system ---\nYou write regexes.\n--- user ---\nWrite a {{dialect}} regex for: {{description}}\n',
);
const task: Task = {
  id: '7',
  benchmark: 'hero-t',
  description: "lines containing the string 'dog'",
  gold: '.*dog.*',
  context: { dialect: 'brics' },
};
const fence = (r: string) => '```regex\n' + r + '\n```';

let servers: TestModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

interface Scenario {
  initial: string;
  refiner: string[];
  judge?: string;
}

async function run(
  scenario: Scenario,
  strategy = heroT(),
  theTask = task,
): Promise<{ t: Trajectory; requests: RecordedRequest[] }> {
  let refinerStep = 0;
  const server = await startTestModelServer((request) => {
    const messages = request.body.messages as { role: string; content: string }[];
    const system = messages[0]?.content ?? '';
    if (system.includes('You review a proposed revision')) return { content: scenario.judge ?? 'VERDICT: UNSUPPORTED' };
    // Both the built-in refiner's prompt and the HERO-T and ReAct seeds' start so.
    if (system.includes('You refine a')) return { content: scenario.refiner[refinerStep++] ?? '{"action": "keep"}' };
    if (system.includes('cheatsheet'))
      return { content: '```cheatsheet\n- prefer .* around a required substring\n```' };
    return { content: fence(scenario.initial) };
  });
  servers.push(server);
  const model = scriptedModel(server);
  const prepared = await oracle.prepare(theTask);
  const t = await runEpisode({
    runId: 'r',
    oracle,
    prepared,
    strategy,
    model,
    prompt,
    budget: 4,
    trial: 0,
    seed: 1,
    hardening: null,
  });
  return { t, requests: server.requests };
}

const actions = (t: Trajectory) => t.refinement?.log.map((e) => e.action);

describe('HERO-T', () => {
  it('adopts a revision that passes the checks and that the judge finds supported', async () => {
    const { t, requests } = await run({
      initial: 'dog',
      refiner: [
        '{"action": "execute"}',
        '{"action": "probe"}',
        '{"action": "revise", "program": ".*dog.*", "rationale": "execute showed xdog is not matched"}',
      ],
      judge: 'The observation shows the program only matches dog itself.\nVERDICT: SUPPORTED',
    });
    expect(t.turns.map((turn) => turn.verdict.pass)).toEqual([false, true]);
    expect(t.outcome).toMatchObject({ status: 'solved', solvedAtTurn: 2 });
    expect(actions(t)).toEqual(['execute', 'probe', 'revise', 'accept']);
    expect(t.turns[0]?.calls?.map((c) => c.purpose)).toEqual(['refine', 'refine', 'refine', 'judge']);
    // The refiner saw the observation of its program and the environment — and never a verdict.
    const refinerRequests = requests.filter((r) => JSON.stringify(r.body).includes('You refine a program'));
    const seen = (refinerRequests.at(-1)?.body.messages as { content: string }[]).map((m) => m.content).join('\n');
    expect(seen).toMatch(/matches: .*"dog"/);
    expect(seen).toMatch(/Full-match semantics/);
    for (const word of ['hidden test', 'should match but', 'too narrow', 'too broad', 'fails'])
      expect(seen).not.toContain(word);
    expect(seen).not.toContain('.*dog.*');
  });

  it('rejects a revision the judge finds unsupported, leaving the program unchanged', async () => {
    const { t } = await run({
      initial: '.*dog.*',
      refiner: ['{"action": "execute"}', '{"action": "revise", "program": "dog.*", "rationale": "shorter"}'],
      judge: 'Nothing in the evidence calls for this.\nVERDICT: UNSUPPORTED',
    });
    expect(t.turns).toHaveLength(1);
    expect(t.outcome).toMatchObject({ status: 'solved', solvedAtTurn: 1 });
    expect(t.refinement?.log.at(-1)).toMatchObject({
      action: 'reject',
      reason: 'the judge found the changes unsupported by the evidence',
    });
  });

  it('rejects a revision that fails the programmatic checks before asking the judge', async () => {
    const { t, requests } = await run({
      initial: 'dog',
      refiner: ['{"action": "revise", "program": ".*(dog", "rationale": "?"}'],
      judge: 'VERDICT: SUPPORTED',
    });
    expect(t.turns).toHaveLength(1);
    expect(t.refinement?.log.at(-1)).toMatchObject({ action: 'reject' });
    expect(String(t.refinement?.log.at(-1)?.reason)).toMatch(/^programmatic check failed: it does not execute: syntax/);
    expect(requests.some((r) => JSON.stringify(r.body).includes('You review a proposed revision'))).toBe(false);
  });

  it('keeps within the evidence budget and survives invalid replies', async () => {
    const { t } = await run({
      initial: 'dog',
      refiner: [
        'not json at all',
        '{"action": "execute"}',
        '{"action": "execute"}',
        '{"action": "execute"}',
        '{"action": "execute"}',
        '{"action": "keep", "rationale": "enough"}',
      ],
    });
    expect(actions(t)).toEqual(['invalid', 'execute', 'execute', 'execute', 'keep']);
    expect(t.outcome.status).toBe('unsolved');
  });

  it('offers retrieved examples and shows only the ones picked (at most 3)', async () => {
    const strategy = heroT({
      examples: async () => [
        { taskId: 'a', statement: "lines containing the string 'cat'", program: '.*cat.*' },
        { taskId: 'b', statement: 'lines starting with a capital letter', program: '[A-Z].*' },
        { taskId: '7', statement: "lines containing the string 'dog'", program: '.*dog.*' },
      ],
    });
    const { t, requests } = await run(
      {
        initial: 'dog',
        refiner: ['{"action": "retrieve"}', '{"action": "pick", "ids": ["a", "7", "zzz"]}', '{"action": "keep"}'],
      },
      strategy,
    );
    expect(actions(t)).toEqual(['retrieve', 'pick', 'keep']);
    expect(t.refinement?.log[1]).toMatchObject({ ids: ['a'] });
    const last = JSON.stringify(requests.at(-1)?.body);
    expect(last).toContain('.*cat.*');
    expect(last).not.toContain('Example 7'); // the instance's own example is never retrieved
  });
});

describe('baselines', () => {
  it('ReAct adopts its revision without the gate', async () => {
    const { t, requests } = await run(
      { initial: '.*dog.*', refiner: ['{"action": "revise", "program": "dog.*", "rationale": "shorter"}'] },
      reactRefiner(),
    );
    expect(t.turns.map((turn) => turn.verdict.pass)).toEqual([true, false]);
    expect(t.outcome).toMatchObject({ status: 'unsolved', solvedAtTurn: null });
    expect(requests.some((r) => JSON.stringify(r.body).includes('You review a proposed revision'))).toBe(false);
  });

  it('Dynamic Cheatsheet carries its memory from one instance to the next', async () => {
    const strategy = dynamicCheatsheet();
    const first = await run({ initial: '.*dog.*', refiner: [] }, strategy);
    expect(first.t.refinement?.log).toEqual([{ action: 'memory', lines: 1, updates: 1 }]);
    const second = await run({ initial: '.*dog.*', refiner: [] }, strategy, { ...task, id: '8' });
    const firstRequest = second.requests[0]?.body as { messages: { content: string }[] };
    expect(firstRequest.messages[0]?.content).toContain(
      'Cheatsheet of strategies from earlier tasks:\n- prefer .* around a required substring',
    );
    expect(second.t.turns[0]?.calls?.map((c) => c.purpose)).toEqual(['memory']);
  });
});

describe('the refinement session holds no gold and no verdict', () => {
  it('is typed without them, and at run time carries no gold', async () => {
    let captured: RefinementSession | undefined;
    const spy = { ...heroT(), name: 'spy', refine: async (session: RefinementSession) => void (captured = session) };
    await run({ initial: 'dog', refiner: [] }, spy);
    expect(captured).toBeDefined();
    const session = captured as RefinementSession;
    // @ts-expect-error the task view has no gold
    expect(session.task.gold).toBeUndefined();
    // @ts-expect-error no prepared task (hidden cases, gold results) is reachable
    expect(session.prepared).toBeUndefined();
    expect(JSON.stringify(session.task)).not.toContain('.*dog.*');
    const adopted: void = await session.adopt({ source: 'dog', extraction: 'code-block' }, 'x').catch(() => undefined);
    expect(adopted).toBeUndefined();
  });
});

describe.each([
  ['hero-t', heroT],
  ['react', reactRefiner],
] as const)('the %s seed harness and the built-in strategy', (seed, builtIn) => {
  it.each([
    ['a program that runs', '.*dog.*', /^ok \[\d+ rows\]\n/],
    ['a program that does not parse', '(dog', /^error \(syntax\): /],
  ])(
    'find the action amid prose and show the same evidence after an execute, for %s',
    async (_, initial, shape) => {
      const refiner = ['I will run it first. {"action": "execute"}', '{"action": "keep", "rationale": "it fits"}'];
      const evidence = async (strategy: ReturnType<typeof heroT>) => {
        const { t, requests } = await run({ initial, refiner }, strategy);
        expect(t.outcome.status).not.toBe('harness-error');
        expect(requests).toHaveLength(3);
        const messages = requests[2]?.body.messages as { content: string }[];
        expect(messages.at(-2)?.content).toBe(refiner[0]);
        return messages.at(-1)?.content;
      };
      const fromSeed = await evidence(harnessStrategy(seedHarnessFile(seed)));
      expect(fromSeed).toMatch(shape);
      expect(fromSeed).toMatch(/\n\nEvidence actions left: 2\.$/);
      expect(fromSeed).toBe(await evidence(builtIn()));
    },
    60_000,
  );
});
