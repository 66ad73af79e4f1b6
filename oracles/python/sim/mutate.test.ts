import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../core/random.ts';
import { WorkerPool } from '../pool/pool.ts';
import { runProgram } from '../run-program.ts';
import { mutatePython, mutationSites, PYTHON_MUTATIONS } from './mutate.ts';
import { logicalLineStarts, tokenize } from './tokenize.ts';

const program = `import numpy as np

def score(values, limit=3):
    """Counts values below 10 (a docstring: 5 + 5 < 11)."""
    total = 0  # running total, 7
    for v in values:
        if v < limit:
            total += v * 2
        elif v == limit:
            total -= 1
        else:
            pass
    if total > 100:
        return 100
    return total
`;

describe('the Python tokenizer', () => {
  it('keeps strings and comments whole and knows where logical lines start', () => {
    const tokens = tokenize(`x = f("a # b", '''c\nd''')  # e\ny = [1,\n  2]\n`);
    expect(tokens.filter((t) => t.type === 'string').map((t) => t.text)).toEqual(['"a # b"', "'''c\nd'''"]);
    expect(tokens.filter((t) => t.type === 'comment').map((t) => t.text)).toEqual(['# e']);
    expect(logicalLineStarts(`x = f('''c\nd''')\ny = [1,\n  2]\n\n# c\nz = 3 \\\n  + 4\n`)).toEqual([
      true,
      false,
      true,
      false,
      false,
      false,
      true,
      false,
      false,
    ]);
  });
});

describe('Python mutation operators', () => {
  const sites = mutationSites(program);

  it('finds sites for all five operators, never inside strings or comments', () => {
    for (const m of PYTHON_MUTATIONS) expect(sites[m].length, m).toBeGreaterThan(0);
    const docstring = [program.indexOf('"""'), program.lastIndexOf('"""')];
    const comment = [program.indexOf('#'), program.indexOf('\n', program.indexOf('#'))];
    for (const list of Object.values(sites)) {
      for (const site of list) {
        expect(site.start >= (docstring[0] as number) && site.start <= (docstring[1] as number)).toBe(false);
        expect(site.start >= (comment[0] as number) && site.start < (comment[1] as number)).toBe(false);
      }
    }
  });

  it('applies each operator as described', () => {
    const apply = (m: (typeof PYTHON_MUTATIONS)[number]) =>
      new Set(sites[m].map((s) => program.slice(0, s.start) + s.replacement + program.slice(s.end)));
    expect([...apply('off-by-one')]).toContain(program.replace('limit=3', 'limit=4'));
    expect([...apply('wrong-operator')]).toContain(program.replace('total += v * 2', 'total -= v * 2'));
    expect([...apply('wrong-comparison')]).toContain(program.replace('if v < limit', 'if v <= limit'));
    expect([...apply('dropped-branch')]).toContain(
      program.replace('        elif v == limit:\n            total -= 1\n', ''),
    );
    expect([...apply('wrong-return')]).toContain(program.replace('    return total\n', '    return limit\n'));
    // Unary minus and argument unpacking are not arithmetic.
    expect(mutationSites('x = -1\nf(*args, **kw)\n')['wrong-operator']).toEqual([]);
  });

  it('is deterministic for the seed and returns null when nothing applies', () => {
    expect(mutatePython(program, new Rng(7))).toEqual(mutatePython(program, new Rng(7)));
    expect(mutatePython('import os\n', new Rng(1))).toBeNull();
    expect(mutatePython(program, new Rng(1), ['off-by-one'])?.mutation).toBe('off-by-one');
  });
});

describe('mutants of the fixture references', () => {
  const pool = new WorkerPool({ size: 1 });
  afterAll(() => pool.close());

  it('still parse as Python (checked by the interpreter in the sandbox)', async () => {
    const golds = [
      ...readFileSync(
        fileURLToPath(new URL('../../../fixtures/dscodebench/dscodebench.jsonl', import.meta.url)),
        'utf8',
      )
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).ground_truth_code as string),
      ...readFileSync(
        fileURLToPath(new URL('../../../fixtures/bigcodebench/bigcodebench.jsonl', import.meta.url)),
        'utf8',
      )
        .trim()
        .split('\n')
        .map((l) => {
          const t = JSON.parse(l);
          return (t.code_prompt as string) + (t.canonical_solution as string);
        }),
      program,
    ];
    const rng = new Rng(11);
    const mutants: string[] = [];
    for (const gold of golds) {
      let current = gold;
      for (let i = 0; i < 8; i++) {
        const next = mutatePython(current, rng);
        if (!next) break;
        mutants.push(next.program);
        current = next.program;
      }
    }
    expect(mutants.length).toBeGreaterThan(300);
    const check = `import json, sys\nbad = []\nfor i, src in enumerate(json.loads(${JSON.stringify(JSON.stringify(mutants))})):\n    try:\n        compile(src, 'm%d' % i, 'exec')\n    except SyntaxError as e:\n        bad.append((i, str(e)))\nprint(json.dumps(bad))`;
    const outcome = await runProgram(pool, check);
    expect(outcome.status, outcome.reason).toBe('ok');
    const bad = JSON.parse(outcome.stdout) as [number, string][];
    expect(bad.map(([i, e]) => `${e}\n${mutants[i]}`)).toEqual([]);
  });
});
