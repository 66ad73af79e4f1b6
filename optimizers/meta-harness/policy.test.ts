/** The pure parts of Meta-Harness candidates: the protocol parser, budgets, failure kinds, the leak checks, the sandbox command. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BUDGETS,
  DEFAULT_LIMITS,
  refuseCall,
  refuseObserve,
  remaining,
  resolveBudgets,
} from '../../strategies/harness/budgets.ts';
import { classifyChildError, classifyExit } from '../../strategies/harness/failure.ts';
import { parseChildLine } from '../../strategies/harness/protocol.ts';
import { sandboxCommand } from '../../strategies/harness/sandbox.ts';
import { publicFields } from '../../strategies/harness/strategy.ts';
import { embeddedTaskIds, literalText } from './validate.ts';

describe('parseChildLine', () => {
  it('accepts each message kind and keeps only its known fields', () => {
    expect(
      parseChildLine('{"id":1,"type":"chat","messages":[{"role":"user","content":"hi","x":1}],"purpose":"judge"}'),
    ).toEqual({
      id: 1,
      type: 'chat',
      messages: [{ role: 'user', content: 'hi' }],
      purpose: 'judge',
    });
    expect(parseChildLine('{"id":2,"type":"observe","program":"a+"}')).toEqual({
      id: 2,
      type: 'observe',
      program: 'a+',
    });
    expect(parseChildLine('{"type":"done","program":null,"memory":{"a":1}}')).toEqual({
      type: 'done',
      program: null,
      rationale: '',
      memory: { a: 1 },
    });
    expect(parseChildLine('{"type":"error","message":"boom","code":"EACCES"}')).toEqual({
      type: 'error',
      message: 'boom',
      code: 'EACCES',
      name: null,
    });
  });

  it('names what is wrong with a bad line', () => {
    expect(parseChildLine('hello')).toMatch(/^not JSON/);
    expect(parseChildLine('[1]')).toBe('not a JSON object');
    expect(parseChildLine('{"type":"chat","messages":[]}')).toBe('chat without an id');
    expect(
      parseChildLine('{"id":1,"type":"chat","messages":[{"role":"tool","content":"x"}],"purpose":"refine"}'),
    ).toMatch(/messages must be/);
    expect(
      parseChildLine('{"id":1,"type":"chat","messages":[{"role":"user","content":"x"}],"purpose":"solve"}'),
    ).toMatch(/purpose must be one of refine/);
    expect(parseChildLine('{"type":"done","program":3}')).toMatch(/program must be a string or null/);
    expect(parseChildLine('{"type":"exec","cmd":"id"}')).toBe('unknown message type "exec"');
  });

  it('never throws, whatever the line', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (line) => void parseChildLine(line)));
  });
});

describe('budgets', () => {
  it('refuses a call once calls, the message size or the tokens run out, and says which', () => {
    const budgets = resolveBudgets({ calls: 2, tokens: 100, messageChars: 1000 });
    const say = (n: number) => [{ role: 'user' as const, content: 'x'.repeat(n) }];
    expect(refuseCall(budgets, { calls: 0, tokens: 0, observes: 0 }, say(40))).toBeNull();
    expect(refuseCall(budgets, { calls: 2, tokens: 0, observes: 0 }, say(4))?.resource).toBe('calls');
    expect(refuseCall(budgets, { calls: 0, tokens: 0, observes: 0 }, say(1001))?.resource).toBe('message');
    expect(refuseCall(budgets, { calls: 0, tokens: 90, observes: 0 }, say(80))?.resource).toBe('tokens');
    expect(refuseObserve({ ...budgets, observes: 1 }, { calls: 0, tokens: 0, observes: 1 })?.resource).toBe('observes');
    expect(remaining(budgets, { calls: 1, tokens: 30, observes: 0 }, 100)).toEqual({
      calls: 1,
      tokens: 70,
      observes: DEFAULT_BUDGETS.observes,
      wallMs: DEFAULT_BUDGETS.wallMs - 100,
    });
  });

  it('rejects a budget that is not a non-negative integer, naming it', () => {
    expect(() => resolveBudgets({ calls: -1 })).toThrow(/harness budget calls must be a non-negative integer, got -1/);
    expect(() => resolveBudgets({ wallMs: 1.5 })).toThrow(/wallMs/);
  });
});

describe('failure kinds', () => {
  it('classifies what the child reported', () => {
    expect(
      classifyChildError({
        message: 'Error: Access to this API has been restricted',
        code: 'ERR_ACCESS_DENIED',
        name: 'Error',
      }).kind,
    ).toBe('sandbox-violation');
    expect(classifyChildError({ message: 'TypeError: fetch failed', code: null, name: 'TypeError' }).kind).toBe(
      'sandbox-violation',
    );
    expect(
      classifyChildError({ message: 'RangeError: Array buffer allocation failed', code: null, name: 'RangeError' })
        .kind,
    ).toBe('memory');
    expect(classifyChildError({ message: 'Error: gave up\n    at solve', code: null, name: 'Error' })).toEqual({
      kind: 'crash',
      message: 'Error: gave up',
    });
  });

  it('classifies how a silent child ended', () => {
    expect(classifyExit({ code: null, signal: 'SIGXCPU' }, '').kind).toBe('timeout');
    expect(
      classifyExit(
        { code: 134, signal: null },
        'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      ).kind,
    ).toBe('memory');
    expect(classifyExit({ code: null, signal: 'SIGKILL' }, '').kind).toBe('timeout');
    expect(classifyExit({ code: 3, signal: null }, 'oops').message).toMatch(/exit code 3.*oops/);
  });
});

describe('source checks', () => {
  it('finds task ids as whole string literals, or as words of four characters or more', () => {
    const source = "const a = '17';\nconst note = 'see question q-204 for this';\nconst n = 7;";
    expect(embeddedTaskIds(source, ['17', '7', 'q-204', 'q-20'])).toEqual(['17', 'q-204']);
  });

  it('gathers the text an author wrote as data: strings, templates, numbers, comments', () => {
    expect(literalText("const a = 'one'; // two\nconst b = `three ${x}`; const c = 420; const d = 0.5;")).toBe(
      "'one'\n// two\n`three ${x}`\n420\n0.5",
    );
  });

  it('leaves out a bare integer below 100 in code (a count or a budget), not one in a string or a comment', () => {
    expect(
      literalText("const KEEP = 30;\nconst rule = 'LIMIT 30'; // at most 30\nfor (let i = 0; i < 3; i++) {}"),
    ).toBe("'LIMIT 30'\n// at most 30");
  });
});

describe('publicFields', () => {
  it('keeps what the prompts show and withholds hidden tests and paths', () => {
    expect(
      publicFields({
        db_id: 'shop',
        schema: 'CREATE TABLE t (a)',
        evidence: 'e',
        db_path: '/data/shop.sqlite',
        test: 'class TestCases',
        testScript: 'def gen()',
      }),
    ).toEqual({ db_id: 'shop', schema: 'CREATE TABLE t (a)', evidence: 'e' });
    expect(publicFields(undefined)).toEqual({});
  });
});

describe('the sandbox command', () => {
  it('starts node with the permission model inside bwrap, no network, a clean environment, under limits', () => {
    const args = sandboxCommand({ code: '/staged/code' }, DEFAULT_LIMITS, '/usr/bin/node');
    const bwrap = args.indexOf('bwrap');
    const node = args.indexOf('/usr/bin/node');
    expect(args.slice(0, bwrap)).toEqual(
      expect.arrayContaining([
        `--as=${DEFAULT_LIMITS.addressSpaceBytes}`,
        `--cpu=${DEFAULT_LIMITS.cpuSeconds}`,
        '--core=0',
      ]),
    );
    expect(args.slice(bwrap, node)).toEqual(
      expect.arrayContaining(['--unshare-all', '--die-with-parent', '--clearenv', '--cap-drop', 'ALL']),
    );
    expect(args.slice(node)).toEqual([
      '/usr/bin/node',
      '--experimental-permission',
      '--allow-fs-read=/code/',
      '--allow-fs-write=/job/',
      '--disallow-code-generation-from-strings',
      `--max-old-space-size=${DEFAULT_LIMITS.heapMiB}`,
      '--no-warnings',
      '/code/runner.mjs',
    ]);
    // The only host folders in the sandbox, both read-only: /usr and the staged code; the job folder is a capped tmpfs.
    const binds = args.flatMap((a, i) =>
      a === '--bind' || a === '--ro-bind' ? [`${a} ${args[i + 1]} ${args[i + 2]}`] : [],
    );
    expect(binds).toEqual(['--ro-bind /usr /usr', '--ro-bind /staged/code /code']);
    expect(args.join(' ')).toContain(`--size ${DEFAULT_LIMITS.jobBytes} --tmpfs /job`);
  });

  it('binds a node installed outside /usr read-only at its own path', () => {
    const args = sandboxCommand({ code: '/c' }, DEFAULT_LIMITS, '/opt/node-v20/bin/node');
    expect(args.join(' ')).toContain('--ro-bind /opt/node-v20 /opt/node-v20');
  });
});
