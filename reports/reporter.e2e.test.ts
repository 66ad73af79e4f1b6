/**
 * End to end: a throwaway vitest project in a temp dir whose tests set `task.meta.witness`, run by
 * the real vitest CLI with this reporter — live, then sharded into blobs and merged.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trajectory } from '../core/types.ts';
import { CASES, makeTrajectory } from './__fixtures__/trajectories.ts';
import { readResultsFile } from './results-file.ts';
import { withoutSuiteData } from '../testing/child-env.ts';

const run = promisify(execFile);
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const reporterPath = join(repo, 'reports', 'reporter.ts');
const vitestCli = join(repo, 'node_modules', 'vitest', 'vitest.mjs');

const trajectories: Trajectory[] = [
  makeTrajectory({
    taskId: 'first',
    privileged: true,
    turns: [
      { source: 'a', pass: ['p1'] },
      { source: 'a+', pass: CASES },
    ],
    hardening: { status: 'robust', exact: true },
  }),
  makeTrajectory({ taskId: 'second', privileged: true, turns: [{ source: 'b', pass: ['p1', 'n1'] }] }),
];

let root = '';

/** The child must not think it runs inside this vitest worker. */
function childEnv(outDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...withoutSuiteData(), WITNESS_OUT: outDir, NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST') delete env[key];
  return env;
}

async function vitest(args: string[], outDir: string): Promise<string> {
  const { stdout, stderr } = await run(process.execPath, [vitestCli, 'run', '--root', root, ...args], {
    cwd: root,
    env: childEnv(outDir),
  });
  return stdout + stderr;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'witness-e2e-'));
  await symlink(join(repo, 'node_modules'), join(root, 'node_modules'), 'dir');
  await writeFile(
    join(root, 'vitest.config.mjs'),
    `export default { test: { include: ['*.test.ts'], reporters: ['default', ${JSON.stringify(reporterPath)}] } };\n`,
  );
  for (const [i, t] of trajectories.entries()) {
    await writeFile(
      join(root, `task-${i + 1}.test.ts`),
      `import { test } from 'vitest';\ntest(${JSON.stringify(t.taskId)}, ({ task }) => {\n  task.meta.witness = ${JSON.stringify(t)};\n});\n`,
    );
  }
  await mkdir(join(root, 'out'));
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('WitnessReporter under the vitest CLI', () => {
  it('writes results.json and summary.md live, and the same results after shard + blob + merge', async () => {
    const liveOut = join(root, 'out', 'live');
    const printed = await vitest([], liveOut);
    expect(printed).toContain("Privileged model: 'sim' knows the gold program");
    expect(printed).toContain(`Witness results: ${join(liveOut, 'results.json')}`);
    expect(printed).toContain(`Witness summary: ${join(liveOut, 'summary.md')}`);

    const live = await readResultsFile(join(liveOut, 'results.json'));
    expect(live.trajectories).toEqual(trajectories);
    expect(live.summary).toHaveLength(1);
    // first: τ 2, second: unsolved → Pass@1 0, Pass@final 0.5, MRR 0.25; first: 3 fixes, 0 breaks
    expect(live.summary[0]).toMatchObject({ n: 2, solved: 1, fixes: 3, breaks: 0, rerPooled: 3, privileged: true });
    expect(live.summary[0]?.passFinal.value).toBe(0.5);
    expect(live.summary[0]?.mrr.value).toBe(0.25);
    const md = await readFile(join(liveOut, 'summary.md'), 'utf8');
    expect(md).toContain(
      'Run `run-1` · model `sim` · prompt hash `0123456789abcdef` · oracle `regex` (dialect: python, match: full)',
    );
    expect(md).toContain('**Privileged model:');
    expect(md).toContain('| diagnostic | 2 | 0.0 [0.0–0.0] | 50.0 [0.0–100.0] |');

    const shards = await Promise.all([
      vitest(['--shard=1/2', '--reporter=blob'], join(root, 'out', 'shard')),
      vitest(['--shard=2/2', '--reporter=blob'], join(root, 'out', 'shard')),
    ]);
    for (const output of shards) expect(output).not.toContain('Witness results');

    const mergedOut = join(root, 'out', 'merged');
    await vitest(['--merge-reports', `--reporter=${reporterPath}`], mergedOut);
    const merged = await readResultsFile(join(mergedOut, 'results.json'));
    expect(merged.trajectories.map((t) => t.taskId)).toEqual(['first', 'second']);
    expect(merged.trajectories).toEqual(live.trajectories);
    expect(merged.summary).toEqual(live.summary);
    expect(merged.runId).toBe(live.runId);
  }, 60_000);
});
