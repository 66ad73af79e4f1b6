/**
 * The external proposer: the user's own command (any coding agent) run once per iteration with
 * `sh -c`, in the search run's folder, told what to write through environment variables. It runs
 * unsandboxed with the user's environment — it is the user's program, not a candidate — and is
 * stopped (its whole process group) at a wall timeout. Its stdout and stderr are the transcript,
 * stored as proposer/<iteration>/command.json; the candidates it leaves are completed
 * (finalize.ts) and then validated by the search like any other.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ProposeInput, Proposer } from './contract.ts';
import { finalizeCandidates, type CandidateOutcome } from './finalize.ts';
import { iterationBriefing, reportPath } from './task.ts';

/** Wall time of one iteration's command when none is given: 30 minutes. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 30 * 60_000;
/** Bytes of stdout and of stderr kept in the transcript (the rest is counted, not kept). */
export const COMMAND_OUTPUT_BYTES = 1 << 20;
/** After SIGTERM at the timeout, the group gets this long before SIGKILL. */
const KILL_GRACE_MS = 3_000;

export interface CommandProposerOptions {
  /** Wall time per iteration (default 30 minutes). */
  timeoutMs?: number;
  /** The environment the command starts from (default: this process's). */
  env?: Record<string, string | undefined>;
}

export interface CommandTranscript {
  type: 'command';
  command: string;
  iteration: number;
  env: Record<string, string>;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Set when the command could not be started. */
  spawnError?: string;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** Bytes of output beyond what was kept. */
  droppedBytes: { stdout: number; stderr: number };
  candidates: CandidateOutcome[];
}

/** The variables the command is given (documented in docs/meta-harness.md, "The proposer"). */
export function commandEnv(input: ProposeInput): Record<string, string> {
  const { store, iteration, candidateIds } = input;
  return {
    WITNESS_MH_STORE: store.root,
    WITNESS_MH_SKILL: input.skillFile,
    WITNESS_MH_ITERATION: String(iteration),
    WITNESS_MH_K: String(candidateIds.length),
    WITNESS_MH_CANDIDATES: candidateIds.join(' '),
    WITNESS_MH_CANDIDATE_DIRS: candidateIds.map((id) => store.candidateDir(id)).join('\n'),
    WITNESS_MH_REPORT: join(store.root, reportPath(iteration)),
    WITNESS_MH_PROMPT: iterationBriefing(input),
  };
}

/** A proposer that runs `command` (a shell command line) once per iteration. */
export function commandProposer(command: string, options: CommandProposerOptions = {}): Proposer {
  if (command.trim() === '') throw new Error('--proposer-cmd: the command is empty');
  const timeoutMs = options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new Error(`the proposer command's timeout must be a positive number of milliseconds, got ${timeoutMs}`);
  return {
    name: 'external',
    simulated: false,
    async propose(input) {
      const env = commandEnv(input);
      mkdirSync(input.store.proposerDir(input.iteration), { recursive: true });
      const run = await runCommand(command, input.store.root, { ...(options.env ?? process.env), ...env }, timeoutMs);
      const candidates = finalizeCandidates(input.store, input.iteration, input.candidateIds, 'external');
      const transcript: CommandTranscript = {
        type: 'command',
        command,
        iteration: input.iteration,
        env,
        ...run,
        candidates,
      };
      input.store.writeProposerTranscript(input.iteration, 'command', transcript);
      return { transcript: [transcript] };
    },
  };
}

type RunOutcome = Omit<CommandTranscript, 'type' | 'command' | 'iteration' | 'env' | 'candidates'>;

function runCommand(
  command: string,
  cwd: string,
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<RunOutcome> {
  const started = performance.now();
  const out = collector();
  const err = collector();
  return new Promise((resolve) => {
    // detached: the command leads its own process group, so the timeout stops what it started too.
    const child = spawn('/bin/sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let timedOut = false;
    let finished = false;
    let killTimer: NodeJS.Timeout | undefined;
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // the group is gone already
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup('SIGTERM');
      killTimer = setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS);
    }, timeoutMs);
    child.stdout.on('data', out.add);
    child.stderr.on('data', err.add);
    const finish = (exitCode: number | null, signal: string | null, spawnError?: string) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      // Whatever the command left running in its group goes with it.
      signalGroup('SIGKILL');
      resolve({
        exitCode,
        signal,
        timedOut,
        ...(spawnError ? { spawnError } : {}),
        durationMs: Math.round(performance.now() - started),
        stdout: out.text(),
        stderr: err.text(),
        droppedBytes: { stdout: out.dropped(), stderr: err.dropped() },
      });
    };
    child.once('error', (error) => finish(null, null, error.message));
    // 'close' waits for the pipes; a process that escaped the group could hold them, so 'exit' plus a short wait.
    child.once('exit', (code, signal) => {
      const settle = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code, signal);
      }, 1000);
      child.once('close', () => {
        clearTimeout(settle);
        finish(code, signal);
      });
    });
  });
}

function collector() {
  const chunks: Buffer[] = [];
  let kept = 0;
  let dropped = 0;
  return {
    add: (chunk: Buffer) => {
      const room = COMMAND_OUTPUT_BYTES - kept;
      if (room > 0) chunks.push(chunk.subarray(0, room));
      kept += Math.min(room > 0 ? room : 0, chunk.length);
      dropped += Math.max(0, chunk.length - Math.max(room, 0));
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
    dropped: () => dropped,
  };
}
