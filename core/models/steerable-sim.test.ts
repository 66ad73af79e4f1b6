/** The steerable sim on the real regex and SQL oracles and fixtures: rules steer it, observed errors get repaired. */
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { runEpisode } from '../episode.ts';
import { bindSimulator, type PreparedTask, type SimulatedOracle } from '../oracle.ts';
import { inlinePrompt, loadPrompt, renderPrompt, type PromptTemplate } from '../prompt.ts';
import type { ChatMessage, Task } from '../types.ts';
import { loadNlRx } from '../../oracles/regex/loader.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { REGEX_STEERING } from '../../oracles/regex/steering.ts';
import { BIRD_FIXTURES, loadBird } from '../../oracles/sql/loader.ts';
import { sqlOracle } from '../../oracles/sql/oracle.ts';
import { SQL_STEERING } from '../../oracles/sql/steering.ts';
import { heroT, reactRefiner } from '../../strategies/hero/index.ts';
import { zeroShot } from '../../strategies/zero-shot.ts';
import type { Strategy } from '../strategy.ts';
import { createModel } from './create.ts';
import type { ChatModel, SimContext } from './model.ts';
import { createSimModel } from './sim.ts';
import { createSteerableSimModel, STEERABLE_SIM_NAME } from './steerable-sim.ts';

const root = new URL('../../', import.meta.url).pathname;
const regex = regexOracle() as unknown as SimulatedOracle<PreparedTask>;
const sql = sqlOracle({ ves: false }) as unknown as SimulatedOracle<PreparedTask>;
afterAll(async () => {
  await regex.dispose?.();
  await sql.dispose?.();
});
const regexTasks = loadNlRx(new URL('../../fixtures/nl-rx', import.meta.url).pathname).tasks;
const birdTasks = loadBird(BIRD_FIXTURES).tasks;
const nlRxPrompt = loadPrompt(`${root}prompts/nl-rx.md`);
const birdPrompt = loadPrompt(`${root}prompts/bird.md`);
/** The seed prompt with extra instruction lines at the end of its system section. */
const withRules = (seed: PromptTemplate, lines: string[]) =>
  inlinePrompt(seed.text.replace('--- user ---', `${lines.join('\n')}\n--- user ---`));

const preparedCache = new Map<string, Promise<PreparedTask>>();
const prepare = (oracle: SimulatedOracle<PreparedTask>, task: Task) => {
  const key = `${oracle.name}:${task.id}`;
  if (!preparedCache.has(key)) preparedCache.set(key, oracle.prepare(task));
  return preparedCache.get(key) as Promise<PreparedTask>;
};

/** Share of zero-shot episodes solved over every task × seed. */
async function passRate(
  oracle: SimulatedOracle<PreparedTask>,
  tasks: Task[],
  prompt: PromptTemplate,
  seeds: number[],
  model: ChatModel = createSteerableSimModel({ seed: 1 }),
  strategy: Strategy = zeroShot,
) {
  let solved = 0;
  for (const task of tasks) {
    const prepared = await prepare(oracle, task);
    for (const seed of seeds) {
      const t = await runEpisode({
        runId: 't',
        oracle,
        prepared,
        strategy,
        model,
        prompt,
        budget: 1,
        trial: 0,
        seed,
        hardening: null,
      });
      if (t.outcome.status === 'solved') solved++;
    }
  }
  return solved / (tasks.length * seeds.length);
}

function context(oracle: SimulatedOracle<PreparedTask>, prepared: PreparedTask, seed: number): SimContext {
  return { episodeKey: `k${seed}`, simulator: bindSimulator(oracle, prepared), seed, disclosures: [], phase: 'solve' };
}

