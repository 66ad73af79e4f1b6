/**
 * HERO-O under the steerable sim: the real regex and SQL oracles on the fixture suites, the real
 * openai client against the scripted server as the reflector, the steerable sim as the task model.
 * The reflector proposes one helpful revision (the catalog's rules) and one harmful one; HERO-O
 * must adopt the first, reject the second and end with a cumulative fix-to-break ratio above 1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIModel } from '../../core/models/openai.ts';
import { createSteerableSimModel } from '../../core/models/steerable-sim.ts';
import { startTestModelServer, type TestModelServer } from '../../testing/model-server.ts';
import type { Oracle, PreparedTask } from '../../core/oracle.ts';
import { loadPrompt, type PromptTemplate } from '../../core/prompt.ts';
import type { SteeringCatalog } from '../../core/steering.ts';
import type { Task } from '../../core/types.ts';
import { loadNlRx } from '../../oracles/regex/loader.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { REGEX_STEERING } from '../../oracles/regex/steering.ts';
import { BIRD_FIXTURES, loadBird } from '../../oracles/sql/loader.ts';
import { sqlOracle } from '../../oracles/sql/oracle.ts';
import { SQL_STEERING } from '../../oracles/sql/steering.ts';
import { DEFAULT_HERO, optimizePrompt } from './optimize.ts';
import { renderHeroReport } from './report.ts';
import { instructionsOf } from './template.ts';

const root = new URL('../../', import.meta.url).pathname;
const reflectPrompt = loadPrompt(`${root}prompts/hero/reflect.md`);

/** Reflector replies: the current instructions plus every helpful rule, and plus every harmful rule. */
function revisions(seed: PromptTemplate, catalog: SteeringCatalog) {
  const base = instructionsOf(seed);
  return {
    helpful: [base, ...catalog.classes.map((c) => `- ${c.rule}`)].join('\n'),
    harmful: [base, ...catalog.harmful.map((h) => `- ${h.text}`)].join('\n'),
  };
}

let server: TestModelServer;
let proposals: { helpful: string; harmful: string } = { helpful: '', harmful: '' };
beforeAll(async () => {
  server = await startTestModelServer(() => ({
    content: '```prompt\n' + proposals.helpful + '\n```\n\n```prompt\n' + proposals.harmful + '\n```',
  }));
});
afterAll(async () => server.close());

async function runHero(benchmark: string, tasks: Task[], oracle: Oracle<PreparedTask>, seedPrompt: PromptTemplate) {
  const reflector = createOpenAIModel({
    model: 'scripted-reflector',
    baseURL: server.baseURL,
    apiKey: 'k',
    timeoutMs: 5000,
    maxRetries: 0,
    concurrency: 2,
  });
  return optimizePrompt({
    benchmark,
    tasks,
    oracle,
    seedPrompt,
    model: createSteerableSimModel({ seed: 1 }),
    reflector,
    reflectPrompt,
    options: { ...DEFAULT_HERO, rounds: 1, candidates: 2, seed: 2, trainFraction: 0.8 },
  });
}

describe.each([
  {
    family: 'regex (NL-RX fixture)',
    catalog: REGEX_STEERING,
    tasks: () => loadNlRx(`${root}fixtures/nl-rx`).tasks,
    oracle: () => regexOracle() as unknown as Oracle<PreparedTask>,
    prompt: `${root}prompts/nl-rx.md`,
  },
  {
    family: 'SQL (BIRD fixture)',
    catalog: SQL_STEERING,
    tasks: () => loadBird(BIRD_FIXTURES).tasks,
    oracle: () => sqlOracle({ ves: false }) as unknown as Oracle<PreparedTask>,
    prompt: `${root}prompts/bird.md`,
  },
])('HERO-O under the steerable sim, $family', ({ catalog, tasks, oracle: makeOracle, prompt }) => {
  const oracle = makeOracle();
  afterAll(() => oracle.dispose?.());

  it('adopts the helpful revision, rejects the harmful one, reports a fix-to-break ratio above 1 and says the model is steerable', async () => {
    const seedPrompt = loadPrompt(prompt);
    proposals = revisions(seedPrompt, catalog);
    const result = await runHero('steerable', tasks(), oracle, seedPrompt);
    const round = result.rounds[0]!;
    expect(round.reflectorError).toBeUndefined();
    const [helpful, harmful] = round.candidates;
    expect(helpful).toMatchObject({ outcome: 'adopted' });
    expect(helpful!.decision!.fixes).toBeGreaterThan(helpful!.decision!.breaks);
    expect(harmful).toMatchObject({ outcome: 'rejected' });
    expect(harmful!.decision!.breaks).toBeGreaterThan(harmful!.decision!.fixes);
    expect(round.adoptedIndex).toBe(0);
    expect(round.cumulative.fixes).toBeGreaterThan(round.cumulative.breaks);
    expect(round.cumulative.ratio).toBeGreaterThan(1);
    expect(instructionsOf({ ...seedPrompt, text: result.final.template })).toContain(catalog.classes[0]!.rule);
    expect(result.final.source).toBe('archive 0 (round 1)');
    const passes = (hash: string) => result.final.selectionPasses.find((s) => s.hash === hash)!.passes;
    expect(passes(result.final.hash)).toBeGreaterThan(passes(result.seed.hash));
    expect(result.privilegedNotice).toMatch(/privileged steerable sim/);
    const report = renderHeroReport(result);
    expect(report).toContain(`**${result.privilegedNotice}**`);
    expect(report).toMatch(new RegExp(`\\| ${round.cumulative.fixes} / ${round.cumulative.breaks} \\(`));
  });
});
