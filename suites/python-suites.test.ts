/**
 * The dscodebench and bigcodebench suites end to end: `vitest run --project bench` with the sim
 * model, the reporter's table, results.json and the run store. DSCodeBench runs on a
 * subset of its fixtures (six tasks, scipy and scikit-learn among them, through WITNESS_DSCODEBENCH_DATA) to keep this test short; `npm run bench` runs
 * them all. Then the bigcodebench suite against the scripted OpenAI-compatible server (real HTTP)
 * answering with a program too deep for CPython and with an output bomb.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startTestModelServer, type RecordedRequest } from '../testing/model-server.ts';
import { readResultsFile } from '../reports/results-file.ts';
import { withoutSuiteData } from '../testing/child-env.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const STRATEGIES = [
  'zero-shot',
  'generic',
  'error-only',
  'one-example',
  'three-example',
  'diagnostic',
  'cheatsheet',
  'hero-t',
  'react',
];

function bench(suite: string, extraEnv: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), `witness-${suite}-`));
  const env: NodeJS.ProcessEnv = {
    ...withoutSuiteData(),
    WITNESS_OUT: join(dir, 'out'),
    WITNESS_STORE: join(dir, 'store'),
    WITNESS_RUN_ID: `${suite}-e2e`,
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    ...extraEnv,
  };
  delete env.WITNESS_MODEL;
  const run = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'bench', `suites/${suite}.eval.ts`],
    {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 240_000,
    },
  );
  return { run, dir };
}

describe('the Python benchmark suites on the sim model', () => {
  it('bigcodebench: every fixture task × every strategy (A-CEGIS grid, HERO-T and baselines), per-test cases, no harness errors', async () => {
    const { run, dir } = bench('bigcodebench');
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    expect(run.stdout).toMatch(/bigcodebench · sim \(privileged\)/);
    for (const strategy of STRATEGIES) expect(run.stdout).toMatch(new RegExp(`│ ${strategy} +│ +27 │`));
    const results = await readResultsFile(join(dir, 'out', 'results.json'));
    expect(results.trajectories).toHaveLength(27 * STRATEGIES.length);
    expect(results.trajectories.every((t) => t.model.privileged && t.outcome.status !== 'harness-error')).toBe(true);
    const first = results.trajectories.find((t) => t.taskId === 'WitnessBCB/9' && t.strategy === 'diagnostic');
    expect(first?.caseIds).toEqual(['test_empty', 'test_even_median', 'test_multimode_smallest', 'test_simple']);
    const byStrategy = (name: string) => results.summary.find((row) => row.strategy === name);
    expect(byStrategy('diagnostic')!.passFinal.value!).toBeGreaterThanOrEqual(
      byStrategy('zero-shot')!.passFinal.value!,
    );
    expect(byStrategy('diagnostic')!.pass1.value).toBe(byStrategy('zero-shot')!.pass1.value);
  }, 240_000);

  it('dscodebench: 200 seeded cases per task, hardening after success, no harness errors', async () => {
    const all = readFileSync(join(root, 'fixtures/dscodebench/dscodebench.jsonl'), 'utf8').trim().split('\n');
    const subset = all.filter((line) => /"problem_id": "witness_(std_00[23]|np_001|pd_007|sp_001|sk_001)"/.test(line));
    expect(subset).toHaveLength(6);
    const data = join(mkdtempSync(join(tmpdir(), 'witness-ds-subset-')), 'subset.jsonl');
    writeFileSync(data, `${subset.join('\n')}\n`);
    const { run, dir } = bench('dscodebench', { WITNESS_DSCODEBENCH_DATA: data });
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    expect(run.stdout).toMatch(/dscodebench · sim \(privileged\)/);
    for (const strategy of STRATEGIES) expect(run.stdout).toMatch(new RegExp(`│ ${strategy} +│ +6 │`));
    const results = await readResultsFile(join(dir, 'out', 'results.json'));
    expect(results.trajectories).toHaveLength(6 * STRATEGIES.length);
    expect(results.trajectories.every((t) => t.outcome.status !== 'harness-error' && t.caseIds.length >= 200)).toBe(
      true,
    );
    const solved = results.trajectories.filter((t) => t.outcome.status === 'solved');
    expect(solved.length).toBeGreaterThan(0);
    expect(solved.every((t) => t.outcome.hardening && t.outcome.hardening.probesRun > 0)).toBe(true);
    const failedTurn = results.trajectories
      .flatMap((t) => t.turns)
      .find((turn) => !turn.verdict.pass && turn.verdict.witnesses.length > 0);
    expect(failedTurn?.verdict.witnesses.length).toBeLessThanOrEqual(2);
    expect(failedTurn?.verdict.witnesses[0]).toMatchObject({
      kind: 'failing-input',
      expected: expect.any(String),
      actual: expect.any(String),
    });
  }, 240_000);
});

describe('hostile answers through the bigcodebench suite, from a model over HTTP', () => {
  it('a program of 100,000 nested parentheses is too-complex, a print bomb too-large; both unsolved, the other task solved', async () => {
    const rows = readFileSync(join(root, 'fixtures/bigcodebench/bigcodebench.jsonl'), 'utf8').trim().split('\n');
    const pick = (id: string) =>
      JSON.parse(rows.find((line) => line.includes(`"task_id": "${id}"`)) as string) as {
        task_id: string;
        instruct_prompt: string;
        code_prompt: string;
        canonical_solution: string;
      };
    const [deep, bomb, plain] = [pick('WitnessBCB/0'), pick('WitnessBCB/7'), pick('WitnessBCB/9')];
    const data = join(mkdtempSync(join(tmpdir(), 'witness-bcb-hostile-')), 'tasks.jsonl');
    writeFileSync(data, `${[deep, bomb, plain].map((t) => JSON.stringify(t)).join('\n')}\n`);
    const nested = `${'('.repeat(100_000)}1${')'.repeat(100_000)}`;
    // 200 KB; the 5 MB variant behaves the same (the oracles' own tests run one) but makes a 260 MB results.json.
    const huge = `def task_func(text):\n    return ${nested}\n`;
    const flood = "def task_func(text):\n    while True:\n        print('z' * 65536)\n";
    const fence = (program: string) => `Here it is:\n\`\`\`python\n${program}\`\`\`\n`;
    const said = (request: RecordedRequest, task: { instruct_prompt: string }) =>
      JSON.stringify(request.body).includes(JSON.stringify(task.instruct_prompt.slice(0, 60)).slice(1, -1));
    const server = await startTestModelServer((request) => ({
      content: said(request, deep)
        ? fence(huge)
        : said(request, bomb)
          ? fence(flood)
          : fence(plain.code_prompt + plain.canonical_solution),
    }));
    let child: ReturnType<typeof spawn> | undefined;
    try {
      const dir = mkdtempSync(join(tmpdir(), 'witness-bcb-hostile-run-'));
      const env: NodeJS.ProcessEnv = {
        ...withoutSuiteData(),
        WITNESS_OUT: join(dir, 'out'),
        WITNESS_STORE: join(dir, 'store'),
        WITNESS_RUN_ID: 'bcb-hostile',
        NO_COLOR: '1',
        FORCE_COLOR: '0',
        WITNESS_BIGCODEBENCH_DATA: data,
        WITNESS_MODEL: 'scripted',
        OPENAI_BASE_URL: server.baseURL,
        OPENAI_API_KEY: 'k',
        WITNESS_CACHE: 'off',
        WITNESS_MAX_RETRIES: '0',
      };
      const run = spawn(
        process.execPath,
        [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'bench', 'suites/bigcodebench.eval.ts'],
        { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = run;
      let output = '';
      run.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
      run.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
      const status = await new Promise<number | null>((resolve) => run.on('exit', resolve));
      child = undefined;
      expect(status, output.slice(-3000)).toBe(0);
      expect(server.requests.length).toBeGreaterThan(0);
      const results = await readResultsFile(join(dir, 'out', 'results.json'));
      expect(results.trajectories).toHaveLength(3 * STRATEGIES.length);
      expect(
        results.trajectories.every((t) => t.outcome.status !== 'harness-error' && t.outcome.status !== 'model-error'),
      ).toBe(true);
      const kinds = (id: string) =>
        new Set(
          results.trajectories
            .filter((t) => t.taskId === id)
            .flatMap((t) =>
              t.turns.filter((turn) => turn.phase === 'solve').map((turn) => turn.verdict.error?.kind ?? 'none'),
            ),
        );
      const outcomes = (id: string) =>
        new Set(results.trajectories.filter((t) => t.taskId === id).map((t) => t.outcome.status));
      expect(kinds(deep.task_id)).toEqual(new Set(['too-complex']));
      expect(outcomes(deep.task_id)).toEqual(new Set(['unsolved']));
      expect(kinds(bomb.task_id)).toEqual(new Set(['too-large']));
      expect(outcomes(bomb.task_id)).toEqual(new Set(['unsolved']));
      expect(outcomes(plain.task_id)).toEqual(new Set(['solved']));
      const feedback = results.trajectories.find((t) => t.taskId === bomb.task_id && t.strategy === 'diagnostic')
        ?.turns[0]?.feedback?.text;
      expect(feedback).toMatch(/too much output: printed more than 16 MiB to stdout/);
    } finally {
      child?.kill('SIGKILL');
      await server.close();
    }
  }, 240_000);
});
