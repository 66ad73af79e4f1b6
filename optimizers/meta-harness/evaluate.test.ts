/**
 * evaluateHarness with a real model client: the openai client against the scripted server, the
 * real SQL oracle on the BIRD fixtures, the self-verify seed in its sandboxed child. The scripts
 * decide what the model says; the figures, the verdict and the trace come from the real run.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startTestModelServer, type Script, type TestModelServer, scriptedModel } from '../../testing/model-server.ts';
import { inlinePrompt } from '../../core/prompt.ts';
import { BIRD_FIXTURES, loadBird } from '../../oracles/sql/loader.ts';
import { sqlOracle } from '../../oracles/sql/oracle.ts';
import { evaluateHarness } from './evaluate.ts';
import { seedHarnessFile } from './seeds.ts';

const oracle = sqlOracle({ mode: 'set', ves: false });
const task = loadBird(BIRD_FIXTURES).tasks[0]!;
const prompt = inlinePrompt('--- system ---\nYou write SQLite queries.\n--- user ---\n{{description}}\n');
const fence = (sql: string) => '```sql\n' + sql + '\n```';
const BROKEN = 'SELECT COUNT(customer_id) FROM customer WHERE email IS NULL';

let servers: TestModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
afterAll(() => oracle.dispose?.());

async function evaluate(script: Script, budgets = {}) {
  const server = await startTestModelServer(script);
  servers.push(server);
  const model = scriptedModel(server);
  const evaluation = await evaluateHarness({
    harnessFile: seedHarnessFile('self-verify'),
    oracle,
    tasks: [task],
    model,
    prompt,
    budgets,
  });
  return { evaluation, episode: evaluation.episodes[0]!, requests: server.requests };
}

describe('evaluateHarness with the scripted server', () => {
  it('self-verify sees the execution error, asks for a repair, and its repaired program passes; the trace holds it all', async () => {
    const { episode, evaluation, requests } = await evaluate([
      { content: fence(BROKEN), usage: { prompt_tokens: 100, completion_tokens: 20 } },
      { content: fence(task.gold), usage: { prompt_tokens: 300, completion_tokens: 25 } },
    ]);
    expect(requests).toHaveLength(2);
    // The repair request carries the observer's error, never a verdict.
    const repair = JSON.stringify(requests[1]!.body.messages);
    expect(repair).toContain('no such table: customer');
    expect(repair).not.toMatch(/verdict|gold|hidden|expected|passes|fails/i);
    expect(episode.failure).toBeUndefined();
    expect(episode.program).toBe(task.gold);
    expect(episode.pass).toBe(true);
    expect(episode.calls).toBe(2);
    expect(episode.observes).toBe(2);
    expect(episode.tokens).toEqual({ prompt: 400, completion: 45, total: 445 });
    const log = episode.trajectory.refinement?.log ?? [];
    expect(log.map((e) => e.op)).toEqual(['answer', 'observe', 'chat', 'observe', 'done']);
    expect(log[1]).toMatchObject({ program: BROKEN, observation: { ok: false } });
    expect(log[2]).toMatchObject({ purpose: 'refine', reply: fence(task.gold) });
    expect(evaluation.summary).toMatchObject({ episodes: 1, passed: 1, passAtFinal: 1, meanTokens: 445, meanCalls: 2 });
    // The task's id never reached the model or the harness.
    expect(JSON.stringify(requests.map((r) => r.body))).not.toContain(`"${task.id}"`);
  });

  it('a spent call budget is a typed error the harness catches: it keeps its program and the episode fails on the verdict only', async () => {
    const { episode, requests } = await evaluate([{ content: fence(BROKEN) }], { calls: 1 });
    expect(requests).toHaveLength(1);
    expect(episode.failure).toBeUndefined();
    expect(episode.program).toBe(BROKEN);
    expect(episode.pass).toBe(false);
    const log = episode.trajectory.refinement?.log ?? [];
    expect(log.find((e) => e.op === 'refused')).toMatchObject({ resource: 'calls' });
  });

  it('a failed model call reaches the harness as ModelCallFailedError; self-verify keeps its program', async () => {
    const { episode } = await evaluate((_request, index) =>
      index === 0 ? { content: fence(BROKEN) } : { status: 500 },
    );
    expect(episode.failure).toBeUndefined();
    expect(episode.program).toBe(BROKEN);
    expect(episode.trajectory.refinement?.log.some((e) => e.action === 'call-failed')).toBe(true);
  });
});
