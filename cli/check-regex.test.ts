/** `witness check regex` (in process and as a command) on the cases the exact check used to get wrong or leave unsaid. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkRegex, checkRegexExitCode, formatCheckRegex } from './check-regex.ts';

const bin = fileURLToPath(new URL('../bin/witness.js', import.meta.url));
const fixtures = fileURLToPath(new URL('../fixtures/nl-rx', import.meta.url));
const check = (...args: string[]) =>
  spawnSync(process.execPath, [bin, 'check', 'regex', ...args], { encoding: 'utf8', timeout: 60_000 });

/** In process: the result, its text and the exit status `witness check regex` derives from them. */
async function inProcess(gold: string, candidate: string, goldDialect: 'brics' | 'ecmascript' = 'ecmascript') {
  const result = await checkRegex({ gold, candidate, goldDialect, candidateDialect: 'ecmascript', seed: 0 });
  return { result, text: formatCheckRegex(result), exit: checkRegexExitCode(result) };
}

describe('witness check regex: verdicts that must be right', () => {
  it('A|[Aa]x* vs A|[Aa]x+ is not equivalent: "a" is in the gold only (exit 1)', async () => {
    const { result, exit } = await inProcess('A|[Aa]x*', 'A|[Aa]x+');
    expect(exit).toBe(1);
    expect(result.equivalence).toEqual({ decided: true, equivalent: false, falseNegative: 'a' });
  });

  it('a* vs a{0,99999}b{0,99999}: the DFA is past the budget, the lazy product finds "b" (exit 1, from the command)', async () => {
    const { text } = await inProcess('a*', 'a{0,99999}b{0,99999}');
    expect(text).toMatch(/equivalent no/);
    expect(text).toMatch(/shortest false positive \(too broad\): "b"/);
    const run = check('--gold', 'a*', '--candidate', 'a{0,99999}b{0,99999}', '--json');
    expect(run.status, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout).equivalence).toMatchObject({ decided: true, equivalent: false, falsePositive: 'b' });
  });
});

describe('witness check regex: undecided comparisons never claim success', () => {
  it('passes the hidden tests but the product outgrows its budget: says so and exits 3 (from the command)', () => {
    const run = check('--gold', 'a*', '--candidate', 'a{0,99999}|a{100000,}');
    expect(run.status, run.stderr).toBe(3);
    expect(run.stdout).toMatch(/verdict +pass on hidden tests/);
    expect(run.stdout).toMatch(/equivalent unknown \(.*lazy product stopped/);
    expect(run.stdout).toMatch(/undecided: the hidden tests pass, but the languages could not be compared/);
  });

  it('a non-regular candidate that passes the hidden tests is undecided too (exit 3); one that fails them exits 1', async () => {
    const pass = await inProcess('.*dog.*', '(.*)dog(.*)\\2?', 'brics');
    expect(pass.result.verdict.pass).toBe(true);
    expect(pass.exit).toBe(3);
    expect(pass.text).toMatch(/equivalent unknown \(candidate regex: backreference/);
    expect((await inProcess('.*dog.*', '(.*)dog\\1', 'brics')).exit).toBe(1);
  });

  it('an answer no engine can run is a too-complex verdict (exit 1), not a crash', async () => {
    const { result, text, exit } = await inProcess('a*', 'a'.repeat(40_000));
    expect(exit).toBe(1);
    expect(result.verdict.error?.kind).toBe('too-complex');
    expect(text.length).toBeLessThan(2_000);
  });

  it('documents the exit statuses in --help', () => {
    const help = check('--help');
    expect(help.stdout).toMatch(/3 when the hidden tests pass but equivalence is undecided/);
  });
});

describe('witness eval nl-rx: hostile predictions', () => {
  it('scores a prediction no engine can run as an invalid prediction naming why, and the rest as usual', () => {
    const golds = readFileSync(join(fixtures, 'targ.txt'), 'utf8').trimEnd().split('\n');
    const predictions = golds.map((gold, i) =>
      i === 0 ? 'a'.repeat(200_000) : i === 1 ? '('.repeat(30_000) + 'dog' + ')'.repeat(30_000) : gold,
    );
    const file = join(mkdtempSync(join(tmpdir(), 'witness-eval-')), 'pred.txt');
    writeFileSync(file, `${predictions.join('\n')}\n`);
    const run = spawnSync(
      process.execPath,
      [bin, 'eval', 'nl-rx', '--data', fixtures, '--predictions', file, '--json'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.items[0]).toMatchObject({
      status: 'invalid-prediction',
      correct: false,
      message: expect.stringMatching(/^too-complex: the regex is 200,000 characters long/),
    });
    expect(result.items[1]).toMatchObject({
      status: 'invalid-prediction',
      correct: false,
      message: expect.stringMatching(/^too-complex: .*nested too deeply/),
    });
    expect(result.correct).toBe(golds.length - 2);
  });
});
