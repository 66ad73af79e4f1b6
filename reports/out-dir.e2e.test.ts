/**
 * The reporter and `witness report` agree on the output folder: the `outDir` of witness.config.json
 * (relative to the file's folder), and WITNESS_OUT over it (relative to the project root, here the
 * working directory both run in). Real vitest and the real command line in a throwaway project.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTrajectory } from './__fixtures__/trajectories.ts';
import { readResultsFile } from './results-file.ts';
import { withoutSuiteData } from '../testing/child-env.ts';

const run = promisify(execFile);
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const vitestCli = join(repo, 'node_modules', 'vitest', 'vitest.mjs');
const bin = join(repo, 'bin', 'witness.js');
const trajectory = makeTrajectory({ taskId: 'only', privileged: true, turns: [{ source: 'a', pass: ['p1'] }] });

let root = '';

/** No WITNESS_* of the outer run, and not inside this vitest worker. */
function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...withoutSuiteData(), NO_COLOR: '1' };
  for (const key of Object.keys(env))
    if (key.startsWith('VITEST') || key === 'TEST' || key.startsWith('WITNESS_')) delete env[key];
  return { ...env, ...extra };
}

async function bench(extra?: NodeJS.ProcessEnv): Promise<string> {
  const { stdout, stderr } = await run(process.execPath, [vitestCli, 'run', '--root', root], {
    cwd: root,
    env: childEnv(extra),
  });
  return stdout + stderr;
}

async function report(extra?: NodeJS.ProcessEnv): Promise<string> {
  const { stdout, stderr } = await run(process.execPath, [bin, 'report', '--out', 'merged'], {
    cwd: root,
    env: childEnv(extra),
  });
  return stdout + stderr;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'witness-out-dir-'));
  await symlink(join(repo, 'node_modules'), join(root, 'node_modules'), 'dir');
  await writeFile(
    join(root, 'vitest.config.mjs'),
    `export default { test: { include: ['*.test.ts'], reporters: ['default', ${JSON.stringify(join(repo, 'reports', 'reporter.ts'))}] } };\n`,
  );
  await writeFile(
    join(root, 'only.test.ts'),
    `import { test } from 'vitest';\ntest('only', ({ task }) => {\n  task.meta.witness = ${JSON.stringify(trajectory)};\n});\n`,
  );
  await mkdir(join(root, 'conf'));
  await writeFile(join(root, 'conf', 'witness.json'), JSON.stringify({ outDir: '../from-file' }));
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('the output folder', () => {
  it("is the file's outDir for the reporter and for `witness report`", async () => {
    const config = { WITNESS_CONFIG: 'conf/witness.json' };
    const printed = await bench(config);
    const results = join(root, 'from-file', 'results.json');
    expect(printed).toContain(`Witness results: ${results}`);
    expect(existsSync(join(root, 'witness-out'))).toBe(false);
    expect((await readResultsFile(results)).trajectories).toEqual([trajectory]);
    expect(await report(config)).toContain(`Witness results: ${join(root, 'merged', 'results.json')}`);
  }, 120_000);

  it('is WITNESS_OUT over the file for both, relative to the project root', async () => {
    const env = { WITNESS_CONFIG: 'conf/witness.json', WITNESS_OUT: 'from-env' };
    const printed = await bench(env);
    expect(printed).toContain(`Witness results: ${join(root, 'from-env', 'results.json')}`);
    await rm(join(root, 'from-file'), { recursive: true, force: true });
    await rm(join(root, 'merged'), { recursive: true, force: true });
    expect(await report(env)).toContain(`Witness results: ${join(root, 'merged', 'results.json')}`);
    // `witness report` read from-env/results.json: the file's folder is gone, so nothing else could be read.
    expect((await readResultsFile(join(root, 'merged', 'results.json'))).trajectories).toEqual([trajectory]);
  }, 120_000);
});
