/**
 * Hostile candidates, each contained and named: a harness that reads /etc/passwd, calls the
 * network (a listener we start on 127.0.0.1, and an external host), loops forever, imports
 * node:fs or child_process, allocates without bound, writes outside its folder, spawns a process,
 * reads API keys from the environment, corrupts the protocol, overruns its budget, or embeds a
 * task id. Every one runs in a real sandboxed child (bubblewrap, prlimit, Node's permission model)
 * on a real regex task with the sim; the evaluation goes on after each (validate.test.ts: validation
 * rejects them before they would be evaluated).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimModel } from '../../core/models/sim.ts';
import { sandboxTempDir } from '../../core/sandbox/identity.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { evaluateHarness, type HarnessEpisode } from './evaluate.ts';
import type { HarnessFailureKind } from '../../strategies/harness/failure.ts';
import {
  REGEX_PROMPT as prompt,
  REGEX_TASKS as tasks,
  sandboxLeftovers,
  sandboxTempFolder,
  writeHarness,
} from '../../testing/meta-harness/support.ts';

const FAKE_KEY = 'sk-witness-canary-7f3e2a91c4';
const CANARY_TEXT = 'host canary: must stay exactly like this';
const oracle = regexOracle();
const folder = sandboxTempFolder('witness-hostile-harness-');
let dir = '';
let server: Server;
let port = 0;
let connections = 0;
let canary = '';
let savedKey: string | undefined;

beforeAll(async () => {
  dir = folder();
  canary = join(dir, 'canary.txt');
  writeFileSync(canary, CANARY_TEXT);
  savedKey = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = FAKE_KEY;
  server = createServer((socket) => {
    connections++;
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
  await new Promise((resolve) => server.close(resolve));
});

const harness = (name: string, body: string, header = '') => writeHarness(dir, name, body, header);

/** A module name computed at run time, so the compiler cannot refuse the import and the sandbox must. */
const LOADER = 'const load = (name: string): Promise<any> => import([name][0] as string);';

const fill = (text: string) => text.replaceAll('{{PORT}}', String(port)).replaceAll('{{CANARY}}', canary);

interface Case {
  name: string;
  body: string;
  header?: string;
  kind: HarnessFailureKind;
  /** Text the failure message names. */
  reason: RegExp;
  budgets?: { wallMs?: number; calls?: number };
}

const CASES: Case[] = [
  {
    name: 'reads-passwd',
    body: "    const fs = await load('node:fs');\n    fs.readFileSync('/etc/passwd', 'utf8');",
    header: LOADER,
    kind: 'sandbox-violation',
    reason: /ERR_ACCESS_DENIED/,
  },
  {
    name: 'calls-loopback',
    body: "    await fetch('http://127.0.0.1:{{PORT}}/');",
    kind: 'sandbox-violation',
    reason: /network|fetch failed|ECONNREFUSED|ENETUNREACH/,
  },
  {
    name: 'calls-external',
    body: "    await fetch('https://example.com/');",
    kind: 'sandbox-violation',
    reason: /network|fetch failed|EAI_AGAIN|ENOTFOUND/,
  },
  {
    name: 'loops-forever',
    body: '    for (;;) {}',
    kind: 'timeout',
    reason: /wall time of 3000 ms/,
    budgets: { wallMs: 3000 },
  },
  {
    name: 'imports-fs',
    body: "    const fs = await load('node:fs');\n    fs.readdirSync('/');",
    header: LOADER,
    kind: 'sandbox-violation',
    reason: /ERR_ACCESS_DENIED/,
  },
  {
    name: 'spawns-process',
    body: "    const cp = await load('node:child_process');\n    cp.execSync('id');",
    header: LOADER,
    kind: 'sandbox-violation',
    reason: /ERR_ACCESS_DENIED/,
  },
  {
    name: 'allocates-heap',
    body: '    const hoard: number[][] = [];\n    for (;;) hoard.push(new Array(100000).fill(Math.random()));',
    kind: 'memory',
    reason: /memory/i,
  },
  {
    name: 'allocates-buffers',
    body: "    const hoard: unknown[] = [];\n    const B = (globalThis as any)['Buf' + 'fer'];\n    for (;;) hoard.push(B.alloc(64 * 1024 * 1024, 1));",
    kind: 'memory',
    reason: /memory|allocation/i,
  },
  {
    name: 'writes-outside',
    body: "    const fs = await load('node:fs');\n    fs.writeFileSync('/job/mine.txt', 'my own folder is fine');\n    fs.writeFileSync('{{CANARY}}', 'overwritten');",
    header: LOADER,
    kind: 'sandbox-violation',
    reason: /ERR_ACCESS_DENIED/,
  },
  {
    name: 'corrupts-protocol',
    body: "    (globalThis as any).process.stdout.write('not a protocol line\\n');\n    await new Promise((r) => setTimeout(r, 2000));",
    kind: 'protocol',
    reason: /not JSON/,
  },
  {
    name: 'overruns-budget',
    body: "    for (;;) { try { await ctx.model.chat([{ role: 'user', content: 'again' }]); } catch { /* ignore the budget error */ } }",
    kind: 'budget',
    reason: /model calls are used up \(after an earlier budget error\)/,
    budgets: { calls: 3 },
  },
  {
    name: 'floods-the-log',
    body: "    for (;;) {\n      console.log('x'.repeat(10000));\n      await new Promise((r) => setTimeout(r, 0));\n    }",
    kind: 'budget',
    reason: /logged more than 262144 bytes/,
  },
  {
    name: 'crashes',
    body: "    throw new Error('the candidate gave up');",
    kind: 'crash',
    reason: /the candidate gave up/,
  },
];

