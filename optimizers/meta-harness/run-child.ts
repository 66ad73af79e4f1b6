/**
 * One harness episode in its sandboxed child, seen from the host: start it, answer its requests
 * through a `HarnessHost` (the model, the observer), meter and bound them, and end with the
 * harness's program or a named failure. The child is always killed and its folder removed.
 */
import type { Observation } from '../../core/oracle.ts';
import type { ChatMessage, Json, JsonObject } from '../../core/types.ts';
import { estimateTokens } from '../../core/models/model.ts';
import {
  promptTokens,
  refuseCall,
  refuseObserve,
  remaining,
  type BudgetResource,
  type HarnessBudgets,
  type SandboxLimits,
  type Usage,
} from './budgets.ts';
import { classifyChildError, classifyExit, type HarnessFailure, type HarnessFailureKind } from './failure.ts';
import {
  MAX_LINE_BYTES,
  parseChildLine,
  type ChildRequest,
  type HarnessCallPurpose,
  type HostMessage,
} from './protocol.ts';
import { launchChild, stageJob } from './sandbox.ts';

/** What the harness's requests are answered with; the strategy adapter implements it over a refinement session. */
export interface HarnessHost {
  /** The episode's first turn; the program the oracle extracted, or null. */
  answer(system: string | null): Promise<{ program: string | null }>;
  /** A further model call; null text when the call failed. */
  chat(messages: ChatMessage[], purpose: HarnessCallPurpose): Promise<string | null>;
  observe(program: string): Promise<Observation>;
  describe(): Promise<string>;
  extract(reply: string): string | null;
  log(entry: JsonObject): void;
}

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

/** Runs one episode of a compiled harness in the sandbox. Never throws for anything the harness does; throws SandboxStartError when the sandbox cannot start, and the host's own errors (an observer that throws). */
export async function runHarnessChild(input: ChildEpisodeInput): Promise<ChildEpisodeResult> {
  const { budgets, host } = input;
  const job = stageJob(input.code);
  const started = performance.now();
  const used: Usage = { calls: 0, tokens: 0, observes: 0 };
  let name = '';
  let answered = false;
  let refusals = 0;
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
  const kill = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const fail = (kind: HarnessFailureKind, message: string) => {
    if (finished) return;
    failure ??= { kind, message };
    finished = true;
    kill();
  };
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    // 'close', not 'exit': the last lines on stdout may still be unread when the process exits.
    child.once('close', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => resolve({ code: null, signal: `spawn failed: ${error.message}` }));
  });
  const send = (message: HostMessage) => {
    if (!finished && child.stdin?.writable) child.stdin.write(`${JSON.stringify(message)}\n`);
  };
  const wall = setTimeout(
    () => fail('timeout', `the episode's wall time of ${budgets.wallMs} ms ran out`),
    budgets.wallMs,
  );

  const refuse = (id: number, refusal: { resource: BudgetResource; message: string }) => {
    host.log({ op: 'refused', resource: refusal.resource, message: refusal.message });
    if (++refusals > 1) return fail('budget', `${refusal.message} (after an earlier budget error)`);
    send({ id, type: 'error', error: { kind: 'budget', message: refusal.message, resource: refusal.resource } });
  };
  const usage = (id: number, message: string) => send({ id, type: 'error', error: { kind: 'usage', message } });

  async function handle(request: ChildRequest): Promise<void> {
    const reply = (value: Json) => send({ id: request.id, type: 'result', value });
    switch (request.type) {
      case 'answer': {
        if (answered) return usage(request.id, 'ctx.model.answer() may be called once per episode');
        const refusal = refuseCall(budgets, used, [{ role: 'system', content: request.system ?? '' }]);
        if (refusal) return refuse(request.id, refusal);
        answered = true;
        used.calls++;
        const { program } = await host.answer(request.system);
        used.tokens += estimateTokens(request.system ?? '') + estimateTokens(program ?? '');
        return reply({ program });
      }
      case 'chat': {
        if (!answered) return usage(request.id, 'call ctx.model.answer() before ctx.model.chat()');
        const refusal = refuseCall(budgets, used, request.messages);
        if (refusal) return refuse(request.id, refusal);
        used.calls++;
        used.tokens += promptTokens(request.messages);
        const text = await host.chat(request.messages, request.purpose);
        if (text === null)
          return send({ id: request.id, type: 'error', error: { kind: 'model', message: 'the model call failed' } });
        used.tokens += estimateTokens(text);
        return reply({ text, program: host.extract(text) });
      }
      case 'observe': {
        const refusal = refuseObserve(budgets, used);
        if (refusal) return refuse(request.id, refusal);
        used.observes++;
        return reply((await host.observe(request.program)) as unknown as Json);
      }
      case 'describe':
        return reply(await host.describe());
      case 'extract':
        return reply(host.extract(request.reply));
      case 'remaining':
        return reply(remaining(budgets, used, performance.now() - started));
    }
  }

  let buffer = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffer += chunk;
    if (buffer.length > MAX_LINE_BYTES && !buffer.includes('\n'))
      return fail('protocol', `a message longer than ${MAX_LINE_BYTES} bytes`);
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0 && !finished) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (!line.trim()) continue;
      if (line.length > MAX_LINE_BYTES) return fail('protocol', `a message longer than ${MAX_LINE_BYTES} bytes`);
      const message = parseChildLine(line);
      if (typeof message === 'string') return fail('protocol', message);
      if (++messages > budgets.messages)
        return fail('budget', `more than ${budgets.messages} messages from the harness`);
      if (message.type === 'hello') hello = true;
      else if (message.type === 'ready') name = message.name;
      else if (message.type === 'log') {
        logBytes += line.length;
        if (logBytes > budgets.logBytes)
          return fail('budget', `the harness logged more than ${budgets.logBytes} bytes`);
        host.log({ op: 'log', entry: message.entry });
      } else if (message.type === 'done') {
        done = message;
        finished = true;
      } else if (message.type === 'error') {
        const classified = classifyChildError(message);
        fail(classified.kind, classified.message);
      } else {
        // A failure of our side (the oracle's observer, the model plumbing) is not the harness's doing.
        const answering = handle(message).catch((error: unknown) => {
          hostError ??= new Error(`the host could not answer ${message.type}: ${(error as Error).message}`);
          finished = true;
          kill();
        });
        inflight.add(answering);
        void answering.finally(() => inflight.delete(answering));
      }
    }
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
    answered,
    ...(failure ? { failure } : {}),
    used,
    durationMs,
  };
}
