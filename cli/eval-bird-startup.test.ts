import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { temporaryFolders } from '../testing/sql.ts';

const folders = temporaryFolders();
afterAll(() => folders.removeAll());

const root = fileURLToPath(new URL('..', import.meta.url));
// Clients of other families and tools `eval bird` never needs (each costs start-up time when loaded).
const HEAVY = ['neo4j-driver', 'openai', 'dockerode', 'playwright', 'playwright-core', 'refa', 'cli-table3'];

describe('witness eval bird start-up', () => {
  it('loads none of the other families’ clients, nor the regex engine, the model clients or the browser driver', () => {
    const dir = folders.make('witness-eval-bird-startup-');
    // A module-resolution hook that writes every module the command loads to a file.
    const log = join(dir, 'modules.txt');
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}`,
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(new URL(`file://${join(dir, 'hooks.mjs')}`).href)});`,
    );
    const fixtures = join(root, 'fixtures/bird');
    const questions = JSON.parse(readFileSync(join(fixtures, 'dev.json'), 'utf8')) as { SQL: string; db_id: string }[];
    writeFileSync(
      join(dir, 'pred.json'),
      JSON.stringify(
        Object.fromEntries(questions.map((q, i) => [String(i), `${q.SQL}\t----- bird -----\t${q.db_id}`])),
      ),
    );
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        join(dir, 'register.mjs'),
        join(root, 'bin/witness.js'),
        'eval',
        'bird',
        '--data',
        fixtures,
        '--predictions',
        join(dir, 'pred.json'),
        '--no-gold-cache',
        '--json',
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const loaded = readFileSync(log, 'utf8').split('\n');
    // The hook saw the command's own modules (so an empty list cannot pass for a lean one).
    expect(loaded.some((url) => url.includes('/oracles/sql/') && url.includes('evaluate.'))).toBe(true);
    const heavy = loaded.filter((url) => HEAVY.some((name) => url.includes(`/node_modules/${name}/`)));
    expect(heavy).toEqual([]);
  });
});
