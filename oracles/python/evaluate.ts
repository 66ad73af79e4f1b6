/**
 * Scoring a samples file the way the official evaluators do: every sample of every task is run in
 * the sandbox and judged; pass@k over tasks (unbiased estimator, official k values). Tasks whose
 * libraries are missing are listed apart ("environment missing <lib>"), as are broken tasks
 * (harness errors); neither counts as a model failure. Shared by both Python benchmarks on purpose:
 * it scores any Oracle, and only the CLI (cli/eval-python.ts) knows which benchmark it reads.
 */
import type { Oracle, PreparedTask } from '../../core/oracle.ts';
import type { Candidate, LoadedTasks, Task, Verdict } from '../../core/types.ts';
import { EnvironmentMissingError } from './environment.ts';
import { readJsonl } from './jsonl.ts';
import { passAtKTable } from '../../core/pass-at-k.ts';

export interface SampleInput {
  taskId: string;
  /** The program to run, or null when the sample has none (then it fails as no-artifact). */
  candidate: Candidate | null;
  line: number;
  /** `file:line` of the sample. */
  item: string;
  /** Why there is no program (when `candidate` is null), e.g. `has no "solution" or "completion" string`. */
  missing?: string;
  /** The entry itself is malformed (a field missing or of the wrong type), not a reply without code: also an issue. */
  malformed?: boolean;
}

/** Where a sample's program is, or why it has none: malformed entries are issues, replies without code are not. */
export type SampleProgram = Candidate | { problem: string; malformed: boolean };

export interface SampleResult {
  line: number;
  status: 'pass' | 'fail' | 'timeout' | 'error';
  /** Failing case ids (test names; generated-input ids). */
  failing: string[];
  passed: number;
  total: number;
  error?: string;
  /** Per failing case: the message (BigCodeBench: the test's traceback tail; DSCodeBench: expected vs actual). */
  details: Record<string, string>;
}

export interface TaskResult {
  taskId: string;
  status: 'evaluated' | 'environment-missing' | 'harness-error' | 'no-samples';
  message?: string;
  samples: SampleResult[];
}

export interface Evaluation {
  benchmark: string;
  tasks: number;
  samples: number;
  evaluatedTasks: number;
  passAt: Record<string, number>;
  environmentMissing: { taskId: string; message: string }[];
  harnessErrors: { taskId: string; message: string }[];
  issues: { item: string; message: string }[];
  results: TaskResult[];
}

/** Reads a samples file: one JSON object per line naming its task; `toCandidate` says where its program is. */
export function readSamples(
  path: string,
  idField: string,
  toCandidate: (sample: Record<string, unknown>) => SampleProgram,
): { samples: SampleInput[]; issues: { item: string; message: string }[] } {
  const { records, issues } = readJsonl(path);
  const out: SampleInput[] = [];
  const problems = issues.map((i) => ({ item: `${path}:${i.line}`, message: i.message }));
  for (const { line, value } of records) {
    const id = value[idField];
    if (typeof id !== 'string' && typeof id !== 'number') {
      problems.push({ item: `${path}:${line}`, message: `the sample has no ${idField}` });
      continue;
    }
    const program = toCandidate(value);
    const item = `${path}:${line}`;
    if ('problem' in program)
      out.push({
        taskId: String(id),
        candidate: null,
        line,
        item,
        missing: program.problem,
        malformed: program.malformed,
      });
    else out.push({ taskId: String(id), candidate: program, line, item });
  }
  return { samples: out, issues: problems };
}

function sampleResult(
  line: number,
  verdict: Verdict,
  describe: (verdict: Verdict, caseId: string) => string,
): SampleResult {
  const failing = verdict.cases.filter((c) => !c.pass).map((c) => c.id);
  const details: Record<string, string> = {};
  for (const id of failing.slice(0, 20)) {
    const text = describe(verdict, id);
    if (text) details[id] = text;
  }
  const status = verdict.pass ? 'pass' : verdict.error?.kind === 'timeout' ? 'timeout' : 'fail';
  return {
    line,
    status,
    failing,
    passed: verdict.cases.length - failing.length,
    total: verdict.cases.length,
    ...(verdict.error ? { error: `${verdict.error.kind}: ${verdict.error.message}` } : {}),
    details,
  };
}

