import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileRegex } from './compile.ts';
import { RegexMatcher, sharedMatcher } from './matcher.ts';

const matcher = new RegexMatcher({ deadlineMs: 1000 });

/** A process's command line, or '' once it is gone. */
function cmdline(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}
afterAll(() => matcher.close());

describe('RegexMatcher', () => {
  it('matches regular regexes on the DFA', async () => {
    const outcome = await matcher.matchAll(compileRegex('.*dog.*', 'brics'), ['dog', 'hotdogs', 'cat']);
    expect(outcome).toMatchObject({ ok: true, engine: 'dfa', results: [true, true, false] });
  });

  it('matches non-regular ECMAScript regexes on V8 with full-match semantics', async () => {
    const compiled = compileRegex('(?=.*\\d)[a-z0-9]+', 'ecmascript');
    expect(compiled.dfa).toBeNull();
    const outcome = await matcher.matchAll(compiled, ['abc1', 'abc', 'abc1!', '']);
    expect(outcome).toMatchObject({ ok: true, engine: 'v8', results: [true, false, false, false] });
  });

  it('anchors at the input edges even with the m flag', async () => {
    const compiled = compileRegex('(?=.*b)^a.*$', 'ecmascript', 'm');
    const outcome = await matcher.matchAll(compiled, ['ab', 'x\nab', 'ab\nx', 'a\nb']);
    expect(outcome).toMatchObject({ ok: true, results: [true, false, true, true] });
  });

  it('times out a catastrophic backreference pattern within the deadline, then keeps working', async () => {
    const compiled = compileRegex('^(a+)+\\1b$', 'ecmascript');
    expect(compiled.dfa).toBeNull();
    const started = performance.now();
    const outcome = await matcher.matchAll(compiled, ['a'.repeat(40) + '!']);
    const elapsed = performance.now() - started;
    expect(outcome).toMatchObject({ ok: false, timeout: true });
    expect(elapsed).toBeLessThan(2000);
    const after = await matcher.matchAll(compiled, ['aab', 'aaaab', 'ab']);
    expect(after).toMatchObject({ ok: true, engine: 'v8', results: [true, true, false] });
  });

  it('queues concurrent batches and applies each deadline from dispatch', async () => {
    const slow = compileRegex('^(a+)+\\1b$', 'ecmascript');
    const fast = compileRegex('(\\w)\\1', 'ecmascript');
    const [first, second] = await Promise.all([
      matcher.matchAll(slow, ['a'.repeat(40) + '!'], 300),
      matcher.matchAll(fast, ['aa', 'ab'], 1000),
    ]);
    expect(first).toMatchObject({ ok: false, timeout: true });
    expect(second).toMatchObject({ ok: true, results: [true, false] });
  });

  it('refuses work after close', async () => {
    const closed = new RegexMatcher();
    await closed.close();
    await expect(closed.matchAll(compileRegex('(a+)\\1', 'ecmascript'), ['a'])).rejects.toThrow(/closed/);
  });

  it('shares one lazily created matcher', () => {
    expect(sharedMatcher()).toBe(sharedMatcher());
  });

  it('leaves nothing behind when its process is killed with SIGKILL during a runaway match', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'witness-orphan-'));
    const here = resolve(import.meta.dirname);
    const marker = `witness-orphan-${process.pid}-${Date.now()}`;
    const script = join(dir, `${marker}.mts`);
    writeFileSync(
      script,
      [
        `import { compileRegex } from ${JSON.stringify(join(here, 'compile.ts'))};`,
        `import { RegexMatcher } from ${JSON.stringify(join(here, 'matcher.ts'))};`,
        `const matcher = new RegexMatcher();`,
        `void matcher.matchAll(compileRegex('^(a+)+\\\\1b$', 'ecmascript'), ['a'.repeat(60) + '!'], 600_000);`,
        `setTimeout(() => console.log('running ' + matcher.threads), 300);`,
        `setInterval(() => {}, 1000);`,
      ].join('\n'),
    );
    const child = spawn(process.execPath, [resolve(here, '../../node_modules/tsx/dist/cli.mjs'), script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const line = await new Promise<string>((resolveLine, reject) => {
        child.stdout.on('data', (chunk: Buffer) => resolveLine(chunk.toString()));
        child.on('exit', (code) => reject(new Error(`the script exited early (${code})`)));
      });
      // The match is still running in its worker thread (the deadline is ten minutes away).
      expect(line.trim()).toBe('running 1');
      // tsx runs the script in a child node process: find every process of the script.
      const ofScript = () => readdirSync('/proc').filter((pid) => /^\d+$/.test(pid) && cmdline(pid).includes(marker));
      const pids = ofScript();
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) process.kill(Number(pid), 'SIGKILL');
      const started = performance.now();
      while (ofScript().length > 0 && performance.now() - started < 5_000) await new Promise((r) => setTimeout(r, 50));
      expect(ofScript()).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loads its worker under tsx and never keeps the process alive', () => {
    const dir = mkdtempSync(join(tmpdir(), 'witness-matcher-'));
    try {
      const here = resolve(import.meta.dirname);
      const script = join(dir, 'script.mts');
      writeFileSync(
        script,
        [
          `import { compileRegex } from ${JSON.stringify(join(here, 'compile.ts'))};`,
          `import { sharedMatcher } from ${JSON.stringify(join(here, 'matcher.ts'))};`,
          `const ok = await sharedMatcher().matchAll(compileRegex('(a+)\\\\1', 'ecmascript'), ['aa', 'aaa']);`,
          `const slow = await sharedMatcher().matchAll(compileRegex('^(a+)+\\\\1b$', 'ecmascript'), ['a'.repeat(40) + '!'], 200);`,
          `console.log(JSON.stringify([ok.ok && ok.results, slow.ok]));`,
        ].join('\n'),
      );
      const cli = resolve(here, '../../node_modules/tsx/dist/cli.mjs');
      const output = execFileSync(process.execPath, [cli, script], { encoding: 'utf8', timeout: 20_000 });
      expect(output.trim()).toBe('[[true,false],false]');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
