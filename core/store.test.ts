import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { latestRunId, newRunId, RunStore } from './store.ts';
import { TRAJECTORY_SCHEMA, TRAJECTORY_SCHEMA_VERSION, type Trajectory } from './types.ts';

function trajectory(taskId: string, strategy: string): Trajectory {
  return {
    schema: TRAJECTORY_SCHEMA,
    version: TRAJECTORY_SCHEMA_VERSION,
    runId: 'r1',
    benchmark: 'nl-rx',
    taskId,
    strategy,
    model: { name: 'sim', privileged: true },
    trial: 0,
    seed: 1,
    promptHash: 'abc',
    oracle: { name: 'regex', settings: {} },
    budget: 4,
    caseIds: [],
    turns: [],
    outcome: { status: 'unsolved', solvedAtTurn: null },
    tokens: { prompt: 0, completion: 0, total: 0, estimated: false },
    cache: { hits: 0, misses: 0 },
    startedAt: new Date(0).toISOString(),
    durationMs: 0,
  };
}

describe('RunStore', () => {
  it('appends trajectories to a JSON Lines file and loads them back; a rerun of a key counts once, the later one', () => {
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'witness-store-')), 'run-1');
    store.save(trajectory('1', 'diagnostic'));
    const at = store.save(trajectory('a/b', 'generic'));
    store.save({ ...trajectory('1', 'diagnostic'), startedAt: new Date(5).toISOString(), durationMs: 7 });
    const { trajectories, problems, notes } = store.load();
    expect(problems).toEqual([]);
    expect(notes).toEqual([]);
    expect(trajectories.map((t) => `${t.taskId}:${t.strategy}:${t.durationMs}`).sort()).toEqual([
      '1:diagnostic:7',
      'a/b:generic:0',
    ]);
    const files = readdirSync(store.trajectoriesDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^nl-rx\\.${process.pid}\\.[a-z0-9]+\\.jsonl$`));
    expect(readFileSync(join(store.trajectoriesDir, files[0] as string), 'utf8').split('\n')).toHaveLength(4);
    expect(store.read(at).taskId).toBe('a/b');
  });

  it('ignores a torn last line with a note, never an earlier line, and names a broken line in the middle', () => {
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'witness-store-')), 'run-t');
    store.save(trajectory('1', 'zero-shot'));
    store.save(trajectory('2', 'zero-shot'));
    const [file] = readdirSync(store.trajectoriesDir) as [string];
    const path = join(store.trajectoriesDir, file);
    appendFileSync(path, JSON.stringify(trajectory('3', 'zero-shot')).slice(0, 40));
    let loaded = store.load();
    expect(loaded.trajectories.map((t) => t.taskId).sort()).toEqual(['1', '2']);
    expect(loaded.problems).toEqual([]);
    expect(loaded.notes).toEqual([`${path}:3: torn last line of an interrupted write ignored`]);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"taskId":"2"', '"taskId":2,,'));
    appendFileSync(path, '\n');
    loaded = store.load();
    expect(loaded.trajectories.map((t) => t.taskId)).toEqual(['1']);
    expect(loaded.problems[0]).toMatch(new RegExp(`${file.replace(/\./g, '\\.')}:2: `));
    expect(loaded.problems[1]).toMatch(/:3: /);
  });

  it('still reads a store of one JSON file per trajectory (the layout before JSON Lines), next to new lines', () => {
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'witness-store-')), 'run-old');
    mkdirSync(store.trajectoriesDir, { recursive: true });
    const old = trajectory('1', 'generic');
    writeFileSync(join(store.trajectoriesDir, `${RunStore.key(old)}.json`), JSON.stringify(old));
    store.save(trajectory('2', 'generic'));
    const { trajectories, problems } = store.load();
    expect(problems).toEqual([]);
    expect(trajectories.map((t) => t.taskId).sort()).toEqual(['1', '2']);
  });

  it('two processes appending to one run at once lose nothing; a process killed with SIGKILL mid-write loses only its torn last line', async () => {
    const storeDir = mkdtempSync(join(tmpdir(), 'witness-store-'));
    const writer = (count: number, pad: number) =>
      spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `import { RunStore } from ${JSON.stringify(new URL('./store.ts', import.meta.url).href)};
const store = new RunStore(${JSON.stringify(storeDir)}, 'run-c');
const base = ${JSON.stringify(trajectory('x', 's'))};
for (let i = 0; i < ${count}; i++) store.save({ ...base, taskId: process.pid + '-' + i, strategy: 'x'.repeat(${pad}) });`,
        ],
        { stdio: 'ignore' },
      );
    const done = (child: ReturnType<typeof spawn>) =>
      new Promise<NodeJS.Signals | number | null>((r) => child.on('exit', (code, signal) => r(signal ?? code)));
    const both = [writer(300, 10), writer(300, 10)];
    expect(await Promise.all(both.map(done))).toEqual([0, 0]);
    let loaded = new RunStore(storeDir, 'run-c').load();
    expect(loaded.problems).toEqual([]);
    expect(loaded.trajectories).toHaveLength(600);
    expect(readdirSync(join(storeDir, 'run-c', 'trajectories'))).toHaveLength(2);

    // Lines of 2 MB take long enough to write that the kill usually lands inside one.
    const victim = writer(1_000, 2_000_000);
    const files = () => readdirSync(join(storeDir, 'run-c', 'trajectories'));
    const victimFile = () => files().find((f) => f.includes(`.${victim.pid}.`));
    for (;;) {
      const file = victimFile();
      if (file && statSync(join(storeDir, 'run-c', 'trajectories', file)).size > 5_000_000) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    victim.kill('SIGKILL');
    expect(await done(victim)).toBe('SIGKILL');
    loaded = new RunStore(storeDir, 'run-c').load();
    expect(loaded.problems).toEqual([]);
    const written = readFileSync(join(storeDir, 'run-c', 'trajectories', victimFile() as string));
    let complete = 0;
    for (let i = written.indexOf(0x0a); i !== -1; i = written.indexOf(0x0a, i + 1)) complete++;
    expect(complete).toBeGreaterThanOrEqual(2);
    expect(loaded.trajectories).toHaveLength(600 + complete);
    expect(loaded.notes.length).toBe(written.at(-1) === 0x0a ? 0 : 1);
  }, 60_000);

  it('reports unreadable files by name instead of dropping them', () => {
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'witness-store-')), 'run-2');
    store.save(trajectory('1', 'zero-shot'));
    writeFileSync(join(store.dir, 'trajectories', 'broken.json'), '{');
    const { trajectories, problems } = store.load();
    expect(trajectories).toHaveLength(1);
    expect(problems[0]).toMatch(/broken\.json: /);
  });

  it('rejects run ids that could escape the store folder', () => {
    expect(() => new RunStore('/tmp', '../evil')).toThrow(/run id/);
    expect(newRunId(new Date('2026-11-30T00:15:02Z'))).toMatch(/^20261130-001502-[a-z0-9]{1,4}$/);
  });

  it('records the settings each benchmark ran with, and finds the latest run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'witness-store-'));
    expect(latestRunId(dir)).toBeUndefined();
    const store = new RunStore(dir, 'run-a');
    expect(store.exists()).toBe(false);
    expect(store.readSettings('nl-rx')).toBeUndefined();
    store.writeSettings('nl-rx', { model: 'sim', turns: 4 });
    expect(store.exists()).toBe(true);
    expect(store.readSettings('nl-rx')).toEqual({ model: 'sim', turns: 4 });
    writeFileSync(join(store.dir, 'benchmarks', 'bad.json'), '[1]');
    expect(() => store.readSettings('bad')).toThrow(/bad\.json: unreadable run settings: not an object/);
    await new Promise((r) => setTimeout(r, 20));
    new RunStore(dir, 'run-b').save(trajectory('1', 'generic'));
    expect(latestRunId(dir)).toBe('run-b');
  });
});
