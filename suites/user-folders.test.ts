/**
 * The unit project's guard (vitest.user-folders.ts): a vitest run whose tests write into the
 * project's `witness-out/` or `.witness/` fails, naming what changed; a run that writes only into
 * temporary folders passes, and its reporter output goes to a temporary folder removed at the end.
 * Real vitest runs in a throwaway project.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { listFolder, listingChanges } from '../vitest.user-folders.ts';

const repo = fileURLToPath(new URL('..', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

/** A project whose one test runs `body`, under the guard; the user already has results and a run store. */
function project(body: string): string {
  const root = tempDir('witness-guard-');
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'), 'dir');
  writeFileSync(
    join(root, 'vitest.config.mjs'),
    `export default { test: { include: ['*.test.mjs'], globalSetup: [${JSON.stringify(join(repo, 'vitest.user-folders.ts'))}] } };\n`,
  );
  writeFileSync(
    join(root, 'one.test.mjs'),
    `import { mkdirSync, writeFileSync } from 'node:fs';\nimport { join } from 'node:path';\nimport { test } from 'vitest';\ntest('one', () => {\n${body}\n});\n`,
  );
  mkdirSync(join(root, 'witness-out'));
  writeFileSync(join(root, 'witness-out', 'results.json'), '{"earlier": true}');
  mkdirSync(join(root, '.witness', 'runs', 'r1'), { recursive: true });
  return root;
}

function vitest(root: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env))
    if (key.startsWith('VITEST') || key === 'TEST' || key.startsWith('WITNESS_')) delete env[key];
  const run = spawnSync(process.execPath, [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--root', root], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe("the guard of the user's folders", () => {
  it('fails a run that writes into witness-out/ or .witness/, naming each change', () => {
    const root = project(
      "writeFileSync(join('witness-out', 'results.json'), '{}');\nmkdirSync(join('.witness', 'cache'));",
    );
    const run = vitest(root);
    expect(run.status, run.output).toBe(1);
    expect(run.output).toContain(`the tests changed the user's folders in ${root}`);
    expect(run.output).toMatch(/witness-out: changed results\.json/);
    expect(run.output).toMatch(/\.witness: created cache/);
  }, 120_000);

  it('passes a run that writes only where the environment points its outputs, and removes them', () => {
    const root = project(
      [
        "const names = ['WITNESS_OUT', 'WITNESS_STORE', 'WITNESS_CACHE_PATH', 'WITNESS_NEO4J_GRAPH_STORE'];",
        'for (const name of names) if (!process.env[name] || process.env[name].startsWith(process.cwd())) throw new Error(name);',
        'mkdirSync(process.env.WITNESS_OUT, { recursive: true });',
        "writeFileSync(join(process.env.WITNESS_OUT, 'results.json'), '{}');",
        "console.log('out: ' + process.env.WITNESS_OUT + ' :out');",
      ].join('\n'),
    );
    const run = vitest(root);
    expect(run.status, run.output).toBe(0);
    expect(run.output).not.toMatch(/changed the user's folders/);
    const out = /out: (\S+) :out/.exec(run.output)?.[1];
    expect(out, run.output).toMatch(/witness-unit-run-/);
    expect(existsSync(out as string)).toBe(false);
  }, 120_000);
});

describe('folder listings', () => {
  it('see created, changed and removed entries at any depth', () => {
    const dir = tempDir('witness-listing-');
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    writeFileSync(join(dir, 'a', 'b', 'kept.txt'), 'same');
    writeFileSync(join(dir, 'gone.txt'), 'x');
    const before = listFolder(dir);
    expect([...before.keys()].sort()).toEqual(['.', 'a', 'a/b', 'a/b/kept.txt', 'gone.txt']);
    expect(listingChanges(before, listFolder(dir))).toEqual([]);
    rmSync(join(dir, 'gone.txt'));
    writeFileSync(join(dir, 'a', 'new.txt'), 'n');
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, 'a', 'b', 'kept.txt'), later, later);
    const changes = listingChanges(before, listFolder(dir));
    expect(changes).toEqual(
      expect.arrayContaining(['created a/new.txt', 'changed a/b/kept.txt', 'removed gone.txt', 'changed a']),
    );
    expect(listFolder(join(dir, 'nowhere')).size).toBe(0);
  });
});
