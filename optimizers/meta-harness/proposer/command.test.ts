/** The external proposer: a real shell command writes a candidate; one that hangs is killed with its process group at the timeout. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stillRunning } from '../../../testing/processes/running.ts';
import { commandProposer, COMMAND_OUTPUT_BYTES, type CommandTranscript } from './command.ts';
import { DEFAULT_SKILL_FILE } from './skill.ts';
import { SEED_ID, seededStore } from '../../../testing/meta-harness/seeded-store.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function store(ids: string[]) {
  const made = seededStore(ids);
  cleanups.push(made.cleanup);
  return made.store;
}

const input = (s: ReturnType<typeof store>, ids: string[]) => ({
  iteration: 1,
  k: ids.length,
  store: s,
  skillFile: DEFAULT_SKILL_FILE,
  candidateIds: ids,
});

// A small "coding agent": copies the seed into the first candidate folder with a rule added, writes its proposal and report.
const WRITER = `
const fs = require('node:fs');
const path = require('node:path');
const env = process.env;
const [dir] = env.WITNESS_MH_CANDIDATE_DIRS.split('\\n');
const seed = fs.readFileSync(path.join(env.WITNESS_MH_STORE, 'candidates', '${SEED_ID}', 'harness.ts'), 'utf8');
fs.writeFileSync(path.join(dir, 'harness.ts'), seed.replace('ctx.model.answer()', "ctx.model.answer({ system: 'Anchor nothing.' })"));
fs.writeFileSync(path.join(dir, 'proposal.json'), JSON.stringify({ hypothesis: 'a rule helps', parent: '${SEED_ID}', mechanism: 'prompt rule' }));
fs.writeFileSync(env.WITNESS_MH_REPORT, '# report\\n');
console.log('iteration', env.WITNESS_MH_ITERATION, 'k', env.WITNESS_MH_K, 'ids', env.WITNESS_MH_CANDIDATES, 'cwd', process.cwd() === env.WITNESS_MH_STORE);
console.error('skill', fs.existsSync(env.WITNESS_MH_SKILL), env.WITNESS_MH_PROMPT.includes('candidates/c1-a/harness.ts'));
`;

describe('commandProposer', () => {
  it('runs the command with the store, skill file, iteration and folders in its environment; keeps its output', async () => {
    const ids = ['c1-a', 'c1-b'];
    const s = store(ids);
    const proposer = commandProposer(`node -e "$SCRIPT"`, { env: { ...process.env, SCRIPT: WRITER } });
    expect(proposer).toMatchObject({ name: 'external', simulated: false });
    const { transcript } = await proposer.propose(input(s, ids));
    const run = transcript[0] as CommandTranscript;
    expect(run.stderr).toBe('skill true true\n');
    expect(run).toMatchObject({ exitCode: 0, timedOut: false, stdout: 'iteration 1 k 2 ids c1-a c1-b cwd true\n' });
    expect(s.readHarness('c1-a')).toMatch(/Anchor nothing/);
    expect(s.readProposal('c1-a')).toMatchObject({ parent: SEED_ID, proposer: 'external', iteration: 1 });
    expect(run.candidates).toEqual([
      { id: 'c1-a', written: true, notes: [] },
      { id: 'c1-b', written: false, notes: ['no harness.ts was written'] },
    ]);
    expect(readFileSync(join(s.proposerDir(1), 'report.md'), 'utf8')).toBe('# report\n');
    const stored = JSON.parse(readFileSync(join(s.proposerDir(1), 'command.json'), 'utf8')) as CommandTranscript;
    expect(stored.stdout).toBe(run.stdout);
    expect(stored.env.WITNESS_MH_CANDIDATES).toBe('c1-a c1-b');
  }, 20_000);

  it('kills a command that hangs at its timeout, with what it started', async () => {
    const s = store(['c1-a']);
    const pidFile = join(s.root, 'sleeper.pid');
    const started = performance.now();
    const { transcript } = await commandProposer(`sleep 30 & echo $! > ${pidFile}; echo waiting; wait`, {
      timeoutMs: 400,
    }).propose(input(s, ['c1-a']));
    const run = transcript[0] as CommandTranscript;
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(run.timedOut).toBe(true);
    expect(run.signal).toBe('SIGTERM');
    expect(run.stdout).toBe('waiting\n');
    const sleeper = Number(readFileSync(pidFile, 'utf8'));
    expect(sleeper).toBeGreaterThan(0);
    expect(await stillRunning([sleeper], 2000)).toEqual([]);
    expect(existsSync(join(s.proposerDir(1), 'command.json'))).toBe(true);
  }, 20_000);

  it('kills a command that ignores SIGTERM after the grace period', async () => {
    const s = store(['c1-a']);
    const { transcript } = await commandProposer(`trap '' TERM; while :; do sleep 0.1; done`, {
      timeoutMs: 300,
    }).propose(input(s, ['c1-a']));
    const run = transcript[0] as CommandTranscript;
    expect(run).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
    expect(run.durationMs).toBeLessThan(10_000);
  }, 20_000);

  it('records a failing exit and caps the output it keeps', async () => {
    const s = store(['c1-a']);
    const bytes = COMMAND_OUTPUT_BYTES + 5000;
    const { transcript } = await commandProposer(
      `head -c ${bytes} /dev/zero | tr '\\0' a; echo oops >&2; exit 3`,
    ).propose(input(s, ['c1-a']));
    const run = transcript[0] as CommandTranscript;
    expect(run).toMatchObject({ exitCode: 3, timedOut: false, stderr: 'oops\n' });
    expect(run.stdout.length).toBe(COMMAND_OUTPUT_BYTES);
    expect(run.droppedBytes.stdout).toBe(5000);
    expect(run.candidates[0]?.written).toBe(false);
  }, 20_000);

  it('refuses an empty command', () => {
    expect(() => commandProposer('  ')).toThrow(/the command is empty/);
  });
});
