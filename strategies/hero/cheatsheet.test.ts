/**
 * Dynamic Cheatsheet's memory: one per (benchmark, trial), one episode at a time. Real episodes,
 * the real regex oracle, the real openai client against the scripted server (with a delay, so two
 * episodes started together overlap).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runEpisode } from '../../core/episode.ts';
import { startTestModelServer, type TestModelServer, scriptedModel } from '../../testing/model-server.ts';
import { inlinePrompt } from '../../core/prompt.ts';
import type { Task } from '../../core/types.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { dynamicCheatsheet } from './index.ts';

const oracle = regexOracle();
const prompt = inlinePrompt(
  '--- system ---\nYou write regexes.\n--- user ---\nWrite a {{dialect}} regex for: {{description}}\n',
);
const task = (id: string, benchmark = 'memory'): Task => ({
  id,
  benchmark,
  description: `lines containing the string '${id}'`,
  gold: `.*${id}.*`,
  context: { dialect: 'brics' },
});

let server: TestModelServer;
const model = async () => {
  server ??= await startTestModelServer((request) => {
    const messages = request.body.messages as { role: string; content: string }[];
    if ((messages[0]?.content ?? '').startsWith('You maintain a cheatsheet')) {
      const task = /Task: (.*)/.exec(messages.at(-1)?.content ?? '')?.[1] ?? '?';
      return { content: '```cheatsheet\n- learned from: ' + task + '\n```', delayMs: 30 };
    }
    return { content: '```regex\n.*x.*\n```', delayMs: 30 };
  });
  return scriptedModel(server, { concurrency: 4 });
};
afterAll(async () => {
  await server?.close();
});

async function episode(strategy: ReturnType<typeof dynamicCheatsheet>, t: Task, trial = 0) {
  const prepared = await oracle.prepare(t);
  return runEpisode({
    runId: 'r',
    oracle,
    prepared,
    strategy,
    model: await model(),
    prompt,
    budget: 1,
    trial,
    seed: 1,
    hardening: null,
  });
}
const systemOf = (t: Awaited<ReturnType<typeof episode>>) => t.turns[0]?.messages[0]?.content ?? '';

describe('Dynamic Cheatsheet memory', () => {
  it('keeps one memory per trial and per benchmark', async () => {
    const strategy = dynamicCheatsheet();
    await episode(strategy, task('a'), 0);
    const otherTrial = await episode(strategy, task('b'), 1);
    const otherBenchmark = await episode(strategy, task('b', 'elsewhere'), 0);
    const sameTrial = await episode(strategy, task('b'), 0);
    expect(systemOf(otherTrial)).not.toContain('Cheatsheet');
    expect(systemOf(otherBenchmark)).not.toContain('Cheatsheet');
    expect(systemOf(sameTrial)).toContain(
      "Cheatsheet of strategies from earlier tasks:\n- learned from: lines containing the string 'a'",
    );
  });

  it('refuses two episodes of one memory at once instead of letting timing shape it', async () => {
    const strategy = dynamicCheatsheet();
    const outcomes = await Promise.allSettled([episode(strategy, task('p')), episode(strategy, task('q'))]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(
      /Dynamic Cheatsheet: the episode of task [pq] started while the one of task [pq] was still running \(benchmark memory, trial 0\)/,
    );
    // Released afterwards: the next episode runs and sees the finished one's update.
    expect(systemOf(await episode(strategy, task('r')))).toContain('- learned from:');
  });
});
