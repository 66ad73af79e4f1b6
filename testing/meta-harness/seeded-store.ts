/** Test helpers of the proposer tests: a search run's store with one evaluated seed candidate. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedHarnessFile } from '../../optimizers/meta-harness/seeds.ts';
import { MetaHarnessStore } from '../../optimizers/meta-harness/store.ts';

export const SEED_ID = 'zero-shot';

/** A store under a fresh temp folder holding the evaluated seed and empty folders for `candidateIds`. */
export function seededStore(candidateIds: readonly string[]): { store: MetaHarnessStore; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'witness-mh-proposer-'));
  const store = new MetaHarnessStore(dir, 'run-1');
  store.writeHarness(SEED_ID, readFileSync(seedHarnessFile(SEED_ID), 'utf8'));
  store.writeProposal({
    id: SEED_ID,
    iteration: 0,
    parent: null,
    hypothesis: 'the seed',
    mechanism: 'none',
    proposer: 'seed',
  });
  store.writeValidation(SEED_ID, { ok: true, checks: [{ name: 'typecheck', ok: true }] });
  store.writeScores(SEED_ID, {
    passAtFinal: 0.5,
    meanTokens: 120,
    meanCalls: 1,
    meanTimeMs: 20,
    tasks: [
      { taskId: 't1', trial: 0, pass: true, tokens: 100, calls: 1, timeMs: 20 },
      { taskId: 't2', trial: 0, pass: false, tokens: 140, calls: 1, timeMs: 20 },
    ],
  });
  store.writeTrace(SEED_ID, 't2-0', { turns: [{ program: 'ab*', observation: 'error (syntax): unbalanced' }] });
  store.writeFrontier({ iteration: 0, members: [{ id: SEED_ID, passAtFinal: 0.5, meanTokens: 120 }] });
  for (const id of candidateIds) mkdirSync(store.candidateDir(id), { recursive: true });
  mkdirSync(store.heldOutDir, { recursive: true });
  writeFileSync(join(store.heldOutDir, 'results.json'), '{"secret":"held-out"}\n');
  return { store, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
