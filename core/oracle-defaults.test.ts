/**
 * An oracle of one's own from a name and a check alone, through a real episode: the `openai` client
 * over HTTP to the scripted server, the default extractor and renderer; no request to a real model
 * carries the sim's context (the gold), and the sim refuses an oracle without its hooks by name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pickStrategies } from '../strategies/index.ts';
import { runEpisode } from './episode.ts';
import { DEFAULT_HARDENING } from './hardening.ts';
import type { ChatModel, ChatRequest } from './models/model.ts';
import { createSimModel } from './models/sim.ts';
import { startTestModelServer, type TestModelServer, scriptedModel } from '../testing/model-server.ts';
import { defineOracle, fencedOrWholeReply } from './oracle-defaults.ts';
import type { OracleDefinition } from './oracle.ts';
import { inlinePrompt } from './prompt.ts';
import type { Task, Witness } from './types.ts';

/** A JSON answer checked field by field against the gold object: the whole oracle. */
const jsonFields: OracleDefinition = {
  name: 'json-fields',
  async check(prepared, candidate) {
    const gold = JSON.parse(prepared.task.gold) as Record<string, unknown>;
    let answer: unknown;
    try {
      answer = JSON.parse(candidate.source);
    } catch (error) {
      const message = (error as Error).message;
      return { pass: false, cases: [], witnesses: [], error: { kind: 'syntax', message }, timings: { totalMs: 0 } };
    }
    const got = (answer ?? {}) as Record<string, unknown>;
    const witnesses: Witness[] = Object.keys(gold)
      .filter((field) => JSON.stringify(got[field]) !== JSON.stringify(gold[field]))
      .map((field) => ({
        kind: 'field',
        label: `field ${field}`,
        input: field,
        expected: gold[field] as string,
        actual: (got[field] ?? null) as string,
        size: 1,
      }));
    return { pass: witnesses.length === 0, cases: [], witnesses, timings: { totalMs: 0 } };
  },
};

const task: Task = {
  id: 'paris',
  benchmark: 'capitals',
  description: 'the capital of France, as a JSON object with fields city and country',
  gold: '{"city":"Paris","country":"France"}',
};
const prompt = inlinePrompt('--- user ---\nAnswer with {{description}}.');

let server: TestModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The HTTP model, keeping every request the episode hands it. */
function recorded(model: ChatModel): { model: ChatModel; requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return { model: { info: model.info, complete: (r) => (requests.push(r), model.complete(r)) }, requests };
}

async function episode(model: ChatModel) {
  const oracle = defineOracle(jsonFields);
  const [strategy] = pickStrategies('diagnostic');
  const prepared = await oracle.prepare(task);
  return runEpisode({
    runId: 'r',
    oracle,
    prepared,
    strategy: strategy!,
    model,
    prompt,
    budget: 3,
    trial: 0,
    seed: 1,
    hardening: DEFAULT_HARDENING,
  });
}

describe('an oracle defined by a name and a check', () => {
  it('runs an episode: a wrong field is a witness the model is shown, and the fix solves it', async () => {
    server = await startTestModelServer([
      { content: 'Here:\n```json\n{"city": "Lyon", "country": "France"}\n```' },
      { content: '{"city": "Paris", "country": "France"}' },
    ]);
    const http = scriptedModel(server, { concurrency: 1 });
    const { model, requests } = recorded(http);
    const t = await episode(model);
    expect(t.outcome.status).toBe('solved');
    expect(t.turns.map((turn) => turn.candidate?.extraction)).toEqual(['code-block', 'whole-reply']);
    expect(t.turns[0]!.verdict.witnesses.map((w) => w.label)).toEqual(['field city']);
    expect(t.turns[0]!.feedback?.text).toContain('field city: input "city", expected "Paris", got "Lyon"');
    expect(t.turns[0]!.feedback?.text).toContain('```text block');
    expect(requests).toHaveLength(2);
    for (const request of requests) expect(Object.keys(request)).not.toContain('sim');
    // The model sees the gold's values only as the counterexample's expected value, never the gold itself.
    expect(JSON.stringify(server.requests[0]!.body)).not.toContain('Paris');
    for (const sent of server.requests)
      for (const message of sent.body.messages as { content: string }[])
        expect(message.content).not.toContain(task.gold);
  });

  it('is refused by the sim, which needs hooks this oracle does not offer', async () => {
    await expect(episode(createSimModel({ seed: 1 }))).rejects.toThrow(
      "the sim model answers from the gold through the oracle's simulator, and oracle json-fields offers none",
    );
  });

  it('extracts the code block, else the whole reply, else nothing', () => {
    expect(fencedOrWholeReply('a\n```js\nx\n```\nb\n```text\ny\n```', 'text')).toEqual({
      source: 'y',
      extraction: 'code-block',
    });
    expect(fencedOrWholeReply('  42 \n', 'text')).toEqual({ source: '42', extraction: 'whole-reply' });
    expect(fencedOrWholeReply(' \n ', 'text')).toBeNull();
    expect(fencedOrWholeReply('```text\n\n```', 'text')).toBeNull();
  });

  it('leaves a complete oracle as it is', async () => {
    const { regexOracle } = await import('../oracles/regex/oracle.ts');
    const regex = regexOracle();
    expect(defineOracle(regex)).toBe(regex);
  });
});
