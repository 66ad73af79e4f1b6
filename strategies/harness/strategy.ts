/**
 * `harness:<path>`: a harness module as a refining strategy, so it runs in any suite and appears in
 * leaderboards next to HERO-T and the feedback strategies. Each episode runs the harness in its
 * sandboxed child; its requests go to the episode's refinement session (the model, the observer),
 * every prompt, reply, observation and program is written to the refinement log (the trace), and
 * its final program is adopted, so the oracle's verdict is computed on the host after it returns.
 * A harness that fails (timeout, memory, budget, crash, protocol, sandbox-violation) is stopped and
 * its episode fails: its final program is the empty program, and the log names the kind.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { RefinementSession } from '../../core/refinement.ts';
import type { RefiningStrategy } from '../../core/strategy.ts';
import type { Candidate, JsonObject } from '../../core/types.ts';
import { DEFAULT_LIMITS, resolveBudgets, type HarnessBudgets, type SandboxLimits } from './budgets.ts';
import type { HarnessFailure } from './failure.ts';
import { runHarnessChild, type ChildEpisodeResult, type HarnessHost } from './run-child.ts';
import { transpileHarness } from './transpile.ts';
import { HARNESS_STRATEGY_PREFIX } from '../../core/strategy-names.ts';

export { HARNESS_STRATEGY_PREFIX };

export interface HarnessStrategyOptions {
  /** Strategy name (default `harness:<file name without .ts>`). */
  name?: string;
  budgets?: Partial<HarnessBudgets>;
  limits?: Partial<SandboxLimits>;
}

/** Does the source declare `memory: true` (its episodes then run one at a time, in task order)? */
export function declaresMemory(source: string): boolean {
  return /\bmemory\s*:\s*true\b/.test(source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ''));
}

/** The task key a harness sees: opaque, different in every strategy instance, so it cannot be used to look answers up. */
const opaqueKey = (secret: string, ...parts: (string | number)[]) =>
  createHash('sha256')
    .update([secret, ...parts].join('\u0000'))
    .digest('hex')
    .slice(0, 16);

/**
 * Context fields a harness may see: what the suites' prompts show (schema, evidence, database id,
 * dialect, graph, library, the function stub and its entry point, imported libraries). Everything
 * else — hidden tests, test scripts, file paths — is withheld.
 */
export const PUBLIC_FIELDS = [
  'db_id',
  'evidence',
  'schema',
  'dialect',
  'graph',
  'library',
  'codePrompt',
  'entryPoint',
  'libs',
] as const;

/** The public fields of a task's context. */
export function publicFields(context: JsonObject | undefined): JsonObject {
  const fields: JsonObject = {};
  for (const key of PUBLIC_FIELDS) {
    const value = context?.[key];
    if (value !== undefined) fields[key] = value;
  }
  return fields;
}

/** The refinement-log entry that names a harness failure. */
export const FAILED_OP = 'harness-failed';

/** A harness module as a strategy. The file is read now (an unreadable file is an error naming it) and compiled once, on first use. */
export function harnessStrategy(path: string, options: HarnessStrategyOptions = {}): RefiningStrategy {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`harness ${path}: cannot read it: ${(error as Error).message}`);
  }
  const budgets = resolveBudgets(options.budgets);
  const limits: SandboxLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const name = options.name ?? `${HARNESS_STRATEGY_PREFIX}${basename(path).replace(/\.ts$/, '')}`;
  const secret = randomBytes(16).toString('hex');
  const memories = new Map<string, JsonObject>();
  let compiled: Promise<string> | undefined;
  const compile = () =>
    (compiled ??= transpileHarness(source, path).then((result) => {
      if (!result.ok) throw new Error(`harness ${path} does not compile: ${result.errors.join('; ')}`);
      return result.code;
    }));

  return {
    kind: 'refining',
    name,
    ...(declaresMemory(source) ? { sequential: true } : {}),
    async refine(session) {
      const code = await compile();
      const memoryKey = `${session.task.benchmark}\u0000${session.trial}`;
      const bridge = sessionHost(session);
      const result = await runHarnessChild({
        code,
        task: {
          key: opaqueKey(secret, session.task.benchmark, session.task.id, session.trial),
          benchmark: session.task.benchmark,
          language: session.language,
          description: session.task.description,
          fields: publicFields(session.task.context),
        },
        memory: memories.get(memoryKey) ?? {},
        budgets,
        limits,
        host: bridge.host,
      });
      if (result.memory) memories.set(memoryKey, result.memory);
      await settle(session, bridge, result);
    },
  };
}

interface Bridge {
  host: HarnessHost;
  /** The program currently on record (the answer's, or the last adopted). */
  current(): Candidate | null;
}

/** The harness's requests answered through a refinement session, each one written to the trace. */
function sessionHost(session: RefinementSession): Bridge {
  let current: Candidate | null = null;
  const host: HarnessHost = {
    async answer(system) {
      current = await session.initial(system ?? undefined);
      session.log({ op: 'answer', system, program: current?.source ?? null });
      return { program: current?.source ?? null };
    },
    async chat(messages, purpose) {
      const reply = await session.ask(messages, purpose);
      session.log({ op: 'chat', purpose, messages: messages.map((m) => ({ ...m })), reply });
      return reply;
    },
    async observe(program) {
      const observation = await session.observe({ source: program, extraction: 'code-block' });
      session.log({ op: 'observe', program, observation: observation as unknown as JsonObject });
      return observation;
    },
    async describe() {
      const text = await session.describe();
      session.log({ op: 'describe', text });
      return text;
    },
    extract: (reply) => session.extract(reply)?.source ?? null,
    log: (entry) => session.log(entry),
  };
  return { host, current: () => current };
}

/** Records how the episode ended and makes the harness's final program the episode's. */
async function settle(session: RefinementSession, bridge: Bridge, result: ChildEpisodeResult): Promise<void> {
  const failure: HarnessFailure | undefined =
    result.failure ??
    (!result.answered
      ? { kind: 'protocol', message: 'the harness ended without calling ctx.model.answer()' }
      : undefined);
  const summary = { name: result.name, used: { ...result.used }, durationMs: result.durationMs };
  if (failure) {
    session.log({ op: FAILED_OP, kind: failure.kind, message: failure.message, ...summary });
    // The episode must fail: the initial answer (if any) may have been right.
    if (result.answered)
      await session.adopt({ source: '', extraction: 'whole-reply' }, `harness stopped (${failure.kind})`);
    return;
  }
  session.log({ op: 'done', program: result.program, rationale: result.rationale, ...summary });
  if (!result.answered) return;
  if (result.program === null) {
    await session.adopt({ source: '', extraction: 'whole-reply' }, 'the harness returned no program');
    return;
  }
  if (result.program.trim() === bridge.current()?.source.trim()) return;
  await session.adopt(
    { source: result.program, extraction: 'code-block' },
    result.rationale || 'final program of the harness',
  );
}
