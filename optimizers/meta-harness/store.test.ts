import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { confine } from '../../core/paths-inside.ts';
import { MetaHarnessStore } from './store.ts';
import type { EvolutionRow, ScoresRecord } from './store-records.ts';

const made: string[] = [];
const storeDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'witness-mh-store-'));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const scores: ScoresRecord = {
  passAtFinal: 0.5,
  meanTokens: 120,
  meanCalls: 1.5,
  meanTimeMs: 30,
  tasks: [
    { taskId: '1', trial: 0, pass: true, tokens: 100, calls: 1, timeMs: 20 },
    { taskId: '2', trial: 0, pass: false, tokens: 140, calls: 2, timeMs: 40, error: 'stopped: wall limit' },
  ],
};
const row = (id: string, iteration: number): EvolutionRow => ({
  iteration,
  id,
  parent: iteration === 0 ? null : 'zero-shot',
  hypothesis: 'h',
  mechanism: 'prompt rule',
  outcome: 'evaluated',
  passAtFinal: 0.5,
  meanTokens: 120,
  deltaVsBest: null,
  onFrontier: true,
});
const proposal = (id: string) => ({
  id,
  iteration: 1,
  parent: 'zero-shot',
  hypothesis: 'a rule fixes counts',
  mechanism: 'prompt rule',
  proposer: 'sim',
});

