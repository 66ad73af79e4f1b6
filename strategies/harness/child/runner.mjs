// The sandboxed child: reads the `start` message on stdin, imports the candidate (/code/harness.mjs),
// builds its context, runs `solve`, and speaks the JSON-lines protocol on stdout. Everything the
// harness asks for goes to the host, which meters and may refuse it. See docs/meta-harness.md.
import { BudgetExceededError, HarnessUsageError, ModelCallFailedError, formatObservation } from './sdk.mjs';

const write = process.stdout.write.bind(process.stdout);
const send = (message) => write(`${JSON.stringify(message)}\n`);
const pending = new Map();
let nextId = 1;
let started = null;

const ERRORS = { budget: BudgetExceededError, usage: HarnessUsageError, model: ModelCallFailedError };

function request(type, body) {
  const id = nextId++;
  send({ id, type, ...body });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

function onHostMessage(message) {
  if (message.type === 'start') {
    started?.(message);
    return;
  }
  const waiting = pending.get(message.id);
  if (!waiting) return;
  pending.delete(message.id);
  if (message.type === 'result') waiting.resolve(message.value);
  else {
    const Kind = ERRORS[message.error?.kind] ?? Error;
    const error =
      Kind === BudgetExceededError
        ? new BudgetExceededError(message.error.resource, message.error.message)
        : new Kind(message.error?.message ?? 'host error');
    waiting.reject(error);
  }
}

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let newline;
  while ((newline = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    if (line.trim()) onHostMessage(JSON.parse(line));
  }
});

const logLine =
  (level) =>
  (...args) =>
    send({ type: 'log', entry: { level, text: args.map((a) => (typeof a === 'string' ? a : safeJson(a))).join(' ') } });
function safeJson(value) {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
// stdout carries the protocol: console output of the harness (every method of console) becomes log messages.
for (const key of Object.keys(console))
  if (typeof console[key] === 'function')
    console[key] = logLine(/^(warn|error|trace|assert)$/.test(key) ? 'warn' : 'info');

function errorCode(error) {
  return error?.code ?? error?.cause?.code ?? null;
}

process.on('uncaughtException', (error) => {
  send({ type: 'error', message: String(error?.stack ?? error), code: errorCode(error), name: error?.name ?? null });
  process.exit(70);
});
process.on('unhandledRejection', (error) => {
  send({ type: 'error', message: String(error?.stack ?? error), code: errorCode(error), name: error?.name ?? null });
  process.exit(70);
});

// Sent before any candidate code loads: the host knows the sandbox itself started.
send({ type: 'hello' });
const start = await new Promise((resolve) => (started = resolve));
const harness = (await import('/code/harness.mjs')).default;
if (!harness || harness[Symbol.for('witness.harness')] !== true) {
  send({
    type: 'error',
    message: 'the module has no `export default defineHarness({...})`',
    code: 'NO_HARNESS',
    name: 'HarnessUsageError',
  });
  process.exit(70);
}
send({ type: 'ready', name: harness.name, memory: harness.memory === true });

const memory = start.memory ?? {};
const ctx = Object.freeze({
  task: Object.freeze(start.task),
  model: Object.freeze({
    answer: (options = {}) => request('answer', { system: options.system ?? null }),
    chat: (messages, options = {}) => request('chat', { messages, purpose: options.purpose ?? 'refine' }),
  }),
  exec: Object.freeze({
    observe: (program) => request('observe', { program: String(program) }),
    describe: () => request('describe', {}),
    extract: (reply) => request('extract', { reply: String(reply) }),
    format: formatObservation,
  }),
  memory,
  budget: Object.freeze({ limits: Object.freeze(start.budgets), remaining: () => request('remaining', {}) }),
  log: (entry) => send({ type: 'log', entry: typeof entry === 'string' ? { text: entry } : entry }),
});

try {
  const result = await harness.solve(ctx);
  const program = result && typeof result === 'object' ? result.program : undefined;
  send({
    type: 'done',
    program: typeof program === 'string' ? program : null,
    rationale: typeof result?.rationale === 'string' ? result.rationale : '',
    ...(harness.memory === true ? { memory } : {}),
  });
  process.exit(0);
} catch (error) {
  send({ type: 'error', message: String(error?.stack ?? error), code: errorCode(error), name: error?.name ?? null });
  process.exit(70);
}
