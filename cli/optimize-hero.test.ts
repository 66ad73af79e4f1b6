/**
 * `witness optimize hero` end to end through the binary, on the regex and SQL suites, with the real
 * openai client talking HTTP to the scripted server: a task model that needs a rule to be right, a
 * reflector that proposes a leaky, a useful and a useless revision.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestModelServer, type RecordedRequest, type TestModelServer } from '../testing/model-server.ts';
import { printEcmascript } from '../oracles/regex/ast.ts';
import { parseBrics } from '../oracles/regex/brics.ts';
import type { HeroResult } from '../optimizers/hero/optimize.ts';
import type { HeroSplitFile } from '../optimizers/hero/split-file.ts';
import { loadConfig } from '../core/config.ts';
import { withoutSuiteData } from '../testing/child-env.ts';
import { buildSplitFile } from '../optimizers/hero/split-protocol.ts';
import { heroSources } from './hero-sources.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bird = JSON.parse(readFileSync(join(root, 'fixtures/bird/dev.json'), 'utf8')) as {
  question: string;
  SQL: string;
}[];
const nlrxSrc = readFileSync(join(root, 'fixtures/nl-rx/src.txt'), 'utf8').trimEnd().split('\n');
const nlrxTarg = readFileSync(join(root, 'fixtures/nl-rx/targ.txt'), 'utf8').trimEnd().split('\n');
const RULE = 'RULE-7: restate every constraint of the statement before writing the program.';
// The CLI draws its pools the same way (HERO's split, seed 1, train fraction 0.75): quote a diagnosis question whole.
const birdSources = await heroSources('bird', loadConfig(root, {}).config);
const birdSplit = buildSplitFile('bird', birdSources, { seed: 1, evaluationFraction: 0.25 });
const birdDiagnosis = birdSources.optimization.tasks.find((t) => t.id === birdSplit.pools.diagnosis[0])!.description;
const nlrxSources = await heroSources('nl-rx', loadConfig(root, {}).config);
const nlrxSplit = buildSplitFile('nl-rx', nlrxSources, { seed: 1, evaluationFraction: 0.25 });
const nlrxDiagnosis = nlrxSources.optimization.tasks.find((t) => t.id === nlrxSplit.pools.diagnosis[0])!.description;

/** The right program when the instructions carry the rule, a wrong one otherwise. */
function answer(request: RecordedRequest): string {
  const messages = request.body.messages as { role: string; content: string }[];
  const all = messages.map((m) => m.content).join('\n');
  if (all.includes('Propose')) {
    return [
      '```prompt\nYou write programs. Remember "' + birdDiagnosis + '" and "' + nlrxDiagnosis + "\" and 'dog'.\n```",
      '```prompt\nYou write programs carefully. ' + RULE + '\n```',
      '```prompt\nYou write programs. Be brief.\n```',
    ].join('\n');
  }
  const user = messages.at(-1)?.content ?? '';
  const knows = all.includes('RULE-7');
  const question = bird.find((q) => user.includes(`Question: ${q.question}`));
  if (question) return '```sql\n' + (knows ? question.SQL : 'SELECT 1') + '\n```';
  const line = nlrxSrc.findIndex((d) => user.includes(`for: ${d}`));
  if (line >= 0)
    return (
      '```regex\n' + (knows ? printEcmascript(parseBrics(nlrxTarg[line] as string)) : 'nothing-like-this') + '\n```'
    );
  return 'I do not know.';
}

let server: TestModelServer;
beforeAll(async () => {
  server = await startTestModelServer((request) => ({ content: answer(request) }));
});
afterAll(async () => server.close());

function optimize(suite: string, out: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        join(root, 'bin/witness.js'),
        'optimize',
        'hero',
        '--suite',
        suite,
        '--rounds',
        '2',
        '--candidates',
        '3',
        '--first-slice',
        '4',
        '--train-fraction',
        '0.75',
        '--out',
        out,
        '--split-file',
        join(out, 'drawn-split.json'),
      ],
      {
        cwd: root,
        env: {
          ...withoutSuiteData(process.env, { WITNESS_CONFIG: undefined }),
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
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('witness optimize hero', () => {
  for (const suite of ['nl-rx', 'bird']) {
    it(`learns the useful rule on the ${suite} suite, rejecting the leak and the useless revision`, async () => {
      const out = mkdtempSync(join(tmpdir(), `witness-hero-${suite}-`));
      const run = await optimize(suite, out);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/learned prompt: .*learned\.md \(archive 0 \(round 1\)\)/);
      const report = JSON.parse(readFileSync(join(out, 'hero-report.json'), 'utf8')) as HeroResult;
      const round = report.rounds[0]!;
      expect(round.candidates.map((c) => c.outcome)).toEqual(['rejected-leak', 'adopted', 'rejected']);
      expect(round.cumulative.fixes).toBeGreaterThan(0);
      expect(round.cumulative.breaks).toBe(0);
      expect(report.final.template).toContain(RULE);
      expect(readFileSync(join(out, 'learned.md'), 'utf8')).toBe(report.final.template);
      expect(readFileSync(join(out, 'hero-report.md'), 'utf8')).toMatch(/\*\*rejected-leak\*\* — leaks /);
      expect(report.verifiedExamples.length).toBeGreaterThan(0);
      expect(report.privilegedNotice).toBeNull();
      // The split file was absent, so it was drawn and written; the run records the same split.
      expect(run.stderr).toMatch(/split file: .*drawn-split\.json \(written\)/);
      const split = JSON.parse(readFileSync(join(out, 'drawn-split.json'), 'utf8')) as HeroSplitFile;
      expect(JSON.parse(readFileSync(join(out, 'split.json'), 'utf8'))).toEqual(split);
      expect(report.pools.diagnosis).toEqual(split.pools.diagnosis);
      expect(report.pools.test).toEqual(split.pools.evaluation);
    }, 120_000);
  }

  it('names the known suites when asked for an unknown one', async () => {
    const run = await optimize('nope', mkdtempSync(join(tmpdir(), 'witness-hero-')));
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/unknown suite "nope" \(known: .*bird.*nl-rx/);
  });
});