describe('MetaHarnessStore', () => {
  it('lays a search run out as documented, with held-out results beside it, not inside', () => {
    const dir = storeDir();
    const store = new MetaHarnessStore(dir, 'run-1');
    store.writeHarness('c1', 'export default {}\n');
    store.writeProposal(proposal('c1'));
    store.writeValidation('c1', { ok: true, checks: [{ name: 'typecheck', ok: true }] });
    store.writeScores('c1', scores);
    store.writeTrace('c1', 'task-1-t0', { turns: [] });
    store.appendEvolution(row('c1', 1));
    store.writeFrontier({ iteration: 1, members: [{ id: 'c1', passAtFinal: 0.5, meanTokens: 120 }] });
    store.writeProposerTranscript(1, 'step-001', { messages: [] });
    store.writeReport(1, '# Iteration 1');
    store.markSearchFinished();
    store.writeHeldOut({ results: [{ id: 'c1', scores }] });
    const files = (sub: string): string[] =>
      readdirSync(join(dir, sub), { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => relative(join(dir, sub), join(d.parentPath, d.name)))
        .sort();
    expect(files('meta-harness/run-1')).toEqual([
      'candidates/c1/harness.ts',
      'candidates/c1/proposal.json',
      'candidates/c1/scores.json',
      'candidates/c1/traces/task-1-t0.json',
      'candidates/c1/validation.json',
      'evolution.jsonl',
      'frontier.json',
      'proposer/1/step-001.json',
      'reports/iteration-1.md',
      'search-finished.json',
    ]);
    expect(files('meta-harness/run-1.heldout')).toEqual(['results.json']);
    expect(() => confine(store.root, join(store.heldOutDir, 'results.json'))).toThrow(/is outside/);
    expect(store.readProposal('c1')).toEqual(proposal('c1'));
    expect(store.readScores('c1')).toEqual(scores);
    expect(store.readHarness('c1')).toBe('export default {}\n');
    expect(store.listTraces('c1')).toEqual(['task-1-t0']);
    expect(store.readFrontier()?.members.map((m) => m.id)).toEqual(['c1']);
    expect(store.readHeldOut()?.results[0]?.id).toBe('c1');
  });

  it('refuses ids and names that could leave their folder', () => {
    const store = new MetaHarnessStore(storeDir(), 'run');
    for (const bad of ['..', '../x', 'a/b', 'a\\b', '.hidden', '', 'x'.repeat(81), 'nul\0']) {
      expect(() => store.writeHarness(bad, '')).toThrow(/candidate id .* must be 1 to 80 letters/);
    }
    expect(() => store.writeTrace('ok', '../../evil', {})).toThrow(/trace name/);
    expect(() => new MetaHarnessStore(storeDir(), '../up')).toThrow(/search run id/);
    expect(() => store.writeReport(-1, 'x')).toThrow(/iteration must be an integer ≥ 0/);
  });

  it('refuses to write held-out results before the search is marked finished', () => {
    const store = new MetaHarnessStore(storeDir(), 'run');
    expect(() => store.writeHeldOut({ results: [] })).toThrow(/only be written after the search/);
    expect(existsSync(store.heldOutDir)).toBe(false);
  });

  it('checks records on read and write, naming the file and the field', () => {
    const store = new MetaHarnessStore(storeDir(), 'run');
    store.writeHarness('c2', '');
    const file = join(store.candidateDir('c2'), 'scores.json');
    writeFileSync(file, JSON.stringify({ ...scores, passAtFinal: 2 }));
    expect(() => store.readScores('c2')).toThrow(`${file}: passAtFinal must be a number between 0 and 1, got 2`);
    writeFileSync(file, JSON.stringify({ ...scores, tasks: [{ ...scores.tasks[0], pass: 'yes' }] }));
    expect(() => store.readScores('c2')).toThrow(`${file}: tasks[0].pass must be a boolean, got "yes"`);
    writeFileSync(file, '{ not json');
    expect(() => store.readScores('c2')).toThrow(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: is not valid JSON`),
    );
    expect(() => store.writeScores('c2', { ...scores, meanTokens: -1 })).toThrow(/meanTokens must be a number ≥ 0/);
    store.writeProposal(proposal('c2'));
    const moved = join(store.candidateDir('c2'), 'proposal.json');
    writeFileSync(moved, JSON.stringify(proposal('other')));
    expect(() => store.readProposal('c2')).toThrow(/id must be "c2" \(its folder\), got "other"/);
    expect(() => store.readValidation('c2')).toThrow(/validation.json: cannot be read: ENOENT/);
  });

  it('writes atomically: no temp files stay behind, and a rewrite replaces the whole file', () => {
    const store = new MetaHarnessStore(storeDir(), 'run');
    store.writeScores('c3', scores);
    store.writeScores('c3', { ...scores, passAtFinal: 1 });
    expect(readdirSync(store.candidateDir('c3'))).toEqual(['scores.json']);
    expect(JSON.parse(readFileSync(join(store.candidateDir('c3'), 'scores.json'), 'utf8')).passAtFinal).toBe(1);
  });

  it('reads evolution rows back, drops a line cut short by a kill, and names a corrupt line', () => {
    const store = new MetaHarnessStore(storeDir(), 'run');
    store.appendEvolution(row('a', 0));
    store.appendEvolution(row('b', 1));
    appendFileSync(store.evolutionFile, '{"iteration": 2, "id": "c", "par');
    expect(store.readEvolution().map((r) => r.id)).toEqual(['a', 'b']);
    appendFileSync(store.evolutionFile, '\n{"iteration": 2}\n');
    expect(() => store.readEvolution()).toThrow(/evolution.jsonl:3: is not valid JSON/);
    writeFileSync(
      store.evolutionFile,
      `${JSON.stringify(row('a', 0))}\n${JSON.stringify({ ...row('b', 1), onFrontier: 1 })}\n`,
    );
    expect(() => store.readEvolution()).toThrow(/evolution.jsonl:2: onFrontier must be a boolean, got 1/);
  });

  it('tells a resumed search which candidates are fully evaluated', () => {
    const store = new MetaHarnessStore(storeDir(), 'run');
    for (const id of ['done', 'invalid', 'validated-only', 'written-only']) store.writeHarness(id, '');
    store.writeValidation('done', { ok: true, checks: [] });
    store.writeScores('done', scores);
    store.writeValidation('invalid', {
      ok: false,
      checks: [{ name: 'imports', ok: false, message: 'imports node:fs' }],
    });
    store.writeValidation('validated-only', { ok: true, checks: [] });
    expect(store.evaluationState()).toEqual({
      evaluated: ['done', 'invalid'],
      pending: ['validated-only', 'written-only'],
    });
  });
});
