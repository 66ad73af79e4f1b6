/**
 * Hostile candidates against the protocol the host owns, each in a real sandboxed child on real
 * regex tasks with the sim: a forged completion followed by idling or by a flood of output (the
 * episode ends at once, the host reads nothing more), messages nested 100,000 levels deep in a log
 * entry and in the completion's memory, a line over the cap, a flood of lines, a job folder filled
 * to its cap, a write to the console's private stream, a harness that never calls answer(). Each
 * misbehaviour is the candidate's failure with a named kind, its trace stays serializable, and no
 * process or folder is left behind.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimModel } from '../../core/models/sim.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import type { HarnessBudgets, SandboxLimits } from '../../strategies/harness/budgets.ts';
import { evaluateHarness } from './evaluate.ts';
import type { HarnessFailureKind } from '../../strategies/harness/failure.ts';
import {
  REGEX_PROMPT as prompt,
  REGEX_TASKS as tasks,
  sandboxLeftovers,
  sandboxTempFolder,
  writeHarness,
} from '../../testing/meta-harness/support.ts';

const oracle = regexOracle();
const folder = sandboxTempFolder('witness-hostile-protocol-');

/** The child's own stdout, reached the way a candidate would (the static check rejects this; the runtime must hold anyway). */
const STDOUT = 'const out = (globalThis as any).process.stdout;';
/** A load of node:fs at run time (the compiler cannot refuse a computed name; the sandbox allows writes under /job). */
const LOADER = 'const load = (name: string): Promise<any> => import([name][0] as string);';
// 100,000 levels in 200 KB: under the log budget, far over what a recursive serializer survives.
const DEEP = 100_000;
const deepArray = `'['.repeat(${DEEP}) + ']'.repeat(${DEEP})`;

const evaluate = (file: string, budgets?: Partial<HarnessBudgets>, limits?: Partial<SandboxLimits>) =>
  evaluateHarness({
    harnessFile: file,
    oracle,
    tasks,
    model: createSimModel({ seed: 3 }),
    prompt,
    ...(budgets ? { budgets } : {}),
    ...(limits ? { limits } : {}),
    concurrency: 2,
  });

interface Case {
  name: string;
  body: string;
  header?: string;
  kind: HarnessFailureKind;
  reason: RegExp;
  limits?: Partial<SandboxLimits>;
}

const CASES: Case[] = [
  {
    name: 'deep-log',
    header: STDOUT,
    body: `    out.write('{"type":"log","entry":{"a":' + ${deepArray} + '}}\\n');\n    await new Promise((r) => setTimeout(r, 2000));`,
    kind: 'protocol',
    reason: /nested more than 64 levels deep/,
  },
  {
    name: 'deep-done',
    header: STDOUT,
    body: `    out.write('{"type":"done","program":null,"rationale":"","memory":{"a":' + ${deepArray} + '}}\\n');\n    await new Promise((r) => setTimeout(r, 2000));`,
    kind: 'protocol',
    reason: /nested more than 64 levels deep/,
  },
  {
    name: 'oversized-line',
    header: STDOUT,
    body: "    out.write('x'.repeat(2 * 1024 * 1024));\n    await new Promise((r) => setTimeout(r, 2000));",
    kind: 'oversize',
    reason: /a message longer than 1048576 bytes/,
  },
  {
    name: 'floods-lines',
    header: STDOUT,
    body: "    const line = JSON.stringify({ type: 'hello', pad: 'x'.repeat(512 * 1024) }) + '\\n';\n    for (;;) { out.write(line); await new Promise((r) => setTimeout(r, 0)); }",
    kind: 'oversize',
    reason: /more than 8388608 bytes of output in one episode/,
  },
  {
    name: 'fills-job-folder',
    header: LOADER,
    body: "    const fs = await load('node:fs');\n    for (let i = 0; ; i++) fs.writeFileSync(`/job/filler-${i}`, new Uint8Array(4 * 1024 * 1024));",
    kind: 'oversize',
    reason: /ENOSPC/,
    limits: { jobBytes: 16 * 1024 * 1024 },
  },
  {
    name: 'console-private-stream',
    body: "    (console as any)._stdout.write('not a protocol line\\n');\n    await new Promise((r) => setTimeout(r, 2000));",
    kind: 'protocol',
    reason: /not JSON/,
  },
];

