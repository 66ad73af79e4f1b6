/** The proposer's file tools on a real store folder: confinement (also through symbolic links), limits, reserved files. */
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_ID, seededStore } from '../../../testing/meta-harness/seeded-store.ts';
import { runTool, TOOL_LIMITS, type ToolContext } from './tools.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function context(): ToolContext {
  const { store, cleanup } = seededStore(['c1-a']);
  cleanups.push(cleanup);
  return { store, candidateIds: ['c1-a'], writableFiles: [join(store.root, 'proposer/1/report.md')] };
}

describe('proposer tools', () => {
  it('refuses a symbolic link inside the store that leads out, for read, list and write', () => {
    const c = context();
    symlinkSync(c.store.heldOutDir, join(c.store.root, 'peek'));
    symlinkSync(c.store.heldOutDir, join(c.store.candidateDir('c1-a'), 'out'));
    for (const result of [
      runTool(c, { action: 'read', path: 'peek/results.json', offset: 0, limit: 10 }),
      runTool(c, { action: 'list', path: 'peek' }),
      runTool(c, { action: 'write', path: 'candidates/c1-a/out/x.ts', content: 'x' }),
    ]) {
      expect(result.ok).toBe(false);
      expect(result.observation).toMatch(/leads outside the folder "run-1" through a symbolic link/);
    }
  });

  it('grep does not follow links and stops at its match limit', () => {
    const c = context();
    symlinkSync(c.store.heldOutDir, join(c.store.root, 'peek'));
    const hidden = runTool(c, { action: 'grep', pattern: 'held-out', path: '.' });
    expect(hidden).toEqual({ ok: true, observation: '0 matching lines (line numbers 0-based)' });
    mkdirSync(join(c.store.root, 'notes'));
    writeFileSync(join(c.store.root, 'notes', 'many.txt'), 'hit\n'.repeat(TOOL_LIMITS.grepMatches + 5));
    const many = runTool(c, { action: 'grep', pattern: '^hit$', path: 'notes' });
    expect(many.observation.split('\n').filter((l) => l.startsWith('notes/many.txt:'))).toHaveLength(
      TOOL_LIMITS.grepMatches,
    );
    expect(many.observation).toMatch(/stopped at 100 matches/);
    writeFileSync(join(c.store.root, 'notes', 'big.txt'), 'hit\n'.repeat((TOOL_LIMITS.grepFileBytes >> 2) + 1));
    expect(runTool(c, { action: 'grep', pattern: 'nothing', path: 'notes' }).observation).toBe(
      '0 matching lines (line numbers 0-based; 1 file over 1 MiB skipped (read them))',
    );
    expect(runTool(c, { action: 'grep', pattern: '(', path: '.' }).observation).toMatch(
      /not a valid JavaScript regular expression/,
    );
  });

  it('stops a pattern that backtracks without end at its time limit', () => {
    const c = context();
    writeFileSync(join(c.store.root, 'aaa.txt'), `${'a'.repeat(40)}b\n`);
    const started = performance.now();
    // A lookahead keeps V8 on its backtracking engine (no linear fallback for it).
    const result = runTool(c, { action: 'grep', pattern: '(a+)+(?=c)', path: 'aaa.txt' });
    expect(result.ok).toBe(false);
    expect(result.observation).toMatch(/the pattern ran longer than 2000 ms/);
    expect(performance.now() - started).toBeLessThan(TOOL_LIMITS.grepMs + 3000);
    expect(runTool(c, { action: 'grep', pattern: 'a{40}b', path: 'aaa.txt' }).observation).toMatch(/^1 matching line/);
  });

  it('names what is wrong with a read or list', () => {
    const c = context();
    expect(runTool(c, { action: 'read', path: 'nope.json', offset: 0, limit: 5 }).observation).toBe(
      'error: nope.json: no such file or folder',
    );
    expect(runTool(c, { action: 'read', path: 'frontier.json', offset: 500, limit: 5 }).observation).toMatch(
      /offset 500 is past the end \(\d+ lines\)/,
    );
    expect(runTool(c, { action: 'read', path: 'candidates', offset: 0, limit: 5 }).observation).toMatch(/is a folder/);
    expect(runTool(c, { action: 'list', path: 'frontier.json' }).observation).toMatch(/is a file/);
    const long = 'x'.repeat(TOOL_LIMITS.lineChars + 10);
    writeFileSync(join(c.store.root, 'long.txt'), `${long}\n`);
    expect(runTool(c, { action: 'read', path: 'long.txt', offset: 0, limit: 5 }).observation).toMatch(
      /\[… line cut\]$/,
    );
  });

  it('writes only new files of the iteration, within the size limit', () => {
    const c = context();
    expect(runTool(c, { action: 'write', path: 'frontier.json', content: '{}' }).observation).toMatch(
      /writes go only into this iteration's candidate folders \(candidates\/c1-a\/, proposer\/1\/report\.md\)/,
    );
    expect(runTool(c, { action: 'write', path: 'candidates/c1-a', content: 'x' }).ok).toBe(false);
    expect(runTool(c, { action: 'write', path: 'candidates/c1-a/traces/t.json', content: '{}' }).observation).toMatch(
      /traces is written by the search/,
    );
    const big = 'x'.repeat(TOOL_LIMITS.writeBytes + 1);
    expect(runTool(c, { action: 'write', path: 'candidates/c1-a/harness.ts', content: big }).observation).toMatch(
      /more than the 262144 a file may have/,
    );
    const ok = runTool(c, { action: 'write', path: 'candidates/c1-a/lib/notes.md', content: 'n' });
    expect(ok).toEqual({
      ok: true,
      observation: 'wrote candidates/c1-a/lib/notes.md (1 bytes)',
      wrote: 'candidates/c1-a/lib/notes.md',
    });
    expect(runTool(c, { action: 'write', path: `candidates/${SEED_ID}/../c1-a/harness.ts`, content: 'y' }).ok).toBe(
      true,
    );
  });

  it('never turns a file of the candidate into a folder, nor a folder into a file', () => {
    const c = context();
    const refusals: [string, RegExp][] = [
      ['candidates/c1-a/harness.ts/x.ts', /harness\.ts is a file of the candidate, it cannot hold other files/],
      ['candidates/c1-a/proposal.json/x', /proposal\.json is a file of the candidate/],
      ['candidates/c1-a/spend.json/x', /spend\.json is written by the search/],
      ['candidates/c1-a/spend.json', /spend\.json is written by the search/],
      ['candidates/c1-a/proposal.invalid.json', /proposal\.invalid\.json is written by the search/],
    ];
    for (const [path, reason] of refusals) {
      const result = runTool(c, { action: 'write', path, content: 'x' });
      expect(result.ok, path).toBe(false);
      expect(result.observation).toMatch(reason);
    }
    expect(runTool(c, { action: 'write', path: 'candidates/c1-a/lib/notes.md', content: 'n' }).ok).toBe(true);
    expect(
      runTool(c, { action: 'write', path: 'candidates/c1-a/lib/notes.md/deeper.md', content: 'n' }).observation,
    ).toBe('error: candidates/c1-a/lib/notes.md/deeper.md: candidates/c1-a/lib/notes.md is a file, not a folder');
    expect(runTool(c, { action: 'write', path: 'candidates/c1-a/lib', content: 'n' }).observation).toMatch(
      /lib: is a folder, not a file/,
    );
    // What the refused writes would have made: nothing.
    expect(readdirSync(c.store.candidateDir('c1-a')).sort()).toEqual(['lib']);
    expect(runTool(c, { action: 'write', path: 'candidates/c1-a/harness.ts', content: 'h' }).ok).toBe(true);
    expect(c.store.harnessState('c1-a')).toBe('file');
  });
});
