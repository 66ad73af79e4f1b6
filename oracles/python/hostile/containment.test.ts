/**
 * Containment of the adversarial corpus in the bwrap sandbox, on a one-worker pool so each program
 * runs right after the previous one on the same worker (or its replacement): every program ends
 * with the expected status and a reason that names the limit or event, within bounded time and
 * with a bounded report, a clean-slate check after each proves nothing of it survived, no sandbox
 * process outlives the pool, and the host-side facts hold for the whole corpus — the
 * listeners on 127.0.0.1 saw nothing, the canary file is intact, the fake API key set in our
 * environment never appears. Then two workers side by side: neither sees nor starves the other.
 */
import { randomUUID } from 'node:crypto';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../pool/pool.ts';
import { processesWith, waitFor } from '../../../testing/processes/scan.ts';
import { runProgram, type ProgramOutcome } from '../run-program.ts';
import { ADVERSARIAL_CORPUS, CLEAN_SLATE_PROGRAM } from './corpus.ts';

const REPO = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');
const FAKE_KEY = 'sk-witness-canary-5d1f0c2e9b7a';
const CANARY_TEXT = 'host canary: must stay exactly like this';

let server: Server;
let udp: UdpSocket;
let tcpConnections = 0;
let udpMessages = 0;
let port = 0;
let canary = '';
let savedKey: string | undefined;
const seen: string[] = [];

function fill(source: string): string {
  return source.replaceAll('{{PORT}}', String(port)).replaceAll('{{CANARY}}', canary).replaceAll('{{REPO}}', REPO);
}

function record(outcome: ProgramOutcome): ProgramOutcome {
  seen.push(outcome.reason, outcome.stdout, outcome.stderr);
  return outcome;
}

beforeAll(async () => {
  savedKey = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = FAKE_KEY;
  server = createServer((socket) => {
    tcpConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  udp = createSocket('udp4');
  udp.on('message', () => udpMessages++);
  await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', resolve));
  canary = join(mkdtempSync(join(tmpdir(), 'witness-canary-')), 'secret.txt');
  writeFileSync(canary, CANARY_TEXT);
});

afterAll(async () => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
  server.close();
  udp.close();
});

describe('the adversarial corpus, one after another on one worker', () => {
  // Every sandbox process carries the marker (bwrap's argv, the worker's and the programs' environment).
  const marker = `witness-corpus-${randomUUID()}`;
  const pool = new WorkerPool({ backend: 'bwrap', size: 1, graceMs: 1000, env: { CORPUS_MARKER: marker } });
  const rssBefore = process.memoryUsage().rss;
  afterAll(() => pool.close());

  it('has at least 20 distinct attacks', () => {
    expect(ADVERSARIAL_CORPUS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(ADVERSARIAL_CORPUS.map((p) => p.id)).size).toBe(ADVERSARIAL_CORPUS.length);
  });

  for (const program of ADVERSARIAL_CORPUS) {
    it(`contains ${program.id}: ${program.attack}`, async () => {
      const started = performance.now();
      const outcome = record(await runProgram(pool, fill(program.source), { deadlineMs: program.deadlineMs ?? 3000 }));
      // Bounded: within its deadline (plus the worker's replacement), and a bounded report.
      expect(performance.now() - started).toBeLessThan((program.deadlineMs ?? 3000) + 10_000);
      expect(outcome.reason.length + outcome.stdout.length + outcome.stderr.length).toBeLessThan(20_000);
      expect({ status: outcome.status, reason: outcome.reason }, JSON.stringify(outcome).slice(0, 800)).toMatchObject({
        status: program.expect.status,
      });
      if (program.expect.reason) expect(outcome.reason).toMatch(program.expect.reason);
      if (program.expect.stdout) expect(outcome.stdout).toMatch(program.expect.stdout);
      const after = record(await runProgram(pool, CLEAN_SLATE_PROGRAM.source));
      expect(after.status, after.reason).toBe('ok');
      expect(after.stdout).toMatch(CLEAN_SLATE_PROGRAM.expect.stdout as RegExp);
    }, 20_000);
  }

  it('leaves the host untouched and never shows our secrets', async () => {
    expect(tcpConnections).toBe(0);
    expect(udpMessages).toBe(0);
    expect(readFileSync(canary, 'utf8')).toBe(CANARY_TEXT);
    const everything = seen.join('\n');
    expect(everything).not.toContain(FAKE_KEY);
    expect(everything).not.toContain(CANARY_TEXT);
    expect(everything).not.toMatch(/root:x:0:0/);
    // The three programs that killed or froze their worker each cost one replacement.
    expect(pool.stats.replaced).toBe(3);
    const normal = await runProgram(
      pool,
      'import numpy, pandas\nprint(numpy.arange(4).sum(), len(pandas.DataFrame({"a": [1, 2]})))',
    );
    expect(normal).toMatchObject({ status: 'ok', stdout: '6 2\n' });
    // The host's own memory stayed bounded through floods, bombs and huge sources.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(1024 ** 3);
  });

  it('leaves no process behind once the pool is closed', async () => {
    expect(processesWith(marker).length).toBeGreaterThan(0);
    await pool.close();
    expect(
      await waitFor(
        () => processesWith(marker),
        (pids) => pids.length === 0,
        5000,
      ),
    ).toEqual([]);
  });
});

describe('two workers side by side', () => {
  const pool = new WorkerPool({ backend: 'bwrap', size: 2 });
  afterAll(() => pool.close());

  it('a program cannot see the files or processes of a program running on the other worker', async () => {
    await pool.warm();
    const planter = runProgram(
      pool,
      `import os, time\nopen('marker-7f3a', 'w').write('x')\nopen('/tmp/marker-7f3a', 'w').write('x')\nprint(os.getcwd())\ntime.sleep(1.5)`,
    );
    await new Promise((r) => setTimeout(r, 300));
    const seeker = runProgram(
      pool,
      `import os\nfound = []\nfor top in ('/sandbox', '/tmp', '/dev/shm'):\n    for d, _, files in os.walk(top):\n        found += [os.path.join(d, f) for f in files if 'marker' in f]\nprocs = [p for p in os.listdir('/proc') if p.isdigit() and int(p) not in (1, os.getpid(), os.getppid())]\nprint('found', found, 'procs', procs)`,
    );
    const [planted, sought] = await Promise.all([planter, seeker]);
    expect(planted.status, planted.reason).toBe('ok');
    expect(sought.status, sought.reason).toBe('ok');
    expect(sought.stdout).toBe('found [] procs []\n');
  });

  it('a fork bomb on one worker does not starve the other of processes', async () => {
    const bomb = runProgram(
      pool,
      `import os, time\nn = 0\ntry:\n    while True:\n        if os.fork() == 0:\n            time.sleep(3); os._exit(0)\n        n += 1\nexcept OSError:\n    print('bomb stopped at', n)\n    time.sleep(1.5)`,
      { deadlineMs: 5000 },
    );
    await new Promise((r) => setTimeout(r, 500));
    const other = runProgram(
      pool,
      `import os\npids = []\nfor _ in range(30):\n    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n    pids.append(pid)\nfor pid in pids:\n    os.waitpid(pid, 0)\nprint('forked', len(pids))`,
    );
    const [bombed, forked] = await Promise.all([bomb, other]);
    expect(bombed.stdout).toMatch(/bomb stopped at (6[0-3])\b/);
    expect(forked).toMatchObject({ status: 'ok', stdout: 'forked 30\n' });
  });
});