describe('the host owns the protocol: misbehaviour is the candidate failure, named', () => {
  it.each(CASES)(
    '$name → $kind',
    async (c) => {
      const started = performance.now();
      const evaluation = await evaluate(writeHarness(folder(), c.name, c.body, c.header), undefined, c.limits);
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(evaluation.episodes).toHaveLength(2);
      for (const episode of evaluation.episodes) {
        expect(episode.harnessError).toBeUndefined();
        expect(episode.failure?.kind, JSON.stringify(episode.failure)).toBe(c.kind);
        expect(episode.failure?.message).toMatch(c.reason);
        expect(episode.pass).toBe(false);
        // The answer's tokens are counted, and the whole trace can be written.
        expect(episode.tokens.total).toBeGreaterThan(0);
        expect(() => JSON.stringify(episode.trajectory)).not.toThrow();
        expect(episode.trajectory.outcome.status).toBe('unsolved');
      }
      expect(evaluation.summary.failures).toEqual({ [c.kind]: 2 });
    },
    30_000,
  );

  it('a harness that ends without calling answer() fails (protocol), whatever it returns', async () => {
    const file = join(folder(), 'never-answers.ts');
    writeFileSync(
      file,
      "import { defineHarness } from 'witness-harness';\nexport default defineHarness({ name: 'never-answers', async solve() { return { program: null }; } });\n",
    );
    const evaluation = await evaluate(file);
    for (const episode of evaluation.episodes) {
      expect(episode.failure).toEqual({
        kind: 'protocol',
        message: 'the harness ended without calling ctx.model.answer()',
      });
      expect(episode.trajectory.outcome.status).toBe('unsolved');
    }
  }, 30_000);
});

describe("a harness that leaves the host's replies unread", () => {
  it('fails (protocol) once 8 MiB of them wait, instead of the host queueing them without bound', async () => {
    // An oracle of one's own whose description is 1 MiB: twenty unread ones would queue 20 MiB.
    const regex = regexOracle();
    const wordy = { ...regex, observer: { ...regex.observer!, describe: async () => 'x'.repeat(1 << 20) } };
    const body = [
      '    (globalThis as any).process.stdin.pause();',
      "    for (let id = 1000; id < 1020; id++) out.write(JSON.stringify({ id, type: 'describe' }) + '\\n');",
      '    await new Promise((r) => setTimeout(r, 5000));',
    ].join('\n');
    const evaluation = await evaluateHarness({
      harnessFile: writeHarness(folder(), 'unread-replies', body, STDOUT),
      oracle: wordy,
      tasks: tasks.slice(0, 1),
      model: createSimModel({ seed: 3 }),
      prompt,
      budgets: { wallMs: 20_000 },
    });
    const [episode] = evaluation.episodes;
    expect(episode?.failure).toEqual({
      kind: 'protocol',
      message: "the harness left more than 8388608 bytes of the host's replies unread",
    });
  }, 30_000);
});

describe('a forged completion ends the episode: the host reads nothing after it and kills the child', () => {
  const forged = `    out.write(JSON.stringify({ type: 'done', program: first.program, rationale: 'forged' }) + '\\n');`;

  it.each([
    ['idles', '    await new Promise(() => setInterval(() => {}, 1000));'],
    ['floods stdout', "    const chunk = 'x'.repeat(1 << 16);\n    for (;;) out.write(chunk);"],
  ])(
    'then %s: it ends within seconds of the forgery, long before the wall time, with host memory bounded',
    async (_name, after) => {
      const file = writeHarness(folder(), `forged-done-${_name.replace(/\W+/g, '-')}`, `${forged}\n${after}`, STDOUT);
      const rss = [process.memoryUsage().rss];
      const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 50);
      const started = performance.now();
      const evaluation = await evaluate(file, { wallMs: 25_000 });
      clearInterval(sampler);
      expect(performance.now() - started).toBeLessThan(12_000);
      // The host's memory does not follow the flood (it read nothing after the completion).
      expect(Math.max(...rss) - (rss[0] as number)).toBeLessThan(256 * 1024 * 1024);
      for (const episode of evaluation.episodes) {
        expect(episode.failure).toBeUndefined();
        expect(episode.harnessError).toBeUndefined();
        expect(episode.durationMs).toBeLessThan(10_000);
        // The forged completion carried the harness's own answer: the oracle judges that, on the host.
        const answer = episode.trajectory.refinement?.log.find((e) => e.op === 'answer');
        expect(episode.program).toBe(answer?.program);
        expect(episode.trajectory.refinement?.log.at(-1)).toMatchObject({ op: 'done', rationale: 'forged' });
      }
    },
    30_000,
  );
});

describe('after every case', () => {
  it('left no sandbox process and no job folder behind', async () => {
    expect(await sandboxLeftovers(folder())).toEqual({ processes: [], folders: [] });
  });
});