export interface EvaluateOptions<P extends PreparedTask> {
  benchmark: string;
  loaded: LoadedTasks;
  samples: SampleInput[];
  sampleIssues: { item: string; message: string }[];
  oracle: Oracle<P>;
  /** Text for one failing case of a verdict. */
  describe: (verdict: Verdict, caseId: string) => string;
  onProgress?: (done: number, total: number) => void;
  /** Tasks evaluated at once (default 2). */
  concurrency?: number;
}

/** Runs every sample through the oracle and computes pass@k. */
export async function evaluateSamples<P extends PreparedTask>(options: EvaluateOptions<P>): Promise<Evaluation> {
  const { loaded, oracle } = options;
  const byTask = new Map<string, SampleInput[]>();
  const sampleIssues = [...options.sampleIssues];
  const known = new Map(loaded.tasks.map((t) => [t.id, t] as const));
  for (const sample of options.samples) {
    if (!known.has(sample.taskId)) {
      sampleIssues.push({ item: sample.item, message: `task ${sample.taskId} is not in the dataset (not scored)` });
      continue;
    }
    if (sample.malformed)
      sampleIssues.push({
        item: sample.item,
        message: `the sample of task ${sample.taskId} ${sample.missing} (scored as a failed sample)`,
      });
    const list = byTask.get(sample.taskId) ?? [];
    list.push(sample);
    byTask.set(sample.taskId, list);
  }
  const results: TaskResult[] = [];
  let done = 0;
  const queue = [...loaded.tasks];
  const evaluateTask = async (task: Task): Promise<TaskResult> => {
    const samples = byTask.get(task.id) ?? [];
    if (samples.length === 0) return { taskId: task.id, status: 'no-samples', samples: [] };
    let prepared: P;
    try {
      prepared = await oracle.prepare(task);
    } catch (error) {
      const status = error instanceof EnvironmentMissingError ? 'environment-missing' : 'harness-error';
      return { taskId: task.id, status, message: (error as Error).message, samples: [] };
    }
    const out: SampleResult[] = [];
    for (const sample of samples) {
      if (!sample.candidate) {
        const error = `no-artifact: ${sample.item} ${sample.missing ?? 'has no program'}`;
        out.push({
          line: sample.line,
          status: 'fail',
          failing: [...prepared.caseIds],
          passed: 0,
          total: prepared.caseIds.length,
          error,
          details: {},
        });
        continue;
      }
      try {
        out.push(sampleResult(sample.line, await oracle.check(prepared, sample.candidate), options.describe));
      } catch (error) {
        return { taskId: task.id, status: 'harness-error', message: (error as Error).message, samples: out };
      }
    }
    return { taskId: task.id, status: 'evaluated', samples: out };
  };
  const workers = Array.from({ length: Math.max(1, options.concurrency ?? 2) }, async () => {
    for (let task = queue.shift(); task; task = queue.shift()) {
      results.push(await evaluateTask(task));
      options.onProgress?.(++done, loaded.tasks.length);
    }
  });
  await Promise.all(workers);
  const order = new Map(loaded.tasks.map((t, i) => [t.id, i] as const));
  results.sort((a, b) => (order.get(a.taskId) ?? 0) - (order.get(b.taskId) ?? 0));
  const evaluated = results.filter((r) => r.status === 'evaluated');
  return {
    benchmark: options.benchmark,
    tasks: loaded.tasks.length,
    samples: options.samples.length,
    evaluatedTasks: evaluated.length,
    passAt: passAtKTable(
      evaluated.map((r) => ({ n: r.samples.length, c: r.samples.filter((s) => s.status === 'pass').length })),
    ),
    environmentMissing: results
      .filter((r) => r.status === 'environment-missing')
      .map((r) => ({ taskId: r.taskId, message: r.message ?? '' })),
    // Dataset issues first, then the samples file's, in line order.
    issues: [...loaded.issues, ...sampleIssues.sort((a, b) => lineOf(a.item) - lineOf(b.item))],
    harnessErrors: results
      .filter((r) => r.status === 'harness-error')
      .map((r) => ({ taskId: r.taskId, message: r.message ?? '' })),
    results,
  };
}

function lineOf(item: string): number {
  const line = Number(/:(\d+)$/.exec(item)?.[1]);
  return Number.isFinite(line) ? line : 0;
}
