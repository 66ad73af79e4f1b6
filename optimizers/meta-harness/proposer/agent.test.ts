/**
 * The agent proposer driven through whole iterations by the scripted OpenAI-compatible server
 * (real HTTP, the openai client): every tool, refusals, a malformed reply, a broken and a good
 * candidate (then validated for real), the step cap, a premature done and a failing endpoint.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { meteredModel, SpendLedger } from '../../../core/budget.ts';
import { createOpenAIModel } from '../../../core/models/openai.ts';
import { createSimModel } from '../../../core/models/sim.ts';
import { startTestModelServer, type Script, type TestModelServer } from '../../../testing/model-server.ts';
import { regexOracle } from '../../../oracles/regex/oracle.ts';
import { REGEX_PROMPT, REGEX_TASKS } from '../../../testing/meta-harness/support.ts';
import { validateHarness } from '../validate.ts';
import { agentProposer, type AgentTranscriptEntry } from './agent.ts';
import { DEFAULT_SKILL_FILE } from './skill.ts';
import { SEED_ID, seededStore } from '../../../testing/meta-harness/seeded-store.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(script: Script, candidateIds: string[]) {
  const server: TestModelServer = await startTestModelServer(script);
  const { store, cleanup } = seededStore(candidateIds);
  cleanups.push(cleanup, () => server.close());
  const model = createOpenAIModel({
    model: 'scripted-proposer',
    baseURL: server.baseURL,
    apiKey: 'k',
    timeoutMs: 5000,
    maxRetries: 0,
    concurrency: 1,
  });
  return { server, store, model };
}

const act = (value: object) => ({ content: JSON.stringify(value) });
const steps = (transcript: unknown[]) =>
  (transcript as AgentTranscriptEntry[]).filter(
    (e): e is Extract<AgentTranscriptEntry, { type: 'step' }> => e.type === 'step',
  );
const end = (transcript: unknown[]) =>
  (transcript as AgentTranscriptEntry[]).find((e) => e.type === 'end') as Extract<
    AgentTranscriptEntry,
    { type: 'end' }
  >;

const GOOD = `import { defineHarness } from 'witness-harness';

export default defineHarness({
  name: 'rule-anchored',
  async solve(ctx) {
    const { program } = await ctx.model.answer({ system: 'Match whole lines; prefer the simplest pattern.' });
    return { program };
  },
});
`;
const BROKEN = `import { readFileSync } from 'node:fs';
import { defineHarness } from 'witness-harness';

export default defineHarness({
  name: 'reads-files',
  async solve(ctx) {
    ctx.log(readFileSync('/etc/hostname', 'utf8'));
    const { program } = await ctx.model.answer();
    return { program };
  },
});
`;

describe('agent proposer over the scripted server', () => {
  it('runs a whole iteration: tools, refusals, a malformed reply, a broken and a good candidate', async () => {
    const ids = ['c1-a', 'c1-b'];
    const script = [
      act({ action: 'list', path: '.' }),
      act({ action: 'read', path: `candidates/${SEED_ID}/harness.ts`, offset: 2, limit: 3 }),
      act({ action: 'grep', pattern: 'passAtFinal', path: 'candidates' }),
      act({ action: 'read', path: '../run-1.heldout/results.json' }),
      act({ action: 'read', path: '/etc/passwd' }),
      { content: 'Let me look at the frontier next, I think.' },
      act({ action: 'write', path: 'candidates/c1-b/harness.ts', content: GOOD }),
      act({
        action: 'write',
        path: 'proposer/1/report.md',
        content: '# Iteration 0\nThe seed fails on t2: a syntax error.\n',
      }),
      act({ action: 'write', path: `candidates/${SEED_ID}/harness.ts`, content: GOOD }),
      act({ action: 'write', path: 'candidates/c1-b/scores.json', content: '{}' }),
      act({ action: 'write', path: 'candidates/c1-a/harness.ts', content: BROKEN }),
      act({ action: 'write', path: 'candidates/c1-a/proposal.json', content: '{"hypothesis":"read notes"' }),
      {
        content:
          '```json\n' +
          JSON.stringify({ action: 'write', path: 'candidates/c1-b/harness.ts', content: GOOD }) +
          '\n```',
      },
      act({
        action: 'write',
        path: 'candidates/c1-b/proposal.json',
        content: JSON.stringify({ hypothesis: 'a whole-line rule', parent: SEED_ID, mechanism: 'prompt rule' }),
      }),
      act({ action: 'done' }),
    ];
    const { server, store, model } = await setup(script, ids);
    const ledger = new SpendLedger(mkdtempSync(join(tmpdir(), 'witness-mh-ledger-')));
    cleanups.push(() => rmSync(ledger.dir, { recursive: true, force: true }));
    const proposer = agentProposer({ model: meteredModel(model, { ledger, budget: {} }) });
    expect(proposer.simulated).toBe(false);
    const { transcript } = await proposer.propose({
      iteration: 1,
      k: 2,
      store,
      skillFile: DEFAULT_SKILL_FILE,
      candidateIds: ids,
    });
    const s = steps(transcript);
    expect(s).toHaveLength(script.length);
    expect(server.requests).toHaveLength(script.length);
    const observation = (i: number) => s[i]?.observation ?? '';
    expect(observation(0)).toMatch(/candidates\/\n/);
    expect(observation(0)).toMatch(/frontier\.json \(\d+ bytes\)/);
    expect(observation(1)).toMatch(/lines 2-4 of \d+/);
    expect(observation(1)).toMatch(/^2: /m);
    expect(observation(1)).not.toMatch(/^1: /m);
    expect(observation(1)).toMatch(/\[more: read with offset 5\]/);
    expect(observation(2)).toMatch(`candidates/${SEED_ID}/scores.json:1:`);
    expect(observation(3)).toMatch(/^error: .*outside the folder "run-1"/);
    expect(observation(3)).not.toMatch(/held-out/);
    expect(observation(4)).toMatch(/^error: .*outside/);
    expect(observation(5)).toMatch(/^error: the reply holds no JSON object/);
    expect(s[5]?.action).toBeNull();
    expect(observation(6)).toMatch(/report on the last iteration to proposer\/1\/report\.md first/);
    expect(observation(7)).toMatch(/^wrote proposer\/1\/report\.md/);
    expect(observation(8)).toMatch(
      /writes go only into this iteration's candidate folders \(candidates\/c1-a\/, candidates\/c1-b\//,
    );
    expect(observation(9)).toMatch(/scores\.json is written by the search/);
    expect(observation(12)).toMatch(/^wrote candidates\/c1-b\/harness\.ts/);
    // Each observation reaches the model in the next request.
    const lastUser = (i: number) => {
      const messages = server.requests[i]?.body.messages as { role: string; content: string }[];
      return messages.at(-1)?.content ?? '';
    };
    expect(lastUser(4)).toMatch(/Observation \(step 4 of 40\):\nerror: .*outside/);
    expect((server.requests[0]?.body.messages as { content: string }[])[0]?.content).toMatch(/# Meta-Harness proposer/);
    // The seed was not touched; the candidates' proposals were completed.
    expect(store.readHarness(SEED_ID)).not.toMatch(/rule-anchored/);
    expect(store.readProposal('c1-b')).toEqual({
      id: 'c1-b',
      iteration: 1,
      parent: SEED_ID,
      hypothesis: 'a whole-line rule',
      mechanism: 'prompt rule',
      proposer: 'agent',
    });
    expect(store.readProposal('c1-a').hypothesis).toBe('(not given by the proposer)');
    const finish = end(transcript);
    expect(finish.reason).toBe('done');
    expect(finish.candidates.find((c) => c.id === 'c1-a')?.notes.join('\n')).toMatch(
      /proposal\.json is not valid JSON/,
    );
    // The transcript is stored in the store, whole.
    const stored = JSON.parse(readFileSync(join(store.proposerDir(1), 'agent.json'), 'utf8')) as unknown[];
    expect(stored).toEqual(transcript);
    // Spend went through the meter under its own purpose.
    expect(ledger.total().calls).toBe(script.length);
    // The search's validation tells the broken candidate from the good one.
    const validate = (id: string) =>
      validateHarness({
        harnessFile: join(store.candidateDir(id), 'harness.ts'),
        oracle: regexOracle(),
        pool: REGEX_TASKS,
        model: createSimModel({ seed: 1 }),
        prompt: REGEX_PROMPT,
      });
    const [broken, good] = await Promise.all([validate('c1-a'), validate('c1-b')]);
    expect(broken.valid).toBe(false);
    expect(broken.problems.join('\n')).toMatch(/node:fs/);
    expect(good.problems).toEqual([]);
    expect(good.valid).toBe(true);
  }, 60_000);

  it('runs two iterations: the second reads the results of the first and copies its candidate', async () => {
    const ids1 = ['c1-a'];
    const script: Script = (request) => {
      const messages = request.body.messages as { content: string }[];
      const iteration = /^Iteration (\d+)/.exec(messages[1]?.content ?? '')?.[1];
      const step = (messages.length - 2) / 2;
      const first = [
        act({ action: 'write', path: 'proposer/1/report.md', content: 'seed: one failure\n' }),
        act({ action: 'write', path: 'candidates/c1-a/harness.ts', content: GOOD }),
        act({
          action: 'write',
          path: 'candidates/c1-a/proposal.json',
          content: JSON.stringify({ hypothesis: 'rule', parent: SEED_ID, mechanism: 'prompt rule' }),
        }),
        act({ action: 'done' }),
      ];
      const second = [
        act({ action: 'read', path: 'reports/iteration-1.md' }),
        act({ action: 'write', path: 'proposer/2/report.md', content: 'c1-a gained\n' }),
        act({ action: 'read', path: 'candidates/c1-a/harness.ts', limit: 1000 }),
        act({
          action: 'write',
          path: 'candidates/c2-a/harness.ts',
          content: GOOD.replace('rule-anchored', 'rule-anchored-2'),
        }),
        act({
          action: 'write',
          path: 'candidates/c2-a/proposal.json',
          content: JSON.stringify({ hypothesis: 'more', parent: 'c1-a', mechanism: 'verification' }),
        }),
        act({ action: 'done' }),
      ];
      return (iteration === '1' ? first : second)[step] ?? act({ action: 'done' });
    };
    const { server, store, model } = await setup(script, ids1);
    const proposer = agentProposer({ model });
    const one = await proposer.propose({
      iteration: 1,
      k: 1,
      store,
      skillFile: DEFAULT_SKILL_FILE,
      candidateIds: ids1,
    });
    expect(end(one.transcript).reason).toBe('done');
    // What the search does between iterations: evaluate, report, pre-create the next folders.
    store.writeScores('c1-a', { passAtFinal: 1, meanTokens: 90, meanCalls: 1, meanTimeMs: 10, tasks: [] });
    store.writeReport(1, '# Iteration 1\nc1-a: Pass@final 1.00 (+0.50)\n');
    mkdirSync(store.candidateDir('c2-a'));
    const two = await proposer.propose({
      iteration: 2,
      k: 1,
      store,
      skillFile: DEFAULT_SKILL_FILE,
      candidateIds: ['c2-a'],
    });
    const s = steps(two.transcript);
    expect((server.requests[4]?.body.messages as { content: string }[])[1]?.content).toMatch(
      /the last iteration's short report is reports\/iteration-1\.md/,
    );
    expect(s[0]?.observation).toMatch(/Pass@final 1\.00/);
    expect(s[2]?.observation).toMatch(/rule-anchored/);
    expect(end(two.transcript)).toMatchObject({ reason: 'done', steps: 6 });
    expect(store.readProposal('c2-a')).toMatchObject({ iteration: 2, parent: 'c1-a', mechanism: 'verification' });
    expect(readFileSync(join(store.proposerDir(2), 'report.md'), 'utf8')).toBe('c1-a gained\n');
    expect(existsSync(join(store.proposerDir(1), 'agent.json'))).toBe(true);
    expect(existsSync(join(store.proposerDir(2), 'agent.json'))).toBe(true);
  }, 30_000);

  it('ends a looping agent at the step cap, eliding old observations, and stores the transcript', async () => {
    const { server, store, model } = await setup([act({ action: 'read', path: 'frontier.json' })], ['c1-a']);
    const proposer = agentProposer({ model, maxSteps: 6, maxContextChars: 6000 });
    const { transcript } = await proposer.propose({
      iteration: 1,
      k: 1,
      store,
      skillFile: DEFAULT_SKILL_FILE,
      candidateIds: ['c1-a'],
    });
    expect(server.requests).toHaveLength(6);
    expect(steps(transcript)).toHaveLength(6);
    expect(end(transcript)).toMatchObject({ reason: 'step-cap', steps: 6 });
    expect(end(transcript).candidates).toEqual([{ id: 'c1-a', written: false, notes: ['no harness.ts was written'] }]);
    expect(steps(transcript).flatMap((e) => e.elided ?? []).length).toBeGreaterThan(0);
    const last = server.requests.at(-1)?.body.messages as { content: string }[];
    expect(last.some((m) => /step 1\): \[elided/.test(m.content))).toBe(true);
    expect(last.at(-1)?.content).toMatch(/step 5 of 6[\s\S]*1 step left/);
    expect(existsSync(join(store.proposerDir(1), 'agent.json'))).toBe(true);
    expect(existsSync(join(store.candidateDir('c1-a'), 'proposal.json'))).toBe(false);
  }, 30_000);

  it('warns once on a done with candidates missing, then ends', async () => {
    const { server, store, model } = await setup([act({ action: 'done' })], ['c1-a']);
    const { transcript } = await agentProposer({ model }).propose({
      iteration: 2,
      k: 1,
      store,
      skillFile: DEFAULT_SKILL_FILE,
      candidateIds: ['c1-a'],
    });
    expect(server.requests).toHaveLength(2);
    expect(steps(transcript)[0]?.observation).toMatch(/not done yet: no harness\.ts in candidates\/c1-a\//);
    expect(end(transcript)).toMatchObject({ reason: 'done', steps: 2 });
  }, 30_000);

  it('stops on a spent run budget: the transcript is stored and the error reaches the search', async () => {
    const { store, model } = await setup([act({ action: 'list', path: '.' })], ['c1-a']);
    const ledger = new SpendLedger(mkdtempSync(join(tmpdir(), 'witness-mh-ledger-')));
    cleanups.push(() => rmSync(ledger.dir, { recursive: true, force: true }));
    const proposer = agentProposer({ model: meteredModel(model, { ledger, budget: { tokens: 1 } }) });
    await expect(
      proposer.propose({ iteration: 1, k: 1, store, skillFile: DEFAULT_SKILL_FILE, candidateIds: ['c1-a'] }),
    ).rejects.toThrow(/the run's budget is spent/);
    const stored = JSON.parse(readFileSync(join(store.proposerDir(1), 'agent.json'), 'utf8')) as unknown[];
    expect(end(stored)).toMatchObject({ reason: 'budget', steps: 1 });
  }, 30_000);

  it('ends the iteration when the endpoint fails, keeping what was done', async () => {
    const { store, model } = await setup(
      [act({ action: 'list', path: 'candidates' }), { status: 400, errorMessage: 'context length exceeded' }],
      ['c1-a'],
    );
    const { transcript } = await agentProposer({ model }).propose({
      iteration: 1,
      k: 1,
      store,
      skillFile: DEFAULT_SKILL_FILE,
      candidateIds: ['c1-a'],
    });
    const error = (transcript as AgentTranscriptEntry[]).find((e) => e.type === 'model-error');
    expect(error).toMatchObject({ step: 2 });
    expect(JSON.stringify(error)).toMatch(/context length exceeded/);
    expect(end(transcript)).toMatchObject({ reason: 'model-error', steps: 1 });
    expect(existsSync(join(store.proposerDir(1), 'agent.json'))).toBe(true);
  }, 30_000);
});
