/**
 * One harness episode in its sandboxed child, seen from the host, which owns the protocol: it
 * frames the child's output itself (a line cap, a cap on all output, a nesting-depth limit checked
 * before parsing), answers requests through a `HarnessHost` (the model, the observer), meters and
 * bounds them, and ends the episode at the first `done` or failure — then it stops reading and
 * kills the child's process group, whatever the child does next. The wall time is enforced the
 * same way. The staged code folder is removed when the episode ends.
 */
import type { JsonObject } from '../../core/types.ts';
import type { HarnessBudgets, SandboxLimits, Usage } from './budgets.ts';
import { classifyChildError, classifyExit, type HarnessFailure, type HarnessFailureKind } from './failure.ts';
import { LineFramer } from './frame.ts';
import { requestDesk, type HarnessHost } from './host-requests.ts';
import { MAX_LINE_BYTES, parseChildLine, type HostMessage } from './protocol.ts';
import { stageJob } from './job-folder.ts';
import { launchChild } from './sandbox.ts';
import { killProcessGroup } from '../../core/sandbox/bwrap.ts';

export type { HarnessHost };

/** The task as the child sees it: no id, no gold. */
export interface HarnessTaskView {
  key: string;
  benchmark: string;
  language: string;
  description: string;
  fields: JsonObject;
}

export interface ChildEpisodeInput {
  /** The compiled harness module (transpileHarness). */
  code: string;
  task: HarnessTaskView;
  memory: JsonObject;
  budgets: HarnessBudgets;
  limits: SandboxLimits;
  host: HarnessHost;
}

export interface ChildEpisodeResult {
  program: string | null;
  rationale: string;
  /** The harness's memory after the episode, when it declared `memory: true` and ended well. */
  memory?: JsonObject;
  /** The name the module declared (empty when it never loaded). */
  name: string;
  answered: boolean;
  failure?: HarnessFailure;
  used: Usage;
  durationMs: number;
}

const STDERR_CAP = 64 * 1024;

/** The sandbox itself did not start (no bubblewrap, limits too small for Node): no candidate code ran, so this is a Witness error, not the harness's failure. */
export class SandboxStartError extends Error {
  constructor(exit: { code: number | null; signal: string | null }, stderr: string) {
    const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
    const tail = stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 400);
    super(`the harness sandbox could not start (${how})${tail ? `: ${tail}` : ''}`);
    this.name = 'SandboxStartError';
  }
}

/** Bytes the host may have queued for a child that does not read its input. */
const MAX_PENDING_INPUT = 8 * 1024 * 1024;
/** Longest failure message kept (the child may send a long one). */
const MAX_FAILURE_CHARS = 2000;
/** After the child is killed, how long the host waits for its pipes to close before it moves on. */
const CLOSE_GRACE_MS = 5000;

type Exit = { code: number | null; signal: string | null };

