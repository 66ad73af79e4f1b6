/**
 * Validation of a candidate harness before it is evaluated, as one JSON-safe outcome (stored as
 * `validation.json`): it compiles and typechecks against the SDK, imports only the SDK (no
 * dynamic imports, `require`, `process`, `globalThis` tricks), holds no task ids or gold literals
 * of the search pool (HERO's leak filter), and a smoke run on two search tasks ends without a
 * failure of any kind (nor an episode that could not run). The smoke run happens only when every
 * static check passed; a module over 256 KiB is refused unread.
 */
import { readFileSync } from 'node:fs';
import type { ChatModel } from '../../core/models/model.ts';
import type { Oracle, PreparedTask } from '../../core/oracle.ts';
import { preparedOnce } from '../../core/prepared.ts';
import type { PromptTemplate } from '../../core/prompt.ts';
import type { Task } from '../../core/types.ts';
import { findLeaks, leakTokens, type LeakSource } from '../hero/leak.ts';
import type { HarnessBudgets, SandboxLimits } from '../../strategies/harness/budgets.ts';
import { evaluateHarness } from './evaluate.ts';
import { importFindings, type SourceFinding } from './imports.ts';
import { transpileHarness } from '../../strategies/harness/transpile.ts';
import { typecheckHarness } from './typecheck.ts';

export interface ValidationInput<P extends PreparedTask> {
  harnessFile: string;
  oracle: Oracle<P>;
  /** The search pool: its ids and golds must not appear in the harness; the first two are the smoke tasks. */
  pool: readonly Task[];
  model: ChatModel;
  prompt: string | PromptTemplate;
  budgets?: Partial<HarnessBudgets>;
  limits?: Partial<SandboxLimits>;
  /** Tasks of the smoke run (default 2). */
  smokeTasks?: number;
}

export interface ValidationOutcome {
  harnessFile: string;
  valid: boolean;
  /** One line per failed check, for people and the proposer. */
  problems: string[];
  checks: {
    compile: { ok: boolean; errors: string[] };
    typecheck: { ok: boolean; errors: string[]; ms: number };
    imports: { ok: boolean; findings: SourceFinding[] };
    leaks: { ok: boolean; taskIds: string[]; literals: string[] };
    smoke: {
      ran: boolean;
      ok: boolean;
      episodes: { taskId: string; pass: boolean; failure: string | null; harnessError: string | null }[];
    };
  };
  checkedAt: string;
}

/**
 * The text a harness's author wrote as data: string and template text, numbers, comments. A bare
 * integer below 100 in code is a count or a budget (`const KEEP = 30`), not data, so it is left
 * out; the same number inside a string or a comment still counts.
 */
