/**
 * Validation rejects hostile harnesses before they would be evaluated, naming the problem; an
 * invalid one is never smoke-run. A harness that passes the static checks but fails in the smoke
 * run, in any way, or whose smoke episode could not run, is invalid too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSimModel } from '../../core/models/sim.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { REGEX_PROMPT as prompt, REGEX_TASKS as tasks, writeHarness } from '../../testing/meta-harness/support.ts';
import { validateHarness } from './validate.ts';

const oracle = regexOracle();
const dir = mkdtempSync(join(tmpdir(), 'witness-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const harness = (name: string, body: string, header = '') => writeHarness(dir, name, body, header);

describe('validation rejects hostile harnesses before evaluation', () => {
  it.each([
    ['dynamic import of node:fs', "    const fs = await import('node:fs');", /dynamic import\(\)/],
    [
      'static import of child_process',
      '',
      /imports "node:child_process"/,
      "import { execSync } from 'node:child_process';",
    ],
    ['network', "    await fetch('http://127.0.0.1:1/');", /network/],
    ['process.env', '    const env = process.env;', /process/],
    ['globalThis tricks', "    const p = (globalThis as any)['pro' + 'cess'];", /globalThis/],
    ["the console's private stream", "    (console as any)._stdout.write('x');", /line 7: Node internals/],
    ['an alias of process', '    const p = process;\n    p.exit(0);', /line 7: process: const p = process;/],
    ['the vm module', "    vm.runInThisContext('1');", /line 7: vm:/, 'declare const vm: any;'],
    ['code from strings', "    const f = new Function('return 1');", /code from strings/],
    [
      'an embedded task id',
      "    if (ctx.task.description.length > 0) ctx.log('dog-lines');",
      /names task ids of the search pool: dog-lines/,
    ],
    ['a gold literal', "    ctx.log('remember: .*dog.* works');", /literals of the search pool/],
  ])(
    '%s',
    async (_name, body, problem, header = '') => {
      const file = harness(`invalid-${_name.replace(/\W+/g, '-')}`, body, header);
      const outcome = await validateHarness({
        harnessFile: file,
        oracle,
        pool: tasks,
        model: createSimModel({ seed: 3 }),
        prompt,
      });
      expect(outcome.valid).toBe(false);
      expect(outcome.problems.join('\n')).toMatch(problem);
      // Invalid candidates are not smoke-run.
      expect(outcome.checks.smoke.ran).toBe(false);
    },
    30_000,
  );
});

describe('the smoke run', () => {
  const validate = (harnessFile: string, pool = tasks) =>
    validateHarness({ harnessFile, oracle, pool, model: createSimModel({ seed: 3 }), prompt });

  it('passes a harness that runs cleanly, whatever its answers score', async () => {
    const outcome = await validate(harness('clean', ''));
    expect(outcome.problems).toEqual([]);
    expect(outcome.valid).toBe(true);
    expect(outcome.checks.smoke).toMatchObject({ ran: true, ok: true });
  }, 30_000);

  it.each([
    [
      'never calls answer()',
      "import { defineHarness } from 'witness-harness';\nexport default defineHarness({ name: 'quiet', async solve() { return { program: null }; } });\n",
      /smoke run on task dog-lines: protocol: the harness ended without calling ctx\.model\.answer\(\)/,
    ],
    [
      'logs an entry nested 3,000 levels deep',
      "import { defineHarness } from 'witness-harness';\nexport default defineHarness({ name: 'deep', async solve(ctx) {\n  const first = await ctx.model.answer();\n  let deep: unknown = 1;\n  for (let i = 0; i < 3000; i++) deep = [deep];\n  ctx.log({ deep } as never);\n  return { program: first.program };\n} });\n",
      /smoke run on task dog-lines: protocol: a message nested more than 64 levels deep/,
    ],
  ])(
    'fails a harness that %s, naming the kind',
    async (name, source, problem) => {
      const file = `${dir}/${name.replace(/\W+/g, '-')}.ts`;
      writeFileSync(file, source);
      const outcome = await validate(file);
      expect(outcome.checks.compile.ok && outcome.checks.imports.ok && outcome.checks.leaks.ok).toBe(true);
      expect(outcome.valid).toBe(false);
      expect(outcome.checks.smoke).toMatchObject({ ran: true, ok: false });
      expect(outcome.problems.join('\n')).toMatch(problem);
    },
    30_000,
  );

  it('fails a harness whose smoke episode could not run: nothing showed that it works', async () => {
    const broken = { id: 'broken-gold', benchmark: 'hostile', description: 'lines with an a', gold: '(a' };
    const outcome = await validate(harness('clean-on-broken', ''), [broken, ...tasks]);
    expect(outcome.valid).toBe(false);
    expect(outcome.problems.join('\n')).toMatch(/smoke run on task broken-gold: harness error: /);
  }, 30_000);
});
