/** The configured proposer: the proposer model at the configured endpoint, behind the response cache; the command; none with the sim. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../core/config.ts';
import { startTestModelServer } from '../../../testing/model-server.ts';
import { configuredProposer } from './configured.ts';
import { DEFAULT_SKILL_FILE } from './skill.ts';
import { seededStore } from '../../../testing/meta-harness/seeded-store.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('configuredProposer', () => {
  it('runs the agent on the proposer model, and a repeated iteration is answered from the cache', async () => {
    const server = await startTestModelServer([
      { content: '{"action":"list","path":"candidates"}' },
      { content: '{"action":"done"}' },
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'witness-mh-configured-'));
    cleanups.push(
      () => server.close(),
      () => rmSync(dir, { recursive: true, force: true }),
    );
    const env = {
      WITNESS_MODEL: 'task-model',
      WITNESS_PROPOSER_MODEL: 'proposer-model',
      WITNESS_PROPOSER_MAX_STEPS: '3',
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'k',
      WITNESS_CACHE_PATH: join(dir, 'cache.sqlite'),
    };
    const { config } = loadConfig(dir, env);
    const iterate = async () => {
      const made = configuredProposer(config, { env });
      if (!made) throw new Error('expected a proposer');
      const { store, cleanup } = seededStore(['c1-a']);
      cleanups.push(cleanup);
      try {
        return await made.proposer.propose({
          iteration: 1,
          k: 1,
          store,
          skillFile: DEFAULT_SKILL_FILE,
          candidateIds: ['c1-a'],
        });
      } finally {
        await made.close();
      }
    };
    const first = await iterate();
    expect(server.requests.map((r) => r.body.model)).toEqual(['proposer-model', 'proposer-model', 'proposer-model']);
    const second = await iterate();
    expect(server.requests).toHaveLength(3);
    const cached = (second.transcript as { type: string; cached?: boolean }[]).filter((e) => e.type === 'step');
    expect(cached.map((e) => e.cached)).toEqual([true, true, true]);
    expect(first.transcript.at(-1)).toMatchObject({ reason: 'done', steps: 3 });
  }, 30_000);

  it('gives the command when one is set, with the configured timeout, and nothing with only the sim', async () => {
    const { config } = loadConfig(mkdtempSync(join(tmpdir(), 'witness-mh-configured-')), {
      WITNESS_PROPOSER_TIMEOUT_S: '0.3',
    });
    expect(configuredProposer(config)).toBeNull();
    const made = configuredProposer(config, { command: 'sleep 20' });
    expect(made?.proposer.name).toBe('external');
    const { store, cleanup } = seededStore(['c1-a']);
    cleanups.push(cleanup);
    const { transcript } = await (made?.proposer.propose({
      iteration: 1,
      k: 1,
      store,
      skillFile: DEFAULT_SKILL_FILE,
      candidateIds: ['c1-a'],
    }) ?? Promise.reject(new Error('no proposer')));
    expect(transcript[0]).toMatchObject({ timedOut: true });
  }, 20_000);
});
