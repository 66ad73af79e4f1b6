/**
 * HERO-O's learned prompt as seed harnesses: the instructions read from learned.md or
 * hero-report.json (bad files are errors naming them), and through the binary with the scripted
 * OpenAI-compatible server: `--seed-prompt` adds seed-hero-o and seed-hero-o-verify, both
 * evaluated, and the first turn of their episodes carries the learned instructions (the server
 * records the requests) while the zero-shot seed's does not.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { withoutSuiteData } from '../../testing/child-env.ts';
import { startTestModelServer } from '../../testing/model-server.ts';
import { learnedPromptSeeds, readLearnedInstructions } from './seed-prompt.ts';
import { MetaHarnessStore } from './store.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'witness-mh-seed-prompt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RULE = 'Prefer explicit character classes over the dot, and anchor nothing.';
const LEARNED = `--- system ---\nYou write regular expressions.\n${RULE}\n--- user ---\n{{description}}\n`;
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('the learned instructions', () => {
  it('come from learned.md (its system section), hero-report.json (final.template) or a plain text', () => {
    expect(readLearnedInstructions(file('learned.md', LEARNED))).toBe(`You write regular expressions.\n${RULE}`);
    const report = file('hero-report.json', JSON.stringify({ schema: 'witness.hero-o', final: { template: LEARNED } }));
    expect(readLearnedInstructions(report)).toBe(`You write regular expressions.\n${RULE}`);
    expect(readLearnedInstructions(file('rules.txt', `  ${RULE}\n`))).toBe(RULE);
  });

  it('a file that is not a learned prompt is an error naming it', () => {
    expect(() => readLearnedInstructions(join(dir, 'missing.md'))).toThrow(
      /--seed-prompt .*missing\.md: cannot read it/,
    );
    expect(() => readLearnedInstructions(file('broken.json', '{'))).toThrow(/--seed-prompt .*broken\.json: not JSON/);
    expect(() => readLearnedInstructions(file('other.json', '{"final":{}}'))).toThrow(
      /other\.json: not a HERO-O report \(no final\.template string/,
    );
    expect(() =>
      readLearnedInstructions(file('empty.md', '--- system ---\n\n--- user ---\n{{description}}\n')),
    ).toThrow(/empty\.md: the learned prompt has no instructions/);
  });

  it('render two seeds that carry the instructions as one literal', () => {
    const seeds = learnedPromptSeeds('say "hi"\nthen `stop` ${x}', 'learned.md');
    expect(seeds.map((s) => s.name)).toEqual(['hero-o', 'hero-o-verify']);
    for (const s of seeds) {
      expect(s.source).toContain(`const LEARNED = ${JSON.stringify('say "hi"\nthen `stop` ${x}')};`);
      expect(s.source).toContain('ctx.model.answer({ system: LEARNED })');
    }
    expect(seeds[1]?.source).toContain('ctx.exec.observe(program)');
  });
});

describe('witness optimize meta-harness --seed-prompt, with the scripted server', () => {
  it("evaluates seed-hero-o and seed-hero-o-verify, whose first turn carries HERO-O's instructions", async () => {
    const server = await startTestModelServer([{ content: '```regex\n[a-z]+\n```' }]);
    try {
      const out = join(dir, 'out');
      const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
        const env = withoutSuiteData(process.env, { WITNESS_CONFIG: undefined });
        for (const name of Object.keys(env)) if (name.startsWith('WITNESS_')) delete env[name];
        const child = spawn(
          process.execPath,
          [
            join(root, 'bin/witness.js'),
            'optimize',
            'meta-harness',
            '--suite',
            'nl-rx',
            '--seeds',
            'zero-shot',
            '--seed-prompt',
            join(dir, 'learned.md'),
            '--iterations',
            '1',
            '--candidates',
            '1',
            '--limit',
            '3',
            '--out',
            out,
          ],
          {
            cwd: root,
            env: {
              ...env,
              WITNESS_MODEL: 'scripted',
              OPENAI_BASE_URL: server.baseURL,
              OPENAI_API_KEY: 'k',
              WITNESS_CACHE: 'off',
              WITNESS_MAX_RETRIES: '0',
            },
          },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (code) => done({ code, stdout, stderr }));
      });
      expect(run.code, run.stderr).toBe(0);
      const runId = readdirSync(join(out, 'meta-harness')).find((n) => !n.endsWith('.heldout')) as string;
      const store = new MetaHarnessStore(out, runId);
      const rows = store.readEvolution();
      for (const id of ['seed-zero-shot', 'seed-hero-o', 'seed-hero-o-verify'])
        expect(rows.find((r) => r.id === id)?.outcome, id).toBe('evaluated');
      expect(store.readProposal('seed-hero-o').mechanism).toBe('seed: zero-shot over the learned prompt');

      // Every request's system message; the learned rule is in the first turn of the hero-o seeds only.
      const system = (body: Record<string, unknown>) =>
        ((body.messages as { role: string; content: string }[]).find((m) => m.role === 'system')?.content ??
          '') as string;
      const carrying = server.requests.filter((r) => system(r.body).includes(RULE));
      // hero-o and hero-o-verify: 3 search tasks each (plus smoke runs and held-out episodes).
      expect(carrying.length).toBeGreaterThanOrEqual(6);
      // Their first turn is the suite's seed prompt with the learned instructions added.
      for (const r of carrying) expect(system(r.body)).toMatch(/regular expression/i);
      const trace = (id: string) =>
        JSON.stringify(
          store.listTraces(id).map((t) => readFileSync(join(store.candidateDir(id), 'traces', `${t}.json`), 'utf8')),
        );
      expect(trace('seed-hero-o')).toContain(RULE);
      expect(trace('seed-hero-o-verify')).toContain(RULE);
      expect(trace('seed-zero-shot')).not.toContain(RULE);
    } finally {
      await server.close();
    }
  }, 120_000);
});
