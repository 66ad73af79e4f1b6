/** HERO-O end to end: the real openai client against the scripted server, the real regex oracle. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestModelServer,
  type RecordedRequest,
  type TestModelServer,
  scriptedModel,
} from '../../testing/model-server.ts';
import { createSimModel } from '../../core/models/sim.ts';
import { inlinePrompt, loadPrompt } from '../../core/prompt.ts';
import type { Task } from '../../core/types.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { optimizePrompt, DEFAULT_HERO } from './optimize.ts';
import { drawPools } from '../../strategies/hero/pools.ts';

const WORDS = [
  'quokka',
  'axolotl',
  'narwhal',
  'pangolin',
  'okapi',
  'tapir',
  'dugong',
  'wombat',
  'ibex',
  'kinkajou',
  'fossa',
  'saiga',
  'gharial',
  'markhor',
  'serval',
  'jerboa',
];
const tasks: Task[] = WORDS.map((word, i) => ({
  id: String(i + 1),
  benchmark: 'hero-test',
  description: `lines containing the string '${word}'`,
  gold: `.*${word}.*`,
  context: { dialect: 'ecmascript' },
}));
const seedPrompt = inlinePrompt(
  '--- system ---\nYou write regular expressions.\n--- user ---\nWrite a {{dialect}} regex for: {{description}}\nAnswer in a ```regex block.\n',
);
const reflectPrompt = loadPrompt(new URL('../../prompts/hero/reflect.md', import.meta.url).pathname);
const oracle = regexOracle();
const pools = drawPools(tasks, { seed: 3, trainFraction: 0.75 });
const leakyWord = /'([a-z]+)'/.exec(pools.diagnosis[0]!.description)![1]!;

/** The scripted model: a reflector that proposes a leaky, a good and a useless rule; a task model that needs RULE-X. */
function script(request: RecordedRequest) {
  const messages = request.body.messages as { role: string; content: string }[];
  const all = messages.map((m) => m.content).join('\n');
  if (all.includes('Propose')) {
    return {
      content: [
        "```prompt\nYou write regular expressions. Remember the string '" + leakyWord + "'.\n```",
        '```prompt\nYou write regular expressions. RULE-X: a line "containing" a string matches it anywhere: surround it with .*\n```',
        '```prompt\nYou write regular expressions. Be concise.\n```',
      ].join('\n'),
    };
  }
  const word = /'([a-z]+)'/.exec(messages.at(-1)?.content ?? '')?.[1] ?? 'x';
  return { content: all.includes('RULE-X') ? '```regex\n.*' + word + '.*\n```' : '```regex\n' + word + '\n```' };
}

let server: TestModelServer;
beforeAll(async () => {
  server = await startTestModelServer(script);
});
afterAll(async () => server.close());

describe('HERO-O', () => {
  it('rejects leaks, adopts a rule that fixes the update pool, rejects a useless one, and selects the learned prompt', async () => {
    const model = scriptedModel(server, { concurrency: 4 });
    const result = await optimizePrompt({
      benchmark: 'hero-test',
      tasks,
      oracle,
      seedPrompt,
      model,
      reflector: model,
      reflectPrompt,
      options: {
        ...DEFAULT_HERO,
        rounds: 2,
        candidates: 3,
        seed: 3,
        trainFraction: 0.75,
        acceptance: { margin: 0, firstSlice: 2 },
      },
    });
    expect(result.pools.sharedSelection).toBe(false);
    expect(
      new Set([...result.pools.diagnosis, ...result.pools.update, ...result.pools.selection, ...result.pools.test])
        .size,
    ).toBe(16);
    const [first, second] = result.rounds;
    expect(first!.diagnosisPassRate).toBe(0);
    expect(first!.candidates.map((c) => c.outcome)).toEqual(['rejected-leak', 'adopted', 'rejected']);
    expect(first!.candidates[0]!.leaks).toEqual([leakyWord]);
    const adopted = first!.candidates[1]!.decision!;
    expect(adopted).toMatchObject({ adopt: true, reason: 'interval above margin', breaks: 0 });
    expect(adopted.steps.map((s) => s.evaluated)).toEqual([2, 4]);
    const useless = first!.candidates[2]!.decision!;
    expect(useless.adopt).toBe(false);
    expect(useless.steps.map((s) => s.evaluated)).toEqual([2, 4]);
    expect(useless.reason).toMatch(/pool exhausted: mean 0.000/);
    expect(first!.adoptedIndex).toBe(1);
    expect(first!.cumulative.fixes).toBe(adopted.fixes);
    expect(second!.diagnosisPassRate).toBe(1);
    expect(result.final.source).toMatch(/^archive 0 \(round 1\)/);
    expect(result.final.template).toContain('RULE-X');
    expect(result.final.template).toContain('{{description}}');
    expect(result.final.selectionPasses[0]).toEqual({
      hash: result.final.hash,
      passes: result.pools.selection.length,
      of: result.pools.selection.length,
    });
    expect(result.verifiedExamples.length).toBeGreaterThan(0);
    expect(result.verifiedExamples.every((e) => !result.pools.test.includes(e.taskId))).toBe(true);
    expect(result.calls.reflector.count).toBe(2);
    expect(result.calls.reflector.meanPerCall).toBeGreaterThan(0);
    expect(result.privilegedNotice).toBeNull();
  });

  it('runs mechanically with the sim model and says its numbers mean nothing', async () => {
    const sim = createSimModel({ seed: 1 });
    const result = await optimizePrompt({
      benchmark: 'hero-test',
      tasks,
      oracle,
      seedPrompt,
      model: sim,
      reflector: sim,
      reflectPrompt,
      options: { ...DEFAULT_HERO, rounds: 1, candidates: 2, seed: 3 },
    });
    expect(result.privilegedNotice).toMatch(/mean nothing about prompt quality/);
    expect(result.rounds[0]!.candidates).toHaveLength(2);
    expect(result.rounds[0]!.candidates.every((c) => c.outcome !== 'adopted')).toBe(true);
  });
});
