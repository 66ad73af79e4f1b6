import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadBigCodeBench, parseLibs } from './bigcodebench/loader.ts';
import { programFor, sampleSolution } from './bigcodebench/program.ts';
import { loadDsCodeBench } from './dscodebench/loader.ts';
import { extractPython } from './extract.ts';
import { readJsonl } from './jsonl.ts';

const fixture = (path: string) => fileURLToPath(new URL(`../../fixtures/${path}`, import.meta.url));
const temp = (name: string, content: string | Buffer) => {
  const path = join(mkdtempSync(join(tmpdir(), 'witness-py-load-')), name);
  writeFileSync(path, content);
  return path;
};

describe('JSON Lines datasets', () => {
  it('reads plain, gzipped and JSON-array files and reports each broken line by number', () => {
    const text = '{"a": 1}\n\nnot json\n[1]\n{"a": 2}\n';
    const plain = readJsonl(temp('x.jsonl', text));
    expect(plain.records.map((r) => [r.line, r.value.a])).toEqual([
      [1, 1],
      [5, 2],
    ]);
    expect(plain.issues.map((i) => i.line)).toEqual([3, 4]);
    expect(readJsonl(temp('x.jsonl.gz', gzipSync(text))).records).toHaveLength(2);
    expect(readJsonl(temp('x.json', '[{"a": 1}, 2]')).issues).toEqual([
      { line: 2, message: 'item is not a JSON object' },
    ]);
    expect(() => readJsonl('/nonexistent/file.jsonl')).toThrow(/cannot read \/nonexistent\/file\.jsonl/);
  });
});

describe('the DSCodeBench loader', () => {
  it('loads the 27 fixture tasks of the standard library, numpy, pandas, scipy and scikit-learn', () => {
    const { tasks, issues } = loadDsCodeBench(fixture('dscodebench/dscodebench.jsonl'));
    expect(issues).toEqual([]);
    expect(tasks).toHaveLength(27);
    expect(new Set(tasks.map((t) => t.context?.library))).toEqual(
      new Set(['Python', 'NumPy', 'Pandas', 'SciPy', 'Scikit-learn']),
    );
    expect(tasks[0]).toMatchObject({
      id: 'witness_std_001',
      benchmark: 'dscodebench',
      meta: { source: 'dscodebench.jsonl', line: 1 },
    });
    expect(String(tasks[0]?.context?.testScript)).toContain('def test_case_input_generator(n=200)');
  });

  it('names each broken item and keeps the good ones', () => {
    const good = readFileSync(fixture('dscodebench/dscodebench.jsonl'), 'utf8').split('\n')[0] as string;
    const noGenerator = JSON.stringify({ ...JSON.parse(good), problem_id: 'x', test_script: 'pass' });
    const path = temp('ds.jsonl', [good, '{"problem_id": 1}', noGenerator, good, '{oops'].join('\n'));
    const { tasks, issues } = loadDsCodeBench(path);
    expect(tasks.map((t) => t.id)).toEqual(['witness_std_001']);
    expect(issues.map((i) => i.item)).toEqual(['ds.jsonl:5', 'ds.jsonl:2', 'ds.jsonl:3', 'ds.jsonl:4']);
    expect(issues[1]?.message).toMatch(
      /missing or non-string field\(s\): library, code_problem, ground_truth_code, test_script/,
    );
    expect(issues[2]?.message).toMatch(/defines no test_case_input_generator/);
    expect(issues[3]?.message).toMatch(/appears twice/);
  });
});

describe('the BigCodeBench loader', () => {
  it('loads the 27 fixture tasks with every official field', () => {
    const { tasks, issues } = loadBigCodeBench(fixture('bigcodebench/bigcodebench.jsonl'));
    expect(issues).toEqual([]);
    expect(tasks).toHaveLength(27);
    const first = tasks[0];
    expect(first?.id).toBe('WitnessBCB/0');
    expect(first?.description).toMatch(
      /You should write self-contained code starting with:\n```\nimport collections\nimport string\ndef task_func\(text\):\n```$/,
    );
    expect(first?.gold.startsWith(String(first?.context?.codePrompt))).toBe(true);
    expect(first?.context?.libs).toEqual(['collections', 'string']);
    const libs = new Set(tasks.flatMap((t) => t.context?.libs as string[]));
    expect(libs.has('numpy') && libs.has('pandas') && libs.has('re')).toBe(true);
  });

  it('parses the libs literal and reports malformed records', () => {
    expect(parseLibs("['random', 'itertools', 'random']")).toEqual(['random', 'itertools']);
    expect(parseLibs('[]')).toEqual([]);
    expect(parseLibs('random')).toBeNull();
    const good = JSON.parse(readFileSync(fixture('bigcodebench/bigcodebench.jsonl'), 'utf8').split('\n')[0] as string);
    const path = temp(
      'bcb.jsonl',
      [
        JSON.stringify({ ...good, libs: 'numpy' }),
        JSON.stringify({ ...good, test: 'x = 1' }),
        JSON.stringify({ ...good, task_id: 'B/1', libs: ['os'] }),
      ].join('\n'),
    );
    const { tasks, issues } = loadBigCodeBench(path);
    expect(tasks.map((t) => [t.id, t.context?.libs])).toEqual([['B/1', ['os']]]);
    expect(issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/libs of WitnessBCB\/0 is not a list literal/),
      expect.stringMatching(/defines no class TestCases/),
    ]);
  });

  it('builds programs as the official evaluator does', () => {
    expect(programFor('    return 1\n', 'import os\ndef task_func():\n', true)).toBe(
      'import os\ndef task_func():\n\n    pass\n    return 1\n',
    );
    expect(programFor('def task_func():\n    return 1\n', 'def task_func():\n', false)).toBe(
      'def task_func():\n    return 1\n',
    );
    expect(sampleSolution({ solution: 'a' }, 'P')).toBe('a');
    expect(sampleSolution({ completion: '    return 2' }, 'P')).toBe('P    return 2');
    expect(sampleSolution({}, 'P')).toEqual({ problem: 'has no "solution" or "completion" string' });
    expect(sampleSolution({ solution: 7 }, 'P')).toEqual({
      problem: 'has a "solution" that is a number, not a string',
    });
    expect(sampleSolution({ solution: null, completion: '    pass' }, 'P')).toBe('P    pass');
    expect(sampleSolution({ completion: ['x'] }, 'P')).toEqual({
      problem: 'has a "completion" that is an array, not a string',
    });
  });
});

describe('finding the program in a reply', () => {
  it('takes the first python block for DSCodeBench and the last for BigCodeBench', () => {
    const reply = 'Draft:\n```python\ndef a(): pass\n```\nFinal:\n```python\ndef b(): pass\n```';
    expect(extractPython(reply, 'first')?.source).toBe('def a(): pass');
    expect(extractPython(reply, 'last')?.source).toBe('def b(): pass');
    expect(extractPython('def f(x):\n    return x', 'first')).toEqual({
      source: 'def f(x):\n    return x',
      extraction: 'whole-reply',
    });
    expect(extractPython('I cannot help with that.', 'last')).toBeNull();
  });
});