const results = new Map<string, HarnessEpisode>();

describe('hostile harnesses are stopped, named, and the evaluation goes on', () => {
  it.each(CASES)(
    '$name → $kind',
    async (c) => {
      const file = harness(c.name, fill(c.body), c.header);
      const started = performance.now();
      const evaluation = await evaluateHarness({
        harnessFile: file,
        oracle,
        tasks,
        model: createSimModel({ seed: 3 }),
        prompt,
        budgets: c.budgets,
        concurrency: 2,
      });
      expect(performance.now() - started).toBeLessThan(20_000);
      // Both tasks were run: one hostile episode does not stop the evaluation.
      expect(evaluation.episodes).toHaveLength(2);
      for (const episode of evaluation.episodes) {
        expect(episode.failure?.kind, JSON.stringify(episode.failure)).toBe(c.kind);
        expect(episode.failure?.message).toMatch(c.reason);
        expect(episode.pass).toBe(false);
        expect(episode.program).toBeNull();
        const log = episode.trajectory.refinement?.log ?? [];
        expect(log.at(-1)).toMatchObject({ op: 'harness-failed', kind: c.kind });
        results.set(`${c.name}/${episode.taskId}`, episode);
      }
      expect(evaluation.summary.failures).toEqual({ [c.kind]: 2 });
    },
    30_000,
  );

  it('reads the environment and finds no key: only PATH and PWD, and the trace holds no key', async () => {
    const file = harness(
      'reads-env',
      '    const env = (globalThis as any).process.env;\n    ctx.log({ env });\n    return { program: JSON.stringify(env) };',
    );
    const evaluation = await evaluateHarness({
      harnessFile: file,
      oracle,
      tasks: tasks.slice(0, 1),
      model: createSimModel({ seed: 3 }),
      prompt,
    });
    const [episode] = evaluation.episodes as [HarnessEpisode];
    expect(episode.failure).toBeUndefined();
    expect(Object.keys(JSON.parse(episode.program ?? '{}')).sort()).toEqual(['PATH', 'PWD']);
    expect(JSON.stringify(episode.trajectory)).not.toContain(FAKE_KEY);
  }, 30_000);

  it.each([
    ['node:fs', "import { readFileSync } from 'node:fs';\nreadFileSync;"],
    ['node:child_process', "const cp = import('node:child_process');\ncp;"],
  ])('a harness importing %s never runs: the compiler refuses the import and names it', async (module, header) => {
    const file = harness(`static-${module.replace(/\W+/g, '-')}`, '', header);
    const evaluation = await evaluateHarness({
      harnessFile: file,
      oracle,
      tasks,
      model: createSimModel({ seed: 3 }),
      prompt,
    });
    expect(evaluation.episodes).toHaveLength(2);
    for (const episode of evaluation.episodes) {
      expect(episode.pass).toBe(false);
      expect(episode.harnessError).toMatch(new RegExp(`does not compile: .*import of "${module}" is not allowed`));
    }
  });

  it("sees only the task's public fields: no id, no hidden tests, no file paths", async () => {
    const file = harness('reads-its-task', '    return { program: JSON.stringify(ctx.task) };');
    const secret = {
      ...tasks[0]!,
      id: 'dog-secret',
      context: { dialect: 'brics', test: 'assert secret()', db_path: dir, gold_hint: '.*dog.*' },
    };
    const evaluation = await evaluateHarness({
      harnessFile: file,
      oracle,
      tasks: [secret],
      model: createSimModel({ seed: 3 }),
      prompt,
    });
    const seen = JSON.parse(evaluation.episodes[0]!.program ?? '{}') as Record<string, unknown>;
    expect(Object.keys(seen).sort()).toEqual(['benchmark', 'description', 'fields', 'key', 'language']);
    expect(seen.fields).toEqual({ dialect: 'brics' });
    expect(seen.key).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(seen)).not.toContain(secret.id);
  });

  it('left the host untouched: the listener saw nothing, the canary is intact', () => {
    expect(results.size).toBe(CASES.length * 2);
    expect(connections).toBe(0);
    expect(readFileSync(canary, 'utf8')).toBe(CANARY_TEXT);
  });

  it('left no sandbox process and no job folder behind', async () => {
    expect(sandboxTempDir()).toBe(dir);
    expect(await sandboxLeftovers(dir)).toEqual({ processes: [], folders: [] });
  });
});
