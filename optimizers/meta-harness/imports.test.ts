/**
 * The static check of "imports only the SDK" on TypeScript's syntax tree: every import but the
 * SDK's and every way around one an adversary might write — aliases, destructuring, computed
 * keys, the console's private streams, the vm module, the prototype chain — is flagged with its
 * line; prompts, comments and types that merely mention these words are not; a source nested too
 * deep for a recursive walk is read without overflowing the stack.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importFindings } from './imports.ts';
import { seedHarnessFile, SEED_NAMES } from './seeds.ts';

const rules = async (source: string) => (await importFindings(source)).map((f) => `${f.line}:${f.rule}`);

describe('importFindings', () => {
  it('lists foreign imports and the ways around them, each with its line', async () => {
    const source = [
      "import { defineHarness } from 'witness-harness';",
      "import type { X } from 'node:fs';",
      "export * from './other.ts';",
      'const m = await import(name);',
      "const r = require('fs');",
      'const u = import.meta.url;',
      "new Function('return 1');",
      "const s = 'mentions import() and process.env in a prompt';",
    ].join('\n');
    expect(await rules(source)).toEqual([
      '2:import',
      '3:import',
      '4:dynamic import()',
      '5:require',
      '6:import.meta',
      '7:code from strings',
    ]);
  }, 30_000);

  it.each([
    ['an alias of process', 'const p = process;\np.exit(0);', ['1:process']],
    ['process destructured', 'const { env } = process;', ['1:process']],
    [
      'process declared to please the typechecker',
      'declare const process: any;\nprocess.exit(1);',
      ['1:process', '2:process'],
    ],
    ['globalThis aliased', 'const g = globalThis;', ['1:globalThis']],
    ['process destructured from globalThis', 'const { process: p } = globalThis as any;', ['1:globalThis']],
    ['a computed key on globalThis', "const p = (globalThis as any)['pro' + 'cess'];", ['1:globalThis']],
    ["the console's private stream", "(console as any)._stdout.write('x');", ['1:console', '1:Node internals']],
    ['console._stdout as a member', "console._stdout.write('x');", ['1:console', '1:Node internals']],
    ['a computed key on console', "const w = (console as any)['_std' + 'out'];", ['1:console']],
    ['console aliased', "const c = console;\nc.log('x');", ['1:console']],
    ['console passed on', 'keep(console);', ['1:console']],
    ['a console method that writes to stdout itself', 'console.table([1]);', ['1:console']],
    ['vm.runInThisContext', "declare const vm: any;\nvm.runInThisContext('1');", ['2:vm']],
    ['a vm entry point by string key', "const run = lib['runInNewContext'];", ['1:vm']],
    [
      'the constructor chain',
      "[].constructor.constructor('return this')();",
      ['1:prototype chain', '1:prototype chain'],
    ],
    [
      'constructor through Reflect',
      "const F = Reflect.get(Object.getPrototypeOf(f), 'constructor');",
      ['1:prototype chain', '1:prototype chain'],
    ],
    ['a getter of the prototype', 'const proto = ({} as any).__proto__;', ['1:prototype chain']],
    ['Node stack internals', 'Error.prepareStackTrace = (_e: unknown, s: unknown) => s;', ['1:Node internals']],
    ['eval', "eval('1');", ['1:code from strings']],
    ['a class extending Function', 'class F extends Function {}', ['1:code from strings']],
    ['Buffer', 'const B = Buffer;', ['1:module internals']],
    ['the network', "await fetch('http://127.0.0.1:1/');", ['1:network']],
    ['WebAssembly', 'WebAssembly.compile(bytes);', ['1:WebAssembly']],
    ['an import of the host module by require-import', "import fs = require('node:fs');", ['1:import']],
  ])(
    'flags %s',
    async (_name, source, expected) => {
      expect(await rules(source)).toEqual(expected);
    },
    30_000,
  );

  it('leaves alone prompts, comments, types and object keys that only mention these names', async () => {
    const source = [
      "const prompt = 'do not use process.env, globalThis, console._stdout or vm.runInThisContext';",
      '// process.exit(); globalThis.fetch(); (console as any)._stdout',
      '/* require("fs"); eval("1") */',
      'let callback: Function | null = null;',
      'type P = typeof process;',
      'interface Ctor { constructor: Function }',
      'const settings = { constructor: 1, binding: 2 };',
      "console.log('a'); console.info('b'); console.debug('c'); console.warn('d'); console.error('e');",
    ].join('\n');
    expect(await rules(source)).toEqual([]);
  }, 30_000);

  it('passes every seed harness', async () => {
    for (const seed of SEED_NAMES)
      expect(await importFindings(readFileSync(seedHarnessFile(seed), 'utf8'))).toEqual([]);
  }, 60_000);

  it('reads a source nested 100,000 levels deep without overflowing the stack', async () => {
    const source = `const x = ${'('.repeat(100_000)}process${')'.repeat(100_000)};`;
    expect(await rules(source)).toEqual(['1:process']);
  }, 60_000);
});
