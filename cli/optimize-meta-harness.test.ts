/**
 * `witness optimize meta-harness` through the binary: end to end with the sim on the regex and SQL
 * suites; a search killed with SIGKILL mid-search and resumed with --resume ends with the same
 * store as an uninterrupted one (same candidates, scores, evolution and frontier, same held-out
 * results); the proposers this build lacks are a clear usage error.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { withoutSuiteData } from '../testing/child-env.ts';
import { MetaHarnessStore } from '../optimizers/meta-harness/store.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'witness-mh-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = () => {
  const e = withoutSuiteData(process.env);
  for (const name of Object.keys(e)) if (name.startsWith('WITNESS_') || name.startsWith('OPENAI_')) delete e[name];
  return e;
};

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; `killWhen` sends SIGKILL once stderr matches it. */
function witness(args: string[], killWhen?: RegExp): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'bin/witness.js'), ...args], { cwd: dir, env: env() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (killWhen?.test(stderr)) child.kill('SIGKILL');
    });
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
}

const search = (suite: string, out: string, extra: string[] = []) => [
  'optimize',
  'meta-harness',
  '--suite',
  suite,
  '--iterations',
  '2',
  '--candidates',
  '2',
  '--seeds',
  'zero-shot,self-verify',
  '--limit',
  '5',
  '--out',
  out,
  ...extra,
];

/** What must be equal between two runs of one search (times differ, so they are left out). */
function fingerprint(store: MetaHarnessStore) {
  const candidates = store.listCandidates().map((id) => ({
    id,
    harness: store.readHarness(id),
    proposal: store.readProposal(id),
    validation: store.readValidation(id).ok,
    scores: existsSync(join(store.candidateDir(id), 'scores.json'))
      ? store.readScores(id).tasks.map((t) => [t.taskId, t.trial, t.pass, t.tokens, t.calls])
      : null,
    traces: store.listTraces(id),
  }));
  return {
    candidates,
    evolution: store.readEvolution(),
    frontier: store.readFrontier(),
    heldOut: store
      .readHeldOut()
      ?.results.map((r) => ({ id: r.id, tasks: r.scores.tasks.map((t) => [t.taskId, t.pass, t.tokens]) })),
    comparison: store.readHeldOut()?.comparison,
  };
}

const runFolder = (out: string) => {
  const runs = readdirSync(join(out, 'meta-harness')).filter((n) => !n.endsWith('.heldout'));
  expect(runs).toHaveLength(1);
  return runs[0] as string;
};