/** Runs one episode of a compiled harness in the sandbox. Never throws for anything the harness does; throws SandboxStartError when the sandbox cannot start, and the host's own errors (an observer that throws). */
export async function runHarnessChild(input: ChildEpisodeInput): Promise<ChildEpisodeResult> {
  const { budgets } = input;
  const job = stageJob(input.code);
  const started = performance.now();
  let name = '';
  let messages = 0;
  let hello = false;
  let hostError: Error | undefined;
  let logBytes = 0;
  let failure: HarnessFailure | undefined;
  let done: { program: string | null; rationale: string; memory?: JsonObject } | undefined;
  let stderr = '';
  let finished = false;
  // Requests still being answered when the child ends finish before the episode does (the trace stays whole).
  const inflight = new Set<Promise<void>>();

  const child = launchChild(job, input.limits);
  // Again after the child closed, too: whatever of its group is left dies with it.
  const kill = () => killProcessGroup(child.pid);
  let settle: (exit: Exit) => void = () => {};
  const exited = new Promise<Exit>((resolve) => {
    settle = resolve;
    // 'close', not 'exit': the last lines on stdout may still be unread when the process exits.
    child.once('close', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => resolve({ code: null, signal: `spawn failed: ${error.message}` }));
  });
  let grace: NodeJS.Timeout | undefined;
  /** The episode's end: nothing the child writes from now on is read, and its process group dies. */
  const finish = () => {
    if (finished) return;
    finished = true;
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.stdin?.destroy();
    kill();
    grace = setTimeout(() => settle({ code: null, signal: 'SIGKILL' }), CLOSE_GRACE_MS);
  };
  const fail = (kind: HarnessFailureKind, message: string) => {
    if (finished) return;
    failure ??= { kind, message: message.slice(0, MAX_FAILURE_CHARS) };
    finish();
  };
  const send = (message: HostMessage) => {
    if (finished || !child.stdin?.writable) return;
    child.stdin.write(`${JSON.stringify(message)}\n`);
    if (child.stdin.writableLength > MAX_PENDING_INPUT)
      fail('protocol', `the harness left more than ${MAX_PENDING_INPUT} bytes of the host's replies unread`);
  };
  // The host's deadline, whatever the child says or does.
  const wall = setTimeout(() => {
    fail('timeout', `the episode's wall time of ${budgets.wallMs} ms ran out`);
    kill();
  }, budgets.wallMs);
  const desk = requestDesk({
    budgets,
    host: input.host,
    send,
    fail,
    elapsedMs: () => performance.now() - started,
  });

  const onLine = (line: string) => {
    if (!line.trim()) return;
    const message = parseChildLine(line);
    if (typeof message === 'string') return fail('protocol', message);
    if (++messages > budgets.messages) return fail('budget', `more than ${budgets.messages} messages from the harness`);
    switch (message.type) {
      case 'hello':
        hello = true;
        return;
      case 'ready':
        name = message.name;
        return;
      case 'log':
        logBytes += Buffer.byteLength(line);
        if (logBytes > budgets.logBytes)
          return fail('budget', `the harness logged more than ${budgets.logBytes} bytes`);
        return input.host.log({ op: 'log', entry: message.entry });
      case 'done':
        // The one completion of the episode: anything after it is never read.
        done = message;
        return finish();
      case 'error': {
        const classified = classifyChildError(message);
        return fail(classified.kind, classified.message);
      }
      default: {
        // A failure of our side (the oracle's observer, the model plumbing) is not the harness's doing.
        const answering = desk.handle(message).catch((error: unknown) => {
          hostError ??= new Error(`the host could not answer ${message.type}: ${(error as Error).message}`);
          finish();
        });
        inflight.add(answering);
        void answering.finally(() => inflight.delete(answering));
      }
    }
  };

  const framer = new LineFramer({ maxLineBytes: MAX_LINE_BYTES, maxTotalBytes: budgets.outputBytes });
  child.stdout?.on('data', (chunk: Buffer) => {
    if (finished) return;
    const framed = framer.push(chunk);
    for (const line of framed.lines) {
      if (finished) return;
      onLine(line);
    }
    if (framed.overflow) fail('oversize', framed.overflow);
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    if (stderr.length < STDERR_CAP) stderr += chunk.slice(0, STDERR_CAP - stderr.length);
  });
  child.stdin?.on('error', () => {
    // the child went away; its exit decides
  });
  send({
    type: 'start',
    task: input.task as unknown as JsonObject,
    memory: input.memory,
    budgets: { ...budgets },
  });

  const exit = await exited;
  clearTimeout(wall);
  clearTimeout(grace);
  kill();
  await Promise.allSettled([...inflight]);
  job.remove();
  const durationMs = Math.round(performance.now() - started);
  if (hostError) throw hostError;
  if (!hello && !failure) throw new SandboxStartError(exit, stderr);
  if (!done && !failure) failure = classifyExit(exit, stderr);
  if (done && !failure && done.memory !== undefined) {
    const size = Buffer.byteLength(JSON.stringify(done.memory));
    if (size > budgets.memoryBytes)
      failure = {
        kind: 'budget',
        message: `ctx.memory is ${size} bytes as JSON, over the ${budgets.memoryBytes} bytes allowed`,
      };
  }
  return {
    program: failure ? null : (done?.program ?? null),
    rationale: done?.rationale ?? '',
    ...(done?.memory !== undefined && !failure ? { memory: done.memory } : {}),
    name,
    answered: desk.answered,
    ...(failure ? { failure } : {}),
    used: desk.used,
    durationMs,
  };
}
