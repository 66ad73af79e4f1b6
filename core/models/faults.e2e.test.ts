/**
 * Faults from the model endpoint, end to end: real vitest runs of a benchmark (NL-RX fixture tasks,
 * the regex oracle, zero-shot, diagnostic, HERO-T and Dynamic Cheatsheet) against the scripted
 * server over real HTTP with the response cache off. The server answers by the request's content
 * alone, like a model at temperature 0, so a run's results depend on what the harness asks and
 * nothing else. A run where 20 % of the attempts fault (every fault kind) with random delays, with
 * the default retry policy, and one with other delays and vitest running every test concurrently,
 * must both equal the fault-free run episode by episode: same replies, verdicts, outcomes, memory.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNlRx } from '../../oracles/regex/loader.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { readResultsFile } from '../../reports/results-file.ts';
import { Rng } from '../random.ts';
import type { Trajectory } from '../types.ts';
import { FAULT_KINDS, type FaultKind } from '../../testing/fault-schedule.ts';
import {
  startTestModelServer,
  type RecordedRequest,
  type ScriptedReply,
  type TestModelServer,
  type TestServerOptions,
} from '../../testing/model-server.ts';
import { withoutSuiteData } from '../../testing/child-env.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const TASKS = 12;
const dir = mkdtempSync(join(tmpdir(), 'witness-faults-'));
const servers: TestModelServer[] = [];

const digest = (text: string) => createHash('sha256').update(text).digest().readUInt32BE(0);
type Message = { role: string; content: string };

/**
 * The stand-in model: every reply is a function of the messages. Solving turns get the gold, one of
 * two wrong regexes, a reply without a program or an empty reply; the refiner executes, then keeps
 * or revises; the judge and the curator answer by hash. The cheatsheet is part of the solving
 * messages, so what the memory holds changes the answers.
 */
async function scriptedModel(): Promise<(request: RecordedRequest) => ScriptedReply> {
  const oracle = regexOracle();
  const tasks = loadNlRx(join(root, 'fixtures/nl-rx')).tasks.slice(0, TASKS);
  const programs = new Map<string, { description: string; answers: string[]; sources: string[] }>();
  for (const task of tasks) {
    const prepared = await oracle.prepare(task);
    const rng = new Rng(digest(task.id));
    const wrong = [
      oracle.simulator.mutate(prepared, task.gold, rng),
      oracle.simulator.mutate(prepared, task.gold, rng),
    ].filter((p): p is string => p !== null);
    const answers = [task.gold, ...wrong].map((p) => oracle.simulator.answer(prepared, p));
    programs.set(task.id, {
      description: task.description,
      answers,
      sources: answers.map((a) => a.replace(/^```regex\n|\n```$/g, '')),
    });
  }
  await oracle.dispose?.();
  const taskIn = (text: string) =>
    [...programs.values()]
      .filter((p) => text.includes(p.description))
      .sort((a, b) => b.description.length - a.description.length)[0];

  return (request) => {
    const messages = (request.body.messages ?? []) as Message[];
    const h = digest(JSON.stringify(messages));
    const system = messages[0]?.content ?? '';
    const user = messages.find((m) => m.role === 'user')?.content ?? '';
    if (system.startsWith('You maintain a cheatsheet')) {
      const current = /```cheatsheet\n([\s\S]*?)```/.exec(user)?.[1]?.trim() ?? '';
      const kept = current === '(empty)' ? '' : current;
      return {
        content:
          '```cheatsheet\n' + [kept, `- rule ${h % 5}: check the boundaries`].filter(Boolean).join('\n') + '\n```',
      };
    }
    if (system.startsWith('You review a proposed revision'))
      return { content: `Looks fine.\nVERDICT: ${h % 2 ? 'SUPPORTED' : 'UNSUPPORTED'}` };
    const task = taskIn(user);
    if (!task) return { content: 'I do not know this task.' };
    if (system.startsWith('You refine a program')) {
      if (!messages.some((m) => m.role === 'assistant')) return { content: '{"action": "execute"}' };
      if (h % 3 === 0) return { content: '{"action": "keep", "rationale": "the output looks right"}' };
      return {
        content: JSON.stringify({
          action: 'revise',
          rationale: 'the output shows a gap',
          program: task.sources[h % task.sources.length],
        }),
      };
    }
    const replies = [...task.answers, 'Here is my answer: it matches the lines described.', ''];
    return { content: replies[h % replies.length] as string };
  };
}

const EVAL = `import { defineBenchmark } from ${JSON.stringify(join(root, 'core/suite.ts'))};
import { pickStrategies } from ${JSON.stringify(join(root, 'strategies/index.ts'))};
import { dynamicCheatsheet, heroT } from ${JSON.stringify(join(root, 'strategies/hero/index.ts'))};
import { verifiedTrainExamples } from ${JSON.stringify(join(root, 'strategies/hero/examples.ts'))};
import { loadNlRx } from ${JSON.stringify(join(root, 'oracles/regex/loader.ts'))};
import { regexOracle } from ${JSON.stringify(join(root, 'oracles/regex/oracle.ts'))};

const oracle = regexOracle();
const tasks = { tasks: loadNlRx(${JSON.stringify(join(root, 'fixtures/nl-rx'))}).tasks.slice(0, ${TASKS}), issues: [] };
const examples = () => verifiedTrainExamples(tasks.tasks, oracle);
defineBenchmark({
  name: 'nl-rx',
  tasks,
  oracle,
  prompt: ${JSON.stringify(join(root, 'prompts/nl-rx.md'))},
  strategies: [...pickStrategies('zero-shot', 'diagnostic'), heroT({ examples }), dynamicCheatsheet()],
});
`;