export function literalText(source: string): string {
  const parts = source.match(
    /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`|\b\d+(?:\.\d+)?\b/g,
  );
  return (parts ?? []).filter((part) => !/^\d{1,2}$/.test(part)).join('\n');
}

/** Task ids of the pool that the source names: as a whole string literal, or as a word of four characters or more. */
export function embeddedTaskIds(source: string, ids: readonly string[]): string[] {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return ids
    .filter((id) => {
      if (!id.trim()) return false;
      if (new RegExp(`(['"\`])${escape(id)}\\1`).test(source)) return true;
      return id.length >= 4 && new RegExp(`(^|[^A-Za-z0-9_])${escape(id)}($|[^A-Za-z0-9_])`).test(source);
    })
    .sort();
}

async function leakSources<P extends PreparedTask>(oracle: Oracle<P>, pool: readonly Task[]): Promise<LeakSource[]> {
  const sources: LeakSource[] = [];
  for (const task of pool) {
    let schema = '';
    if (oracle.observer) {
      try {
        schema = await oracle.observer.describe(await preparedOnce(oracle, task));
      } catch {
        // a task that cannot be prepared contributes its statement and gold only
      }
    }
    sources.push({ statement: task.description, programs: [task.gold], schema });
  }
  return sources;
}

/** Largest harness module validation reads (the proposer's write cap): a larger one is refused unread. */
export const MAX_HARNESS_BYTES = 256 * 1024;

/** The outcome for a module over MAX_HARNESS_BYTES: no check ran. */
function oversized(file: string, bytes: number): ValidationOutcome {
  const why = `the module is ${bytes} bytes, more than the ${MAX_HARNESS_BYTES} a harness may have`;
  const notRun = [`not run: ${why}`];
  return {
    harnessFile: file,
    valid: false,
    problems: [why],
    checks: {
      compile: { ok: false, errors: [why] },
      typecheck: { ok: false, errors: notRun, ms: 0 },
      imports: { ok: false, findings: [{ rule: 'size', line: 1, text: why }] },
      leaks: { ok: false, taskIds: [], literals: [] },
      smoke: { ran: false, ok: false, episodes: [] },
    },
    checkedAt: new Date().toISOString(),
  };
}

/** Validates one candidate harness. Throws only when its file cannot be read. */
export async function validateHarness<P extends PreparedTask>(input: ValidationInput<P>): Promise<ValidationOutcome> {
  const file = input.harnessFile;
  const source = readFileSync(file, 'utf8');
  const bytes = Buffer.byteLength(source);
  if (bytes > MAX_HARNESS_BYTES) return oversized(file, bytes);
  const [compiled, typecheck, findings] = await Promise.all([
    transpileHarness(source, file),
    typecheckHarness(source, file),
    importFindings(source),
  ]);
  const taskIds = embeddedTaskIds(
    source,
    input.pool.map((t) => t.id),
  );
  const literals = findLeaks(literalText(source), leakTokens(await leakSources(input.oracle, input.pool)));
  const checks: ValidationOutcome['checks'] = {
    compile: { ok: compiled.ok, errors: compiled.ok ? [] : compiled.errors },
    typecheck: { ok: typecheck.ok, errors: typecheck.errors, ms: typecheck.ms },
    imports: { ok: findings.length === 0, findings },
    leaks: { ok: taskIds.length === 0 && literals.length === 0, taskIds, literals },
    smoke: { ran: false, ok: false, episodes: [] },
  };
  const problems: string[] = [];
  if (!checks.compile.ok) problems.push(`does not compile: ${checks.compile.errors.join('; ')}`);
  if (!checks.typecheck.ok)
    problems.push(`does not typecheck against the SDK: ${checks.typecheck.errors.slice(0, 5).join('; ')}`);
  for (const f of findings) problems.push(`line ${f.line}: ${f.rule}: ${f.text}`);
  if (taskIds.length) problems.push(`names task ids of the search pool: ${taskIds.join(', ')}`);
  if (literals.length) problems.push(`holds literals of the search pool's tasks or golds: ${literals.join(', ')}`);

  if (problems.length === 0) {
    const evaluation = await evaluateHarness({
      harnessFile: file,
      oracle: input.oracle,
      tasks: input.pool.slice(0, input.smokeTasks ?? 2),
      model: input.model,
      prompt: input.prompt,
      runId: 'validation',
      ...(input.budgets ? { budgets: input.budgets } : {}),
      ...(input.limits ? { limits: input.limits } : {}),
    });
    const episodes = evaluation.episodes.map((e) => ({
      taskId: e.taskId,
      pass: e.pass,
      failure: e.failure ? `${e.failure.kind}: ${e.failure.message}` : null,
      harnessError: e.harnessError ?? null,
    }));
    // Any failure fails validation, and so does an episode that could not run: nothing was shown to work.
    const ok = episodes.every((e) => e.failure === null && e.harnessError === null);
    checks.smoke = { ran: true, ok, episodes };
    for (const e of episodes) {
      if (e.failure) problems.push(`smoke run on task ${e.taskId}: ${e.failure}`);
      if (e.harnessError) problems.push(`smoke run on task ${e.taskId}: harness error: ${e.harnessError}`);
    }
  }
  return { harnessFile: file, valid: problems.length === 0, problems, checks, checkedAt: new Date().toISOString() };
}