describe('witness optimize meta-harness', () => {
  it.each(['nl-rx', 'bird'])(
    'runs end to end with the sim on %s and writes the report',
    async (suite) => {
      const out = join(dir, `e2e-${suite}`);
      const run = await witness(
        search(suite, out, ['--iterations', '1', '--candidates', '1', '--seeds', 'zero-shot', '--limit', '3']),
      );
      expect(run.stderr).toContain('privileged');
      expect(run.code).toBe(0);
      const store = new MetaHarnessStore(out, runFolder(out));
      expect(store.readEvolution().map((r) => r.id)).toEqual(['seed-zero-shot', 'i1-c1']);
      expect(store.readEvolution().every((r) => r.outcome === 'evaluated')).toBe(true);
      const reportFile = join(store.heldOutDir, 'report.md');
      expect(run.stdout).toContain(`report: ${reportFile}`);
      const report = readFileSync(reportFile, 'utf8');
      expect(report).toContain('**Proposer simulated**');
      expect(report).toContain('privileged sim');
      expect(report).toContain('## Held-out test split');
      expect(store.readHeldOut()?.results.map((r) => r.id)).toContain('seed-zero-shot');
    },
    60_000,
  );

  it('resumes a search killed with SIGKILL mid-search and ends equal to an uninterrupted one', async () => {
    const args = ['--model', 'sim-steerable', '--seeds', 'zero-shot', '--limit', '4', '--iterations', '1'];
    const whole = join(dir, 'whole');
    expect((await witness(search('nl-rx', whole, args))).code).toBe(0);
    const cut = join(dir, 'cut');
    const killed = await witness(search('nl-rx', cut, args), /evaluated i1-c1/);
    expect(killed.signal).toBe('SIGKILL');
    const runId = runFolder(cut);
    const partial = new MetaHarnessStore(cut, runId);
    expect(partial.searchFinished).toBe(false);
    const before = partial.readEvolution().map((r) => r.id);
    expect(before).toContain('i1-c1');
    const resumed = await witness(search('nl-rx', cut, [...args, '--resume', runId]));
    expect(resumed.code).toBe(0);
    // Finished evaluations were kept, not redone.
    for (const id of before) expect(resumed.stderr).toContain(`kept ${id}:`);
    expect(fingerprint(partial)).toEqual(fingerprint(new MetaHarnessStore(whole, runFolder(whole))));
  }, 120_000);

  it('stops cleanly at the budget; rejects a resume with other settings, and the agent proposer without a real model, with usage errors', async () => {
    const out = join(dir, 'small');
    const tiny = ['--iterations', '1', '--seeds', 'zero-shot', '--limit', '2', '--budget', '1'];
    const stopped = await witness(search('nl-rx', out, tiny));
    expect(stopped.code).toBe(0);
    // The budget (1 token) is spent by the first seed: the search stops cleanly before the proposer runs.
    expect(stopped.stderr).toMatch(/budget spent \(\d+ tokens/);
    const store = new MetaHarnessStore(out, runFolder(out));
    expect(store.readEvolution().map((r) => r.id)).toEqual(['seed-zero-shot']);
    expect(store.searchFinished).toBe(true);
    expect(readFileSync(join(store.heldOutDir, 'report.md'), 'utf8')).toContain('Stopped by: the budget');
    const changed = await witness(search('nl-rx', out, [...tiny, '--trials', '2', '--resume', runFolder(out)]));
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/--resume: the stored search ran with trials 1, not 2/);
    const agent = await witness(search('nl-rx', join(dir, 'none'), ['--proposer', 'agent']));
    expect(agent.code).toBe(2);
    expect(agent.stderr).toMatch(/--proposer agent needs a real model/);
  }, 90_000);

  it("runs the user's --proposer-cmd: the candidates it leaves are validated and evaluated", async () => {
    const out = join(dir, 'command');
    // A stand-in for a coding agent: copies the zero-shot seed into every candidate folder it is given.
    const agent = join(dir, 'copy-agent.mjs');
    writeFileSync(
      agent,
      [
        "import { copyFileSync, writeFileSync } from 'node:fs';",
        "import { basename, join } from 'node:path';",
        `const seed = ${JSON.stringify(join(root, 'optimizers/meta-harness/seeds/zero-shot.ts'))};`,
        "for (const folder of process.env.WITNESS_MH_CANDIDATE_DIRS.split('\\n')) {",
        "  copyFileSync(seed, join(folder, 'harness.ts'));",
        "  const proposal = { id: basename(folder), iteration: Number(process.env.WITNESS_MH_ITERATION), parent: 'seed-zero-shot', hypothesis: 'the seed, copied', mechanism: 'none', proposer: 'external' };",
        "  writeFileSync(join(folder, 'proposal.json'), JSON.stringify(proposal));",
        '}',
      ].join('\n'),
    );
    const run = await witness(
      search('nl-rx', out, [
        '--iterations',
        '1',
        '--candidates',
        '1',
        '--seeds',
        'zero-shot',
        '--limit',
        '4',
        '--proposer-cmd',
        `node ${agent}`,
      ]),
    );
    expect(run.code, run.stderr).toBe(0);
    const store = new MetaHarnessStore(out, runFolder(out));
    const rows = store.readEvolution();
    expect(rows.map((r) => r.id)).toEqual(['seed-zero-shot', 'i1-c1']);
    expect(rows[1]).toMatchObject({ outcome: 'evaluated', parent: 'seed-zero-shot' });
    expect(rows[1]?.passAtFinal).toBe(rows[0]?.passAtFinal);
  }, 60_000);
});
