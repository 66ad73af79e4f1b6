/**
 * A suite holds a task's preparation only while it has episodes of it to run: after the last, it
 * is forgotten (core/prepared.ts forgetPrepared), so a large run does not keep every gold's
 * automaton and cases to the end of its file.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { withoutSuiteData } from '../testing/child-env.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'witness-prepared-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('prepared tasks in a suite', () => {
  it('are forgotten after their last episode', () => {
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `export default { test: { include: ['*.eval.ts'], reporters: ['default'] } };\n`,
    );
    writeFileSync(join(dir, 'prompt.md'), 'Write a regex for: {{description}}\n');
    writeFileSync(
      join(dir, 'counted.eval.ts'),
      `import { writeFileSync } from 'node:fs';
import { afterAll } from 'vitest';
import { defineBenchmark, pickStrategies, regexOracle } from ${JSON.stringify(join(root, 'index.ts'))};
import { preparedOnce } from ${JSON.stringify(join(root, 'core/prepared.ts'))};

const inner = regexOracle();
const prepared: string[] = [];
const oracle = { ...inner, prepare: (task) => (prepared.push(task.id), inner.prepare(task)) };
const tasks = [
  { id: 'a', benchmark: 'counted', description: 'a', gold: 'a+' },
  { id: 'b', benchmark: 'counted', description: 'b', gold: 'b+' },
];
defineBenchmark({ name: 'counted', tasks, oracle, strategies: pickStrategies('zero-shot', 'diagnostic'), prompt: 'prompt.md' });
afterAll(async () => {
  const during = prepared.length;
  for (const task of tasks) await preparedOnce(oracle, task);
  writeFileSync(${JSON.stringify(join(dir, 'counts.json'))}, JSON.stringify({ during, after: prepared.length - during }));
});
`,
    );
    const run = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir], {
      cwd: dir,
      env: { ...withoutSuiteData(), WITNESS_STORE: join(dir, 'store'), NO_COLOR: '1', FORCE_COLOR: '0' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    // Each task prepared once for its two episodes, then forgotten: asking again prepares anew.
    expect(JSON.parse(readFileSync(join(dir, 'counts.json'), 'utf8'))).toEqual({ during: 2, after: 2 });
  }, 180_000);
});
