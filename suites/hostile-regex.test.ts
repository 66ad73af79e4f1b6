/**
 * A huge regex answer through the nl-rx suite machinery end to end: vitest runs a suite built from
 * the nl-rx spec, the real `openai` client talks HTTP to the scripted server, which answers one
 * task with a 40,000-character regex (V8: "Regular expression too large") and the others right.
 * The huge answer must be a model failure with a `too-complex` verdict — counted, not a harness
 * error — and the other episodes must be unaffected.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestModelServer, type TestModelServer } from '../testing/model-server.ts';
import { printEcmascript } from '../oracles/regex/ast.ts';
import { parseBrics } from '../oracles/regex/brics.ts';
import { loadNlRx } from '../oracles/regex/loader.ts';
import { readResultsFile } from '../reports/results-file.ts';
import { withoutSuiteData } from '../testing/child-env.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const TASKS = loadNlRx(join(root, 'fixtures/nl-rx'), { limit: 3 }).tasks;
const HUGE = 'a'.repeat(40_000);

let server: TestModelServer | undefined;
afterAll(() => server?.close());

/** Runs vitest in a child process (async: the scripted server answers from this one). */
function runVitest(
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--root', cwd], {
      cwd,
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('a huge regex answer in the nl-rx suite', () => {
  it('is an unsolved episode with a too-complex verdict, and the other episodes are unaffected', async () => {
    const [huge, ...others] = TASKS;
    const answers = new Map(TASKS.map((t) => [t.description, t === huge ? HUGE : printEcmascript(parseBrics(t.gold))]));
    server = await startTestModelServer((request) => {
      const messages = (request.body.messages ?? []) as { role: string; content: string }[];
      const first = messages.find((m) => m.role === 'user')?.content ?? '';
      const description = [...answers.keys()].find((d) => first.includes(`for: ${d}\n`));
      return {
        content: '```regex\n' + (description === undefined ? 'unknown task' : answers.get(description)) + '\n```',
      };
    });

    const dir = mkdtempSync(join(tmpdir(), 'witness-hostile-regex-'));
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `export default { test: { include: ['*.eval.ts'], execArgv: ['--enable-experimental-regexp-engine-on-excessive-backtracks'], reporters: ['default', ${JSON.stringify(join(root, 'reports/reporter.ts'))}] } };\n`,
    );
    writeFileSync(
      join(dir, 'hostile.eval.ts'),
      `import { defineBenchmark } from ${JSON.stringify(join(root, 'core/suite.ts'))};
import { pickStrategies } from ${JSON.stringify(join(root, 'strategies/index.ts'))};
import { loadConfig } from ${JSON.stringify(join(root, 'core/config.ts'))};
import { nlRxSpec } from ${JSON.stringify(join(root, 'oracles/regex/spec.ts'))};

const spec = nlRxSpec(loadConfig().config);
defineBenchmark({ ...spec, tasks: { tasks: spec.tasks.tasks.slice(0, ${TASKS.length}), issues: [] }, strategies: pickStrategies('zero-shot', 'diagnostic') });
`,
    );
    const env: NodeJS.ProcessEnv = {
      ...withoutSuiteData(),
      WITNESS_MODEL: 'scripted',
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-test',
      WITNESS_CACHE: 'off',
      WITNESS_MAX_RETRIES: '0',
      WITNESS_OUT: join(dir, 'out'),
      WITNESS_STORE: join(dir, 'store'),
      WITNESS_RUN_ID: 'hostile-regex',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    };
    const run = await runVitest(dir, env);
    // No harness error: every test passes whatever the model answered.
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);

    const { trajectories } = await readResultsFile(join(dir, 'out', 'results.json'));
    expect(trajectories).toHaveLength(TASKS.length * 2);
    const ofHuge = trajectories.filter((t) => t.taskId === huge!.id);
    expect(ofHuge.map((t) => t.outcome.status)).toEqual(['unsolved', 'unsolved']);
    for (const t of ofHuge) {
      expect(t.turns.length).toBeGreaterThan(0);
      for (const turn of t.turns) {
        expect(turn.verdict.pass).toBe(false);
        expect(turn.verdict.error?.kind).toBe('too-complex');
        expect(turn.verdict.error?.message.length).toBeLessThan(1_000);
      }
    }
    // The diagnostic strategy tells the model why, in a bounded message.
    const diagnostic = ofHuge.find((t) => t.strategy === 'diagnostic')!;
    expect(diagnostic.turns.length).toBeGreaterThan(1);
    expect(diagnostic.turns[0]?.feedback?.text).toMatch(/too large or complex to run/);
    for (const t of trajectories.filter((t) => others.some((o) => o.id === t.taskId))) {
      expect(t.outcome.status, `${t.taskId} · ${t.strategy}`).toBe('solved');
    }
  }, 120_000);
});
