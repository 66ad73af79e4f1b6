/** Validation rejects hostile harnesses before they would be evaluated, naming the problem; an invalid one is never smoke-run. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSimModel } from '../../core/models/sim.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { REGEX_PROMPT as prompt, REGEX_TASKS as tasks, writeHarness } from './testing.ts';
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
