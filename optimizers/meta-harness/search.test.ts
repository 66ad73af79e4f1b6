/**
 * The Meta-Harness search end to end with real components: the nl-rx fixture suite, the regex
 * oracle, harnesses in their sandboxed children, the steerable sim as the task model and the seeded
 * sim proposer. The search must find a harness that beats the zero-shot seed by at least 15 points
 * of Pass@final on the search pool AND on the held-out test split; broken candidates (one that does
 * not typecheck, one that imports node:fs, one that embeds a task id) are recorded invalid and the
 * search goes on.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.ts';
import { createSteerableSimModel } from '../../core/models/steerable-sim.ts';
import { loadPrompt } from '../../core/prompt.ts';
import { nlRxSpec } from '../../oracles/regex/spec.ts';
import type { Proposer } from './proposer.ts';
import { runSearch } from './search.ts';
import { heroSources } from '../../cli/hero-sources.ts';
import { searchPools } from './search-pools.ts';
import { renderSearchReport } from './search-report.ts';
import { seedHarnessFile } from './seeds.ts';
import { createSimProposer } from './sim-proposer.ts';
import { MetaHarnessStore } from './store.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'witness-mh-search-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { config } = loadConfig(root, {});
const spec = nlRxSpec(config);
const prompt = loadPrompt(spec.prompt);

describe('the search with the steerable sim and the sim proposer (nl-rx fixtures)', () => {
  it('finds a harness that beats the zero-shot seed by ≥ 15 points on the search pool and on the test split', async () => {
    const pools = searchPools('nl-rx', await heroSources('nl-rx', config), { seed: 1, limit: 12 });
    expect(pools.search.length).toBe(12);
    expect(pools.test.length).toBe(12);
    const searchIds = new Set(pools.search.map((t) => t.id));
    expect(pools.test.some((t) => searchIds.has(t.id))).toBe(false);
    const store = new MetaHarnessStore(join(dir, 'steer'), 'run');
    const result = await runSearch({
      store,
      oracle: spec.oracle,
      prompt,
      model: createSteerableSimModel({ seed: 1 }),
      tasks: pools.search,
      testTasks: pools.test,
      trials: 1,
      seed: 1,
      price: null,
      proposer: createSimProposer({ seed: 1, language: 'regex' }),
      skillFile: join(root, 'docs/meta-harness.md'),
      options: { iterations: 2, candidates: 2, seeds: ['zero-shot', 'self-verify'] },
    });
    expect(result.stoppedBy).toBe('iterations');
    const seed = result.rows.find((r) => r.id === 'seed-zero-shot');
    const found = result.rows
      .filter((r) => r.iteration > 0 && r.passAtFinal !== null)
      .sort((a, b) => (b.passAtFinal as number) - (a.passAtFinal as number))[0];
    expect(seed?.passAtFinal).not.toBeNull();
    expect(found).toBeDefined();
    const [s, f] = [seed?.passAtFinal as number, found?.passAtFinal as number];
    expect(f - s).toBeGreaterThanOrEqual(0.15);
    expect(result.frontier?.members[0]?.id).toBe(found?.id);

    // Held out: the found harness against the seed, paired.
    const heldOut = store.readHeldOut();
    expect(heldOut).not.toBeNull();
    const test = (id: string) => heldOut?.results.find((r) => r.id === id)?.scores.passAtFinal as number;
    expect(test(found?.id as string) - test('seed-zero-shot')).toBeGreaterThanOrEqual(0.15);
    const comparison = result.comparisons.find((c) => c.id === found?.id);
    expect(comparison?.baseline).toBe('seed-zero-shot');
    expect(comparison?.fixes.length).toBeGreaterThan(comparison?.breaks.length as number);
    expect(comparison?.delta).toBeCloseTo(test(found?.id as string) - test('seed-zero-shot'), 10);

    // The store: every evaluated candidate with its files; held-out results outside the proposer's root.
    for (const row of result.rows) {
      expect(row.outcome).toBe('evaluated');
      expect(store.listTraces(row.id)).toHaveLength(12);
      expect(store.readValidation(row.id).ok).toBe(true);
      expect(store.readScores(row.id).tasks).toHaveLength(12);
    }
    expect(store.readProposal(found?.id as string).proposer).toBe('sim');
    expect(store.heldOutDir.startsWith(store.root + '/')).toBe(false);
    for (const it of [0, 1, 2]) expect(existsSync(store.reportFile(it))).toBe(true);
    const transcript = JSON.parse(readFileSync(join(store.proposerDir(1), 'transcript.json'), 'utf8')) as {
      transcript: { action: string; file?: string }[];
    };
    expect(transcript.transcript.some((s) => s.action === 'read' && /traces\//.test(s.file ?? ''))).toBe(true);

    const report = renderSearchReport(
      store,
      {
        suite: 'nl-rx',
        model: 'sim-steerable',
        proposer: 'sim',
        proposerSimulated: true,
        privilegedNotice: 'The task model is the privileged steerable sim.',
        stoppedBy: result.stoppedBy,
        spent: result.spent,
        searchTasks: 12,
        testTasks: 12,
      },
      heldOut,
      result.comparisons,
      result.baseline,
    );
    expect(report).toContain('**Proposer simulated**');
    expect(report).toContain('privileged steerable sim');
    expect(report).toContain(`| ${found?.id} |`);
    expect(report).toMatch(/## Held-out test split[\s\S]*seed-zero-shot \(baseline\)/);
  }, 120_000);

  it('records broken candidates as invalid, naming the check, survives a bad proposal.json and a failing proposer, and goes on', async () => {
    const pools = searchPools('nl-rx', await heroSources('nl-rx', config), { seed: 2, limit: 3 });
    const taskId = pools.search[0]?.id as string;
    const zeroShot = readFileSync(seedHarnessFile('zero-shot'), 'utf8');
    const broken: Proposer = {
      name: 'broken',
      simulated: true,
      async propose({ store, iteration, candidateIds }) {
        if (iteration === 2) throw new Error('the agent crashed');
        const sources = [
          zeroShot.replace(
            'async solve(ctx) {',
            "async solve(ctx) {\n    const n: number = 'not a number';\n    ctx.log(String(n));",
          ),
          `import { readFileSync } from 'node:fs';\n${zeroShot.replace('async solve(ctx) {', "async solve(ctx) {\n    ctx.log(readFileSync('x', 'utf8'));")}`,
          zeroShot.replace(
            'async solve(ctx) {',
            `async solve(ctx) {\n    if (ctx.task.description === '${taskId}') ctx.log('known');`,
          ),
          zeroShot,
          zeroShot,
        ];
        candidateIds.forEach((id, i) => {
          store.writeHarness(id, sources[i] as string);
          if (i === 4) return writeFileSync(join(store.candidateDir(id), 'proposal.json'), '{ not json');
          store.writeProposal({
            id,
            iteration,
            parent: 'seed-zero-shot',
            hypothesis: `case ${i}`,
            mechanism: 'test',
            proposer: 'broken',
          });
        });
        return { transcript: [] };
      },
    };
    const store = new MetaHarnessStore(join(dir, 'broken'), 'run');
    const result = await runSearch({
      store,
      oracle: spec.oracle,
      prompt,
      model: createSteerableSimModel({ seed: 1 }),
      tasks: pools.search,
      testTasks: pools.test,
      trials: 1,
      seed: 1,
      price: null,
      proposer: broken,
      skillFile: join(root, 'docs/meta-harness.md'),
      options: { iterations: 2, candidates: 5, seeds: ['zero-shot'] },
    });
    const outcome = (id: string) => result.rows.find((r) => r.id === id)?.outcome ?? '';
    expect(outcome('i1-c1')).toMatch(/^invalid: typecheck/);
    expect(outcome('i1-c2')).toMatch(/^invalid: .*imports: .*node:fs/);
    expect(outcome('i1-c3')).toMatch(new RegExp(`^invalid: leaks: task id ${taskId}`));
    expect(outcome('i1-c4')).toBe('evaluated');
    // An unusable proposal.json is set aside; the harness is still validated and evaluated.
    expect(outcome('i1-c5')).toBe('evaluated');
    expect(store.readProposal('i1-c5').hypothesis).toMatch(/^\(proposal.json was unusable: .*not valid JSON/);
    expect(readFileSync(join(store.candidateDir('i1-c5'), 'proposal.invalid.json'), 'utf8')).toBe('{ not json');
    // A proposer that throws costs its iteration's candidates, not the search.
    for (let c = 1; c <= 5; c++) expect(outcome(`i2-c${c}`)).toBe('failed: the proposer failed: the agent crashed');
    expect(existsSync(store.reportFile(2))).toBe(true);
    expect(store.readValidation('i1-c2').ok).toBe(false);
    expect(existsSync(join(store.candidateDir('i1-c2'), 'scores.json'))).toBe(false);
    expect(
      result.rows.filter((r) => r.outcome.startsWith('invalid')).every((r) => r.passAtFinal === null && !r.onFrontier),
    ).toBe(true);
    expect(store.readHeldOut()?.results.map((r) => r.id)).toContain('seed-zero-shot');
  }, 60_000);
  it("counts the proposer's spend against the budget: what it writes once the budget is spent is not evaluated", async () => {
    const pools = searchPools('nl-rx', await heroSources('nl-rx', config), { seed: 1, limit: 4 });
    const proposerSpend = { tokens: 0, usd: 0 };
    // A proposer whose model calls cost two million tokens: it copies the zero-shot seed.
    const costly: Proposer = {
      name: 'costly',
      simulated: true,
      async propose({ store, iteration, candidateIds }) {
        proposerSpend.tokens += 2_000_000;
        for (const id of candidateIds) {
          store.writeHarness(id, readFileSync(seedHarnessFile('zero-shot'), 'utf8'));
          store.writeProposal({
            id,
            iteration,
            parent: 'seed-zero-shot',
            hypothesis: 'copy',
            mechanism: 'none',
            proposer: 'costly',
          });
        }
        return { transcript: [] };
      },
    };
    const store = new MetaHarnessStore(join(dir, 'costly'), 'run');
    const result = await runSearch({
      store,
      oracle: spec.oracle,
      prompt,
      model: createSteerableSimModel({ seed: 1 }),
      tasks: pools.search,
      testTasks: pools.test,
      trials: 1,
      seed: 1,
      price: null,
      proposer: costly,
      skillFile: join(root, 'docs/meta-harness.md'),
      options: { iterations: 3, candidates: 1, seeds: ['zero-shot'], budget: { tokens: 1_000_000 } },
      proposerSpend: () => proposerSpend,
    });
    expect(result.stoppedBy).toBe('budget');
    // The proposer ran once (its candidate is written) and its spend ended the search before the evaluation.
    expect(existsSync(join(store.candidateDir('i1-c1'), 'harness.ts'))).toBe(true);
    expect(result.rows.map((r) => r.id)).toEqual(['seed-zero-shot']);
    expect(result.spent.tokens).toBeGreaterThan(2_000_000);
  }, 60_000);
});