describe('the steerable sim on the regex fixture suite', () => {
  const seeds = [1, 2, 3];

  it('passes clearly more often (by at least 40 points) with every rule in the prompt than without', async () => {
    const without = await passRate(regex, regexTasks, nlRxPrompt, seeds);
    const withAll = await passRate(
      regex,
      regexTasks,
      withRules(
        nlRxPrompt,
        REGEX_STEERING.classes.map((c) => c.rule),
      ),
      seeds,
    );
    expect(withAll - without).toBeGreaterThanOrEqual(0.4);
  });

  it('passes more often with one rule (paraphrased) and less often with a harmful rule', async () => {
    const without = await passRate(regex, regexTasks, nlRxPrompt, seeds);
    const paraphrase = 'Keep each element in sequence as the statement orders them.';
    const helped = await passRate(regex, regexTasks, withRules(nlRxPrompt, [paraphrase]), seeds);
    const harmed = await passRate(regex, regexTasks, withRules(nlRxPrompt, [REGEX_STEERING.harmful[0]!.text]), seeds);
    expect(helped - without).toBeGreaterThanOrEqual(0.05);
    expect(without - harmed).toBeGreaterThanOrEqual(0.05);
  });

  it('is deterministic by seed, and a different seed gives different first answers', async () => {
    const answers = async (seed: number) => {
      const model = createSteerableSimModel({ seed });
      const out: string[] = [];
      for (const task of regexTasks.slice(0, 12)) {
        const prepared = await prepare(regex, task);
        const messages = renderPrompt(nlRxPrompt, { description: task.description, dialect: 'brics' });
        out.push((await model.complete({ messages, trial: 0, sim: context(regex, prepared, 5) })).content);
      }
      return out;
    };
    expect(await answers(1)).toEqual(await answers(1));
    expect(await answers(2)).not.toEqual(await answers(1));
  });

  it('repairs a compile error when the conversation shows what the observer reported, and only then', async () => {
    // Only the syntax class can make a mistake: every other rule is in the prompt with ruleFactor 0.
    const others = REGEX_STEERING.classes.filter((c) => !c.failsToRun).map((c) => c.rule);
    const prompt = withRules(nlRxPrompt, others);
    const task = regexTasks[0]!;
    const prepared = await prepare(regex, task);
    const make = (repairRate: number) =>
      createSteerableSimModel({ seed: 1, mistakeRate: 1, ruleFactor: 0, repairRate });
    const first: ChatMessage[] = renderPrompt(prompt, { description: task.description, dialect: 'ecmascript' });
    const sim = context(regex, prepared, 9);
    const model = make(1);
    const broken = (await model.complete({ messages: first, trial: 0, sim })).content;
    const candidate = regex.extract(broken)!;
    expect((await regex.check(prepared, candidate)).error?.kind).toBe('syntax');
    const observation = await regex.observer!.observe(prepared, candidate);
    const shown = [...first, { role: 'assistant' as const, content: broken }];
    const silent = await model.complete({
      messages: [...shown, { role: 'user', content: 'Check your answer.' }],
      trial: 0,
      sim,
    });
    expect(silent.content).toBe(broken);
    const errorMessage = `Running it gave: ${observation.error!.message}`;
    // Another conversation of the same episode key in between (another prompt, side by side) does not disturb it.
    const everyRule = renderPrompt(
      withRules(
        nlRxPrompt,
        REGEX_STEERING.classes.map((c) => c.rule),
      ),
      { description: task.description, dialect: 'ecmascript' },
    );
    const other = await model.complete({ messages: everyRule, trial: 0, sim });
    expect(other.content).not.toBe(broken);
    const repaired = await model.complete({
      messages: [...shown, { role: 'user', content: errorMessage }],
      trial: 0,
      sim,
    });
    expect((await regex.check(prepared, regex.extract(repaired.content)!)).pass).toBe(true);
    const stubborn = make(0);
    const again = await stubborn.complete({ messages: first, trial: 0, sim });
    expect(
      (
        await stubborn.complete({
          messages: [...first, { role: 'assistant', content: again.content }, { role: 'user', content: errorMessage }],
          trial: 0,
          sim,
        })
      ).content,
    ).toBe(again.content);
  });

  it('as a refiner (ReAct, HERO-T) executes its program and revises the compile errors it observed', async () => {
    const others = REGEX_STEERING.classes.filter((c) => !c.failsToRun).map((c) => c.rule);
    const prompt = withRules(nlRxPrompt, others);
    const tasks = regexTasks.slice(0, 12);
    const onlySyntax = () => createSteerableSimModel({ seed: 1, mistakeRate: 1, ruleFactor: 0, repairRate: 1 });
    expect(await passRate(regex, tasks, prompt, [1], onlySyntax())).toBe(0);
    expect(await passRate(regex, tasks, prompt, [1], onlySyntax(), reactRefiner())).toBe(1);
    // HERO-T's judge is the plain sim's coin: some repairs pass its gate, none is made up.
    const gated = await passRate(regex, tasks, prompt, [1], onlySyntax(), heroT());
    expect(gated).toBeGreaterThan(0);
    // Without an error to repair it keeps the program: no rule-free mistake is undone by refinement.
    const withoutErrors = createSteerableSimModel({ seed: 1, mistakeRate: 1, ruleFactor: 1, repairRate: 1 });
    const syntaxRule = withRules(nlRxPrompt, [REGEX_STEERING.classes.find((c) => c.failsToRun)!.rule]);
    expect(await passRate(regex, tasks, syntaxRule, [1], withoutErrors, reactRefiner())).toBeLessThanOrEqual(
      await passRate(regex, tasks, syntaxRule, [1], withoutErrors),
    );
  });

  it('answers auxiliary calls mechanically, falls back to the plain sim without a catalog, and needs an episode', async () => {
    const model = createSteerableSimModel({ seed: 1 });
    const judge = await model.complete({
      messages: [{ role: 'user', content: 'judge this' }],
      trial: 0,
      purpose: 'judge',
    });
    expect(judge.content).toMatch(/VERDICT: (SUPPORTED|UNSUPPORTED)/);
    await expect(model.complete({ messages: [{ role: 'user', content: 'x' }], trial: 0 })).rejects.toThrow(
      /only answers inside a Witness episode/,
    );
    const task = regexTasks[3]!;
    const prepared = await prepare(regex, task);
    const { steering: _s, mutateOfClass: _m, ...uncatalogued } = bindSimulator(regex, prepared);
    const messages = renderPrompt(nlRxPrompt, { description: task.description, dialect: 'brics' });
    const sim = { ...context(regex, prepared, 3), simulator: uncatalogued };
    const plain = createSimModel({ seed: 1, neighbourhood: 8 });
    expect((await model.complete({ messages, trial: 0, sim })).content).toBe(
      (await plain.complete({ messages, trial: 0, sim })).content,
    );
  });

  it('is chosen by the config as `sim-steerable`, privileged, and its settings are validated with their source', () => {
    const { config } = loadConfig(root, { WITNESS_MODEL: STEERABLE_SIM_NAME });
    const model = createModel(config, {});
    expect(model.info).toEqual({ name: 'sim-steerable', privileged: true, seed: 1 });
    expect(config.sim).toMatchObject({ mistakeRate: 0.3, ruleFactor: 0.1, harmFactor: 3, repairRate: 0.9 });
    expect(() => createSteerableSimModel({ seed: 1, harmFactor: 0.5 })).toThrow(
      /harmFactor must be a number of at least 1/,
    );
    expect(() => createSteerableSimModel({ seed: 1, ruleFactor: 2 })).toThrow(/ruleFactor must be between 0 and 1/);
  });
});

