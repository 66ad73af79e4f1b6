import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detokenize } from '../oracles/regex/deepregex-tokens.ts';

const bin = fileURLToPath(new URL('../bin/witness.js', import.meta.url));
const fixtures = fileURLToPath(new URL('../fixtures/nl-rx', import.meta.url));
const witness = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('witness check regex', () => {
  it('prints the verdict, equivalence and shortest counterexample as JSON, exit 1 when different', () => {
    const run = witness('check', 'regex', '--gold', '.*dog.*', '--candidate', '.*dogs.*', '--json');
    expect(run.status).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.equivalence).toEqual({ decided: true, equivalent: false, falseNegative: 'dog' });
    expect(result.verdict.pass).toBe(false);
    expect(result.verdict.total).toBe(24);
  });

  it('handles brics golds with & and exits 0 for an equivalent candidate', () => {
    const run = witness(
      'check',
      'regex',
      '--gold',
      '(.*dog.*)&(.*[0-9].*)',
      '--gold-dialect',
      'brics',
      '--candidate',
      '/.*(dog.*\\d|\\d.*dog).*/',
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/verdict +pass on hidden tests \(24\/24 correct\)/);
    expect(run.stdout).toMatch(/equivalent yes/);
  });

  it('reports an invalid candidate and rejects bad usage with exit 2', () => {
    const invalid = witness('check', 'regex', '--gold', 'a', '--candidate', 'a(', '--json');
    expect(invalid.status).toBe(1);
    expect(JSON.parse(invalid.stdout).verdict.error.kind).toBe('syntax');
    const usage = witness('check', 'regex', '--gold', 'a');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/required option '--candidate <regex>' not specified/);
    expect(witness('check', 'regex', '--gold', 'a', '--candidate', 'a', '--dialect', 'perl').status).toBe(2);
  });

  it('explains itself with --help', () => {
    const help = witness('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/check/);
    expect(help.stdout).toMatch(/eval/);
    expect(witness('eval', 'nl-rx', '--help').stdout).toMatch(/--predictions <file>/);
  });
});

describe('witness eval nl-rx', () => {
  it('scores exact, equivalent, wrong and invalid predictions against targ.txt', () => {
    const golds = readFileSync(join(fixtures, 'targ.txt'), 'utf8').trimEnd().split('\n');
    const predictions = golds.map((gold, i) => {
      if (i === 0) return '.*(dog).*'; // equivalent to .*dog.*
      if (i === 1) return 'dog'; // wrong: only the string dog
      if (i === 2) return '(truck'; // invalid
      return gold; // exact
    });
    const file = join(mkdtempSync(join(tmpdir(), 'witness-eval-')), 'pred.txt');
    writeFileSync(file, `${predictions.join('\n')}\n`);
    const run = witness('eval', 'nl-rx', '--data', fixtures, '--predictions', file, '--json');
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.total).toBe(golds.length);
    expect(result.byStatus).toMatchObject({
      exact: golds.length - 3,
      equivalent: 1,
      'not-equivalent': 1,
      'invalid-prediction': 1,
    });
    expect(result.correct).toBe(golds.length - 2);
    expect(result.items[1]).toMatchObject({
      line: 2,
      correct: false,
      status: 'not-equivalent',
      counterexample: { kind: 'false-negative' },
    });
    expect(result.items[1].counterexample.input).toMatch(/^dog.$/);
    expect(result.items[2].message).toMatch(/./);
  });

  it('names the file when the predictions do not align', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'witness-eval-')), 'short.txt');
    writeFileSync(file, 'dog\n');
    const run = witness('eval', 'nl-rx', '--data', fixtures, '--predictions', file);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/short\.txt has 1 lines but .*targ\.txt has \d+/);
  });

  it('de-tokenizes DeepRegex output', () => {
    expect(detokenize('( . * <M0> . * ) & ( [ <NUM> ] )')).toBe('(.*dog.*)&([0-9])');
  });
});

describe('usage errors exit 2 in every command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'witness-usage-'));
  const nowhere = join(dir, 'nowhere');
  const existing = join(dir, 'split.json');
  writeFileSync(existing, '{}');
  const cases: [string[], string][] = [
    [['eval', 'nl-rx', '--data', nowhere, '--predictions', existing], `there is no file or folder ${nowhere}`],
    [['eval', 'nl-rx', '--data', fixtures, '--predictions', nowhere], `there is no file or folder ${nowhere}`],
    [['eval', 'bird', '--data', nowhere, '--predictions', existing], `there is no file or folder ${nowhere}`],
    [['eval', 'cypherbench', '--data', existing, '--predictions', nowhere], `there is no file or folder ${nowhere}`],
    [['eval', 'bigcodebench', '--data', nowhere, '--samples', existing], `there is no file or folder ${nowhere}`],
    [['eval', 'dscodebench', '--data', existing, '--samples', nowhere], `there is no file or folder ${nowhere}`],
    [['data', 'check', '--suite', 'bird', '--data', nowhere], `there is no file or folder ${nowhere}`],
    [['report', nowhere, '--out', join(dir, 'report')], `there is no file ${nowhere}`],
    [['split', '--suite', 'nl-rx', '--out', existing], `${existing} exists; pass --force`],
    [['bench', '--suite', 'nl-rx', '--suite', 'bird', '--dry-run'], '--suite is given more than once'],
    [['bench', '--resume', 'no-such-run'], '--resume: there is no run no-such-run'],
  ];
  it.each(cases)('witness %j', (args, message) => {
    const run = witness(...args);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