/** One `vitest run` of the benchmark against a scripted server with the given faults and delays. */
async function runBenchmark(name: string, options: TestServerOptions, vitestOptions: Record<string, unknown> = {}) {
  const server = await startTestModelServer(await responder, options);
  servers.push(server);
  const project = join(dir, name);
  const reporter = join(root, 'reports/reporter.ts');
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'vitest.config.mjs'),
    `export default { test: ${JSON.stringify({ include: ['*.eval.ts'], reporters: ['default', reporter], testTimeout: 120_000, ...vitestOptions })} };\n`,
  );
  writeFileSync(join(project, 'faults.eval.ts'), EVAL);
  const env: NodeJS.ProcessEnv = { ...withoutSuiteData() };
  for (const key of Object.keys(env))
    if (key.startsWith('VITEST') || key.startsWith('WITNESS_') || key === 'TEST') delete env[key];
  Object.assign(env, {
    WITNESS_MODEL: 'scripted',
    OPENAI_BASE_URL: server.baseURL,
    WITNESS_CACHE: 'off',
    // The default retry policy (model.maxRetries, model.retryBudgetMs); attempts time out sooner than
    // the default minute so a hang costs the test 1.5 s.
    WITNESS_TIMEOUT_MS: '1500',
    WITNESS_CONCURRENCY: '8',
    WITNESS_OUT: join(project, 'out'),
    WITNESS_STORE: join(project, 'store'),
    WITNESS_RUN_ID: 'faults',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  });
  const vitest = join(root, 'node_modules/vitest/vitest.mjs');
  // Asynchronous: the scripted server answers from this process's event loop.
  const run = await new Promise<{ status: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', '--root', project], { cwd: project, env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (status) => resolve({ status, output }));
  });
  expect(run.status, run.output).toBe(0);
  const results = await readResultsFile(join(project, 'out', 'results.json'));
  return {
    trajectories: results.trajectories,
    faults: server.requests.flatMap((r) => (r.fault ? [r.fault] : [])),
    requests: server.requests.length,
  };
}

/** Trajectories in a fixed order without what measures time or names the server's port. */
function timeless(trajectories: readonly Trajectory[]): unknown {
  const sorted = [...trajectories].sort((a, b) =>
    `${a.taskId} ${a.strategy}`.localeCompare(`${b.taskId} ${b.strategy}`),
  );
  return JSON.parse(
    JSON.stringify(sorted, (key, value) => (/Ms$|^startedAt$|^timings$|^endpoint$/.test(key) ? undefined : value)),
  );
}

let responder: Promise<(request: RecordedRequest) => ScriptedReply>;
type Run = Awaited<ReturnType<typeof runBenchmark>>;
let clean: Run;
beforeAll(async () => {
  responder = scriptedModel();
  clean = await runBenchmark('clean', {});
}, 180_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('faults from the model endpoint', () => {
  it('the fault-free run is a real benchmark: every strategy, solved and unsolved episodes, a growing cheatsheet', () => {
    expect(clean.faults).toEqual([]);
    expect(clean.trajectories).toHaveLength(TASKS * 4);
    const statuses = new Set(clean.trajectories.map((t) => t.outcome.status));
    expect(statuses).toEqual(new Set(['solved', 'unsolved']));
    const cheatsheet = clean.trajectories.filter((t) => t.strategy === 'cheatsheet');
    const updates = cheatsheet
      .map((t) => t.refinement?.log.find((e) => e.action === 'memory')?.updates)
      .filter((u) => u !== undefined);
    expect(updates.length).toBeGreaterThan(TASKS / 2);
  });

  it('20 % faulted attempts of every kind, with random delays and the default retry policy, give the fault-free results episode by episode', async () => {
    const faulted = await runBenchmark('faulted', { faults: { seed: 1, rate: 0.2 }, delays: { seed: 1, maxMs: 40 } });
    const modelErrors = faulted.trajectories
      .filter((t) => t.outcome.status === 'model-error')
      .map((t) => `${t.taskId} · ${t.strategy}`);
    expect(modelErrors).toEqual([]);
    expect(timeless(faulted.trajectories)).toEqual(timeless(clean.trajectories));
    const counts = Object.fromEntries(
      FAULT_KINDS.map((kind) => [kind, faulted.faults.filter((f) => f === kind).length]),
    );
    expect(
      Object.values(counts).every((n) => n > 0),
      JSON.stringify(counts),
    ).toBe(true);
    expect(faulted.faults.length / faulted.requests).toBeGreaterThan(0.12);
  }, 180_000);

  it('the cheatsheet memory does not depend on reply latency, even when vitest runs every test concurrently and shuffled', async () => {
    const delayed = await runBenchmark(
      'delayed',
      { delays: { seed: 2, maxMs: 80 } },
      { sequence: { concurrent: true, shuffle: true, seed: 3 } },
    );
    const cheatsheet = (run: Run) => timeless(run.trajectories.filter((t) => t.strategy === 'cheatsheet'));
    expect(cheatsheet(delayed)).toEqual(cheatsheet(clean));
    expect(timeless(delayed.trajectories)).toEqual(timeless(clean.trajectories));
  }, 180_000);
});