describe('the steerable sim on the BIRD fixture suite', () => {
  it('passes more often with the rules in the prompt (by at least 30 points) and less often with a harmful one', async () => {
    const seeds = [1];
    const without = await passRate(sql, birdTasks, birdPrompt, seeds);
    const helped = await passRate(
      sql,
      birdTasks,
      withRules(
        birdPrompt,
        SQL_STEERING.classes.map((c) => c.rule),
      ),
      seeds,
    );
    const harmed = await passRate(sql, birdTasks, withRules(birdPrompt, [SQL_STEERING.harmful[1]!.text]), seeds);
    expect(helped - without).toBeGreaterThanOrEqual(0.3);
    expect(without - harmed).toBeGreaterThanOrEqual(0.1);
  });

  it('misspells a column so that the query fails to run, and repairs it from the observed error', async () => {
    const others = SQL_STEERING.classes.filter((c) => !c.failsToRun).map((c) => c.rule);
    const task = birdTasks[0]!;
    const prepared = await prepare(sql, task);
    const model = createSteerableSimModel({ seed: 1, mistakeRate: 1, ruleFactor: 0, repairRate: 1 });
    const first = renderPrompt(withRules(birdPrompt, others), {
      description: task.description,
      schema: '',
      evidence: '',
      dialect: 'SQLite',
    });
    const sim = context(sql, prepared, 4);
    const broken = (await model.complete({ messages: first, trial: 0, sim })).content;
    const observation = await sql.observer!.observe(prepared, sql.extract(broken)!);
    expect(observation.ok).toBe(false);
    expect(observation.error!.message).toMatch(/no such column/);
    const repaired = await model.complete({
      messages: [
        ...first,
        { role: 'assistant', content: broken },
        { role: 'user', content: `Error: ${observation.error!.message}` },
      ],
      trial: 0,
      sim,
    });
    expect((await sql.check(prepared, sql.extract(repaired.content)!)).pass).toBe(true);
  });
});
